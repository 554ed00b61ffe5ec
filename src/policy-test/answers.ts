/**
 * The people's answers to the paused calls of a decision log (`receipts log`): an entry records
 * what the policy decided (`approve`), the answer is the operator's, kept in the store's approval
 * request and in the receipts (signed by the operator's key), never in the log: a candidate policy
 * cannot re-decide a person's answer, and a second copy would be one more record that must agree.
 */
import type { ApprovalRequest, ApprovalState, DecisionEntry, Store } from '../runtime/types.js';
import type { RecordedCall } from './calls-file.js';

/** What became of a paused call's request: its state, who approved, who rejected (and why). */
export interface EntryAnswer {
  state: ApprovalState;
  approvedBy: string[];
  rejectedBy: string[];
  reason?: string;
}

/** The answer to each `approve` entry with a call id whose request the store still holds, by entry seq. */
export async function answersOf(store: Pick<Store, 'getRequest'>, entries: readonly DecisionEntry[]): Promise<Map<number, EntryAnswer>> {
  const out = new Map<number, EntryAnswer>();
  for (const e of entries) {
    if (e.decision !== 'approve' || e.call_id === null) continue;
    const request = await store.getRequest(e.call_id);
    if (!request || request.action !== e.action || request.argsHash !== e.args_hash) continue; // another call under this id
    out.set(e.seq, answerOfRequest(request));
  }
  return out;
}

/**
 * Sets `answer` on each replayed example that paused (a store's call with its arguments hash): one
 * store read per example shown, not per call replayed, so a log of mostly paused calls replays
 * as fast as any other.
 */
export async function attachAnswers(store: Pick<Store, 'getRequest'>, examples: readonly RecordedCall[]): Promise<void> {
  for (const call of examples) {
    if (call.recorded?.decision !== 'approve' || call.callId === null || call.argsHash === undefined) continue;
    const request = await store.getRequest(call.callId);
    if (request && request.action === call.action && request.argsHash === call.argsHash) call.answer = answerText(answerOfRequest(request));
  }
}

function answerOfRequest(request: ApprovalRequest): EntryAnswer {
  const no = request.answers.find((a) => a.decision === 'reject');
  return {
    state: request.state,
    approvedBy: request.answers.filter((a) => a.decision === 'approve').map((a) => a.approver),
    rejectedBy: request.answers.filter((a) => a.decision === 'reject').map((a) => a.approver),
    ...(no?.reason !== undefined ? { reason: no.reason } : {}),
  };
}

/** One line for the table: `pending`, `approved by bob`, `approved by bob, used`, `rejected by carol: too large`. */
export function answerText(a: EntryAnswer | undefined): string {
  if (!a) return '-';
  if (a.state === 'pending') return a.approvedBy.length > 0 ? `pending (approved by ${a.approvedBy.join(', ')})` : 'pending';
  if (a.state === 'rejected') return `rejected by ${a.rejectedBy.join(', ') || '?'}${a.reason ? `: ${a.reason}` : ''}`;
  return `approved by ${a.approvedBy.join(', ')}${a.state === 'consumed' ? ', used' : ''}`;
}
