import type { ApprovalAnswer, ApprovalRequest, ApprovalState, EffectRecord, EffectState, Receipt } from '../types.js';

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
  receipt: string;
}

export const APPROVAL_COLUMNS =
  'call_id, action, tool_name, args_hash, args, policy_hash, principal, approvals_required, state, answers, created_at, decided_at, consumed_at';
export const EFFECT_COLUMNS = 'key, action, state, attempts, attempt_id, lease_until, updated_at, resolved_by';

function num(value: number | string): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n)) throw new TypeError(`store: expected an integer, got ${String(value)}`);
  return n;
}

export function approvalFromRow(row: ApprovalRow): ApprovalRequest {
  const request: ApprovalRequest = {
    callId: row.call_id,
    action: row.action,
    toolName: row.tool_name,
    argsHash: row.args_hash,
    args: row.args,
    policyHash: row.policy_hash,
    principal: row.principal,
    approvalsRequired: num(row.approvals_required),
    state: row.state as ApprovalState,
    answers: JSON.parse(row.answers) as ApprovalAnswer[],
    createdAt: num(row.created_at),
  };
  if (row.decided_at !== null) request.decidedAt = num(row.decided_at);
  if (row.consumed_at !== null) request.consumedAt = num(row.consumed_at);
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

export function receiptFromRow(row: ReceiptRow): Receipt {
  return JSON.parse(row.receipt) as Receipt;
}
