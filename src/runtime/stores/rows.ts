import { canonicalJson } from '../canonical.js';
import type { ApprovalAnswer, ApprovalRequest, ApprovalState, EffectRecord, EffectState, PausedDoor, Receipt } from '../types.js';

/**
 * The row shapes both SQL stores share, and their mapping to the store's records. Integers may
 * come back as strings (Postgres `bigint`); `num` turns them back into numbers.
 */
export interface ApprovalRow {
  call_id: string;
  action: string;
  tool_name: string;
  args_hash: string;
  args: string;
  policy_hash: string;
  principal: string;
  approvals_required: number | string;
  state: string;
  answers: string;
  created_at: number | string;
  decided_at: number | string | null;
  consumed_at: number | string | null;
  door: string | null;
}

export interface EffectRow {
  key: string;
  action: string;
  state: string;
  attempts: number | string;
  attempt_id: string;
  lease_until: number | string;
  updated_at: number | string;
  resolved_by: string | null;
}

export interface ReceiptRow {
  seq: number | string;
  hash: string;
  receipt: string;
}

export const APPROVAL_COLUMNS =
  'call_id, action, tool_name, args_hash, args, policy_hash, principal, approvals_required, state, answers, created_at, decided_at, consumed_at, door';
/** How many columns APPROVAL_COLUMNS names (an insert's placeholders). */
export const APPROVAL_COLUMN_COUNT = 14;
export const EFFECT_COLUMNS = 'key, action, state, attempts, attempt_id, lease_until, updated_at, resolved_by';

function num(value: number | string): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n)) throw new TypeError(`store: expected an integer, got ${String(value)}`);
  return n;
}

/** An approval row as the values of APPROVAL_COLUMNS in order (a driver's array rows). */
export type ApprovalValues = readonly [
  callId: string,
  action: string,
  toolName: string,
  argsHash: string,
  args: string,
  policyHash: string,
  principal: string,
  approvalsRequired: number | string,
  state: string,
  answers: string,
  createdAt: number | string,
  decidedAt: number | string | null,
  consumedAt: number | string | null,
  door: string | null,
];

export function approvalFromRow(row: ApprovalRow): ApprovalRequest {
  return approvalFromValues([
    row.call_id,
    row.action,
    row.tool_name,
    row.args_hash,
    row.args,
    row.policy_hash,
    row.principal,
    row.approvals_required,
    row.state,
    row.answers,
    row.created_at,
    row.decided_at,
    row.consumed_at,
    row.door ?? null,
  ]);
}

/** The one mapping of a stored approval to the store's record; named rows come through approvalFromRow. */
export function approvalFromValues(v: ApprovalValues): ApprovalRequest {
  const request: ApprovalRequest = {
    callId: v[0],
    action: v[1],
    toolName: v[2],
    argsHash: v[3],
    args: v[4],
    policyHash: v[5],
    principal: v[6],
    approvalsRequired: num(v[7]),
    state: v[8] as ApprovalState,
    answers: JSON.parse(v[9]) as ApprovalAnswer[],
    createdAt: num(v[10]),
  };
  if (v[11] !== null) request.decidedAt = num(v[11]);
  if (v[12] !== null) request.consumedAt = num(v[12]);
  if (v[13] !== null && v[13] !== undefined) request.door = JSON.parse(v[13]) as PausedDoor;
  return request;
}

/** Column values in APPROVAL_COLUMNS order. */
export function approvalToValues(r: ApprovalRequest): unknown[] {
  return [
    r.callId,
    r.action,
    r.toolName,
    r.argsHash,
    r.args,
    r.policyHash,
    r.principal,
    r.approvalsRequired,
    r.state,
    JSON.stringify(r.answers),
    r.createdAt,
    r.decidedAt ?? null,
    r.consumedAt ?? null,
    r.door === undefined ? null : canonicalJson(r.door),
  ];
}

export function effectFromRow(row: EffectRow): EffectRecord {
  const effect: EffectRecord = {
    key: row.key,
    action: row.action,
    state: row.state as EffectState,
    attempts: num(row.attempts),
    attemptId: row.attempt_id,
    leaseUntil: num(row.lease_until),
    updatedAt: num(row.updated_at),
  };
  if (row.resolved_by !== null) effect.resolvedBy = row.resolved_by;
  return effect;
}

/** Column values in EFFECT_COLUMNS order. */
export function effectToValues(e: EffectRecord): unknown[] {
  return [e.key, e.action, e.state, e.attempts, e.attemptId, e.leaseUntil, e.updatedAt, e.resolvedBy ?? null];
}

/**
 * A stored receipt. The `seq` and `hash` columns are what the store orders and chains by, so they
 * win over the JSON's copies: a JSON that disagrees with them (or that is not a receipt at all:
 * `null`, a bare string, malformed) then fails verification instead of hiding an edit or crashing
 * a reader. Missing fields get neutral values so listing still works.
 */
export function receiptFromRow(row: ReceiptRow): Receipt {
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.receipt);
  } catch {
    parsed = null;
  }
  const stored = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Partial<Receipt>) : {};
  const receipt = { ...stored } as Receipt;
  const fill = <K extends keyof Receipt>(key: K, ok: (v: unknown) => boolean, value: Receipt[K]) => {
    if (!ok(receipt[key])) receipt[key] = value;
  };
  const str = (v: unknown) => typeof v === 'string';
  fill('action', str, '(unreadable receipt)');
  fill('result', str, '?');
  fill('reason', str, '');
  fill('approvers', (v) => Array.isArray(v) && v.every(str), []);
  fill('prev_hash', str, '');
  receipt.seq = num(row.seq);
  receipt.hash = row.hash;
  return receipt;
}
