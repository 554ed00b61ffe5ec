import { eventOfReceipt } from '../runtime/observe/event.js';
import type { ApprovalRequest, Receipt } from '../runtime/types.js';
import { answersOf, type FatigueFinding, fatigueFindings, type FatigueRules } from './fatigue.js';

/**
 * Insights over a store's approval requests and receipts for a period: per action and per
 * approver, requests, approval rate, median and p90 time to decide, expired, edits and grants used;
 * the busiest rules; and approval fatigue. Pure: `stats` and serve's Insights page read the store
 * and hand it here.
 */
export interface InsightsOptions {
  /** The period: requests filed, receipts written, answers given in [since, until). */
  since: number;
  until: number;
  /** An approval not used within this of its decision has expired (the control's approvalTtlMs). */
  approvalTtlMs: number;
  fatigue: FatigueRules;
  /** How many rules to list. */
  topRules?: number;
}

export interface Timing {
  /** Decided requests (approved, rejected, used). */
  decided: number;
  approved: number;
  rejected: number;
  /** approved / decided; null when nothing was decided. */
  approvalRate: number | null;
  medianMs: number | null;
  p90Ms: number | null;
}

export interface ActionInsight extends Timing {
  action: string;
  requests: number;
  pending: number;
  expired: number;
  edits: number;
  grantsUsed: number;
}

export interface ApproverInsight extends Timing {
  approver: string;
  answers: number;
  fatigue: number;
}

export interface RuleInsight {
  action: string;
  reason: string;
  calls: number;
}

export interface Insights {
  since: number;
  until: number;
  totals: ActionInsight;
  actions: ActionInsight[];
  approvers: ApproverInsight[];
  rules: RuleInsight[];
  fatigue: FatigueFinding[];
  /** `fatigue` receipts written in the period (serve and the CLI record each finding when the answer is given). */
  fatigueRecorded: number;
  /** The rules the fatigue findings were judged by. */
  fatigueRules: FatigueRules;
}

/** The value at quantile `q` (nearest rank) of `values`, or null. */
export function quantile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

function timing(decided: readonly { ms: number; approved: boolean }[]): Timing {
  const approved = decided.filter((d) => d.approved).length;
  const ms = decided.map((d) => d.ms);
  return {
    decided: decided.length,
    approved,
    rejected: decided.length - approved,
    approvalRate: decided.length === 0 ? null : approved / decided.length,
    medianMs: quantile(ms, 0.5),
    p90Ms: quantile(ms, 0.9),
  };
}

const within = (at: number, o: InsightsOptions) => at >= o.since && at < o.until;
const byName = <T>(map: Map<string, T>) => [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** The request's own outcome: approved (and used or not), rejected, or undecided. */
function decisionOf(r: ApprovalRequest): { ms: number; approved: boolean } | undefined {
  if (r.decidedAt === undefined || r.state === 'pending') return undefined;
  return { ms: Math.max(0, r.decidedAt - r.createdAt), approved: r.state !== 'rejected' };
}

export function insightsOf(requests: readonly ApprovalRequest[], receipts: readonly Receipt[], o: InsightsOptions): Insights {
  const filed = requests.filter((r) => within(r.createdAt, o));
  // a call's edit and its grant are on several of its receipts (the answer's, the resumed call's): counted once a call
  const perAction = new Map<string, { requests: ApprovalRequest[]; edits: Set<string>; grantsUsed: Set<string> }>();
  const slot = (action: string) => {
    const found = perAction.get(action);
    if (found) return found;
    const made = { requests: [] as ApprovalRequest[], edits: new Set<string>(), grantsUsed: new Set<string>() };
    perAction.set(action, made);
    return made;
  };
  for (const r of filed) slot(r.action).requests.push(r);
  const rules = new Map<string, RuleInsight>();
  let fatigueRecorded = 0;
  for (const receipt of receipts) {
    if (!within(receipt.at, o)) continue;
    const event = eventOfReceipt(receipt);
    if (event === null) continue;
    if (event.kind === 'fatigue') fatigueRecorded++;
    if (event.editedBy !== null) slot(event.action).edits.add(event.callId ?? `${event.at}`);
    if (event.grantId !== null && event.kind !== 'grant') slot(event.action).grantsUsed.add(event.callId ?? `${event.at}`);
    // a call's decision: the first receipt a call has (a pause, an allow, a denial), by the rule that decided it
    if ((event.kind === 'decision' || event.kind === 'pause') && event.outcome !== 'refused' && event.reason !== '') {
      const key = `${event.action}\u0000${event.reason}`;
      const r = rules.get(key) ?? { action: event.action, reason: event.reason, calls: 0 };
      r.calls++;
      rules.set(key, r);
    }
  }
  const actionOf = (action: string, s: { requests: ApprovalRequest[]; edits: number; grantsUsed: number }): ActionInsight => ({
    action,
    requests: s.requests.length,
    pending: s.requests.filter((r) => r.state === 'pending').length,
    expired: s.requests.filter((r) => r.state === 'approved' && r.decidedAt !== undefined && r.decidedAt + o.approvalTtlMs <= o.until).length,
    edits: s.edits,
    grantsUsed: s.grantsUsed,
    ...timing(s.requests.map(decisionOf).filter((d) => d !== undefined)),
  });
  const actions = byName(perAction).map(([a, s]) => actionOf(a, { requests: s.requests, edits: s.edits.size, grantsUsed: s.grantsUsed.size }));
  // a call is one action's: the totals are the sums
  const all = { requests: filed, edits: actions.reduce((n, a) => n + a.edits, 0), grantsUsed: actions.reduce((n, a) => n + a.grantsUsed, 0) };
  const answers = answersOf(requests);
  const fatigue = fatigueFindings(answers, o.fatigue).filter((f) => within(f.at, o));
  const perApprover = new Map<string, { ms: number; approved: boolean }[]>();
  for (const a of answers) {
    if (!within(a.at, o)) continue;
    const list = perApprover.get(a.approver) ?? [];
    list.push({ ms: Math.max(0, a.at - a.filedAt), approved: a.decision === 'approve' });
    perApprover.set(a.approver, list);
  }
  return {
    since: o.since,
    until: o.until,
    totals: actionOf('(all)', all),
    actions,
    approvers: byName(perApprover).map(([approver, list]) => ({
      approver,
      answers: list.length,
      fatigue: fatigue.filter((f) => f.approver === approver).length,
      ...timing(list),
    })),
    rules: [...rules.values()].sort((a, b) => b.calls - a.calls || (a.action + a.reason < b.action + b.reason ? -1 : 1)).slice(0, o.topRules ?? 10),
    fatigue,
    fatigueRecorded,
    fatigueRules: o.fatigue,
  };
}
