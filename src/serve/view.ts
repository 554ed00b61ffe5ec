import type { ApprovalRequest } from '../runtime/types.js';

/** Pure helpers for the inbox: ordering, paging, the argument diff, expiry. */

export const PAGE_SIZE = 50;

export const approvedCount = (r: ApprovalRequest): number => new Set(r.answers.filter((a) => a.decision === 'approve').map((a) => a.approver)).size;

/** Newest first (by creation time, then id for a stable order). */
export function newestFirst(requests: readonly ApprovalRequest[]): ApprovalRequest[] {
  return [...requests].sort((a, b) => b.createdAt - a.createdAt || (a.callId < b.callId ? 1 : a.callId > b.callId ? -1 : 0));
}

export interface Page<T> {
  items: T[];
  page: number;
  pages: number;
  total: number;
}

/** Page `page` (1-based, clamped) of `items`. */
export function paginate<T>(items: readonly T[], page: number, size = PAGE_SIZE): Page<T> {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const p = Math.min(Math.max(1, Number.isFinite(page) ? Math.floor(page) : 1), pages);
  return { items: items.slice((p - 1) * size, p * size), page: p, pages, total: items.length };
}

/** The most recently decided approved (or consumed) request of the same action, other than `request`. */
export function lastApprovedOf(request: ApprovalRequest, decided: readonly ApprovalRequest[]): ApprovalRequest | undefined {
  let best: ApprovalRequest | undefined;
  for (const r of decided) {
    if (r.callId === request.callId || r.action !== request.action) continue;
    if (r.state !== 'approved' && r.state !== 'consumed') continue;
    if (!best || (r.decidedAt ?? 0) > (best.decidedAt ?? 0)) best = r;
  }
  return best;
}

export interface ArgRow {
  key: string;
  /** JSON of the value in this call (undefined: absent). */
  value?: string;
  /** JSON of the value in the last approved call, when there is one to compare with. */
  before?: string;
  change: 'same' | 'changed' | 'added' | 'removed' | 'none';
}

/** The call's top-level arguments as rows, each compared with the last approved call's (if any). */
export function argumentRows(args: string, previousArgs?: string): ArgRow[] {
  const current = objectOf(args);
  const previous = previousArgs === undefined ? undefined : objectOf(previousArgs);
  const keys = [...new Set([...Object.keys(current), ...Object.keys(previous ?? {})])].sort();
  return keys.map((key) => {
    const value = Object.hasOwn(current, key) ? JSON.stringify(current[key]) : undefined;
    if (previous === undefined) return { key, ...(value !== undefined ? { value } : {}), change: 'none' as const };
    const before = Object.hasOwn(previous, key) ? JSON.stringify(previous[key]) : undefined;
    const change = value === undefined ? 'removed' : before === undefined ? 'added' : value === before ? 'same' : 'changed';
    return { key, ...(value !== undefined ? { value } : {}), ...(before !== undefined ? { before } : {}), change };
  });
}

function objectOf(json: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(json);
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
    return { '(arguments)': v };
  } catch {
    return { '(arguments)': json };
  }
}

/** An approved request's approval runs out `ttlMs` after it was decided (the control's approvalTtlMs). */
export function expiry(request: ApprovalRequest, ttlMs: number, now: number): { until: number; expired: boolean } | undefined {
  if (request.state !== 'approved' || request.decidedAt === undefined) return undefined;
  const until = request.decidedAt + ttlMs;
  return { until, expired: now >= until };
}
