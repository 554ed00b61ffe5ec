import type { Decision, ReceiptBody } from '../types.js';

/**
 * What one receipt says happened, as traces, metrics and insights read it. Every stage of a call
 * writes a receipt (docs/runtime.md), so the receipt is the one source of these events: the SDK's
 * traces and OpenTelemetry record them as they are written, `stats` and serve's Insights read them
 * back from the store. The mapping is pure and by the receipt's `result` word (then its `reason`),
 * so a new word slots in with one row (docs/observability.md has the table).
 */
export type EventKind = 'decision' | 'pause' | 'answer' | 'claim' | 'reservation' | 'settlement' | 'resolution' | 'grant' | 'fatigue';

export interface ObservedEvent {
  kind: EventKind;
  action: string;
  /** The tool call's id, which is also the approval request's id. */
  callId: string | null;
  decision: Decision | null;
  /** The matched rule's 0-based index, when the reason names one (`rule[N]`). */
  rule: number | null;
  reason: string;
  /** The receipt's `result` word, as written (`allowed`, `denied`, `requested`, `claimed`, `executed`, …). */
  outcome: string;
  /** Whether the call was refused (its body did not, and will not, run on this attempt). */
  refused: boolean;
  principal: string | null;
  approvers: string[];
  effectKey: string | null;
  argsHash: string | null;
  policyHash: string;
  mode: 'enforce' | 'observe';
  at: number;
  /** Who edited the arguments (an approval with edits: the receipt's `edit.edited_by`); null otherwise. */
  editedBy: string | null;
  /** The approval grant the receipt names (`approval_grant`: the grant made, revoked, or the one a call ran under); null otherwise. */
  grantId: string | null;
}

/** `result` word -> kind. A word not listed is a decision (a refusal when `refused`). */
const KIND_OF_RESULT: Readonly<Record<string, EventKind>> = {
  requested: 'pause',
  allowed: 'decision',
  denied: 'decision',
  observed: 'decision',
  claimed: 'claim',
  duplicate: 'reservation',
  executed: 'settlement',
  failed: 'settlement',
  ambiguous: 'settlement',
  not_executed: 'settlement',
  approved: 'answer',
  answered: 'answer',
  rejected: 'answer',
  edited: 'answer',
  responded: 'answer',
  resolved: 'resolution',
  granted: 'grant',
  revoked: 'grant',
  fatigue: 'fatigue',
};

/** A refused answer's reasons (operator-actions.ts; a refused rejection's carry `reject_` before them). */
const ANSWER_REFUSALS = new Set(['approver_is_requester', 'approver_not_authenticated', 'duplicate', 'not_pending', 'args_mismatch', 'edit_mismatch']);
/** An edit, a response or a grant the answer's check refused (runtime/answer.ts), a refused rejection, a missing role. */
const ANSWER_REFUSAL_PREFIX = /^(reject_|respond_|grant_|edit_|role)/;

/** A `refused` receipt's stage, by its reason: the approval's claim, the key's reservation, an answer; else the decision. */
function refusalKind(reason: string): EventKind {
  if (reason.startsWith('approval_')) return 'claim';
  if (reason.startsWith('effect_') || reason === 'max_attempts' || reason === 'budget_exhausted') return 'reservation';
  if (ANSWER_REFUSALS.has(reason) || ANSWER_REFUSAL_PREFIX.test(reason)) return 'answer';
  return 'decision';
}

const REFUSED = new Set(['denied', 'refused', 'duplicate']);
const RULE = /^rule\[(\d+)\]$/;

/** Receipts that are records about the chain, not about a call. */
const NOT_CALLS = new Set(['ctrlrun.checkpoint', 'ctrlrun.prune']);

type ReceiptLike = Pick<ReceiptBody, 'action' | 'result' | 'reason'> & Partial<Omit<ReceiptBody, 'action' | 'result' | 'reason'>>;

/** The event a receipt records, or null for a receipt about the chain itself (a checkpoint, a prune record). Pure. */
export function eventOfReceipt(r: ReceiptLike): ObservedEvent | null {
  if (NOT_CALLS.has(r.action) || r.checkpoint !== undefined || r.prune !== undefined) return null;
  const reason = r.reason ?? '';
  const kind = r.result === 'refused' ? refusalKind(reason) : (KIND_OF_RESULT[r.result] ?? 'decision');
  const rule = RULE.exec(reason);
  return {
    kind,
    action: r.action,
    callId: r.call_id ?? null,
    decision: r.decision ?? null,
    rule: rule ? Number(rule[1]) : null,
    reason,
    outcome: r.result,
    refused: REFUSED.has(r.result),
    principal: r.principal ?? null,
    approvers: r.approvers ?? [],
    effectKey: r.effect_key ?? null,
    argsHash: r.args_hash ?? null,
    policyHash: r.policy_hash ?? '',
    mode: r.mode ?? 'enforce',
    at: r.at ?? 0,
    editedBy: r.edit?.edited_by ?? null,
    grantId: r.approval_grant ?? null,
  };
}
