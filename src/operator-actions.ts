import { answersOf, type FatigueRules, fatigueOfAnswer, fatigueReceipt } from './insights/fatigue.js';
import { argsMatchHash } from './runtime/args-binding.js';
import { newestReceiptOf } from './runtime/receipts.js';
import { appendSigned, type ReceiptSigner } from './runtime/signing.js';
import type { AddAnswerResult, ApprovalAnswer, ApprovalRequest, EffectRecord, Receipt, ReceiptBody, ReceiptMatch, Store } from './runtime/types.js';

/**
 * What the operator's CLI changes in a store: the same store calls a Control's `approve`/`reject`
 * make (an answer bound to the request, then a receipt), and an operator's resolution of an
 * ambiguous effect key (plus a receipt). No policy and no SDK needed: the request carries its
 * action, arguments hash and policy hash.
 *
 * With the operator's `signer` (`--signing-key`, `CTRLRUN_RECEIPT_KEY`) each receipt written here
 * is followed by a checkpoint naming exactly it, so `receipts verify --public-key APP --public-key
 * OPERATOR` counts it signed; without one it is appended unsigned and reported `foreign`.
 */
/** An answer's outcome: the store's, or `args_mismatch` (the shown arguments are not the ones the request binds: refused, unchanged). */
export type AnswerResult = AddAnswerResult | { outcome: 'args_mismatch'; request: ApprovalRequest };

/**
 * Every way an operator answers (the CLI, serve's pages and answer API, and serve's raw store API
 * that httpStore speaks) checks the request's `args` against its `argsHash` first.
 */
export async function answerRequest(
  store: Store,
  callId: string,
  answer: ApprovalAnswer,
  signer?: ReceiptSigner,
  /** Approval fatigue's rules: given (serve's and the CLI's `--fatigue-*` flags), a finding is recorded; absent, nothing is. */
  fatigue?: FatigueRules,
): Promise<AnswerResult> {
  const before = await store.getRequest(callId);
  if (before && !argsMatchHash(before)) {
    await appendSigned(store, signer, refusedAnswerReceipt(answerReceipt(before, answer), answer, 'args_mismatch'));
    return { outcome: 'args_mismatch', request: before };
  }
  const result = await store.addAnswer(callId, answer);
  if (result.outcome === 'unknown') return result;
  // Every answer and every refused answer is one receipt (the requester's, a second answer by the
  // same person, an answer to a request no longer pending), in the run's mode and environment.
  const asked = await lastReceipt(store, { callId });
  const context = { mode: asked?.mode ?? 'enforce', environment: asked?.environment ?? null };
  const receipt = { ...answerReceipt(result.request, answer), ...context };
  await appendSigned(store, signer, result.outcome === 'recorded' ? receipt : refusedAnswerReceipt(receipt, answer, result.outcome));
  if (result.outcome === 'recorded' && fatigue) await recordFatigue(store, result.request, answer, signer, fatigue);
  return result;
}

/**
 * Approval fatigue, recorded where the answer is given (serve, the CLI): an approval faster than
 * the rules allow, or the answer that takes its approver past their limit in the window, is a
 * `fatigue` receipt (insights/fatigue.ts). It changes nothing about the answer.
 */
async function recordFatigue(
  store: Store,
  request: ApprovalRequest,
  answer: ApprovalAnswer,
  signer: ReceiptSigner | undefined,
  rules: FatigueRules,
): Promise<void> {
  const fact = {
    approver: answer.approver,
    decision: answer.decision,
    at: answer.at,
    callId: request.callId,
    action: request.action,
    filedAt: request.createdAt,
  };
  const history = answersOf(await store.listRequests()).filter((a) => !(a.callId === fact.callId && a.approver === fact.approver));
  for (const finding of fatigueOfAnswer(fact, history, rules)) await appendSigned(store, signer, fatigueReceipt(finding, request));
}

/** The receipt of an answer the store refused: who tried, and why (`approver_is_requester`, `duplicate`, `not_pending`). */
export function refusedAnswerReceipt(receipt: ReceiptBody, answer: ApprovalAnswer, why: string): ReceiptBody {
  return { ...receipt, decision: 'approve', approvers: [answer.approver], result: 'refused', reason: answer.decision === 'reject' ? `reject_${why}` : why };
}

/** The receipt of a recorded answer: the same fields a Control's approve/reject write. */
export function answerReceipt(request: ApprovalRequest, answer: ApprovalAnswer): ReceiptBody {
  const approvers = request.answers.filter((a) => a.decision === 'approve').map((a) => a.approver);
  const base = {
    at: answer.at,
    action: request.action,
    call_id: request.callId,
    args_hash: request.argsHash,
    principal: request.principal,
    decision: 'approve' as const,
    effect_key: null,
    policy_hash: request.policyHash,
    mode: 'enforce' as const,
    environment: null,
  };
  if (answer.decision === 'reject') return { ...base, approvers: [answer.approver], result: 'rejected', reason: answer.reason ?? 'rejected' };
  return {
    ...base,
    approvers,
    result: request.state === 'approved' ? 'approved' : 'answered',
    reason: `${approvers.length} of ${request.approvalsRequired} approvals`,
  };
}

export type ResolveOutcome =
  | { outcome: 'resolved'; effect: EffectRecord }
  | { outcome: 'unknown' }
  /** Not ambiguous (committed, failed, or in flight with its lease still running): unchanged. */
  | { outcome: 'not_ambiguous'; effect: EffectRecord };

export async function resolveEffectKey(
  store: Store,
  key: string,
  state: 'committed' | 'failed',
  by: string,
  now: number,
  signer?: ReceiptSigner,
): Promise<ResolveOutcome> {
  const effect = await store.resolveEffect(key, state, by, now);
  if (!effect) return { outcome: 'unknown' };
  if (effect.resolvedBy !== by || effect.state !== state || effect.updatedAt !== now) return { outcome: 'not_ambiguous', effect };
  const previous = await lastReceipt(store, { effectKey: key });
  await appendSigned(store, signer, {
    at: now,
    action: effect.action,
    call_id: previous?.call_id ?? null,
    args_hash: previous?.args_hash ?? null,
    principal: previous?.principal ?? null,
    decision: null,
    reason: `operator_resolved_${state}`,
    approvers: [by],
    effect_key: key,
    result: 'resolved',
    policy_hash: previous?.policy_hash ?? '',
    mode: previous?.mode ?? 'enforce',
    environment: previous?.environment ?? null,
  });
  return { outcome: 'resolved', effect };
}

/** The newest receipt of a call or an effect key: the store's own lookup, else the whole chain searched. */
async function lastReceipt(store: Store, match: ReceiptMatch): Promise<Receipt | undefined> {
  const found = store.lastReceiptOf ? await store.lastReceiptOf(match) : newestReceiptOf(await store.listReceipts(), match);
  return found ?? undefined;
}
