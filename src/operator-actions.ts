import { answersOf, type FatigueRules, fatigueOfAnswer, fatigueReceipt } from './insights/fatigue.js';
import { type AnswerInput, type AnswerPolicy, type AnswerResult, lastReceipt, recordAnswer, revokeGrant, type RevokeResult } from './runtime/answer.js';
import { appendSigned, type ReceiptSigner } from './runtime/signing.js';
import type { ApprovalGrant, ApprovalRequest, EffectRecord, GrantQuery, Store } from './runtime/types.js';

/**
 * What the operators' surfaces change in a store (the CLI, serve's pages, its answer API and its
 * store API, an MCP console): answers (approve, approve with edits, reject with a message, respond
 * in the tool's place, approve and grant), grant revocations, and an operator's resolution of an
 * ambiguous effect key, each with its receipt. Every surface answers through here; the writing
 * itself is the runtime's `recordAnswer` (runtime/answer.ts), which a Control's `approve`,
 * `reject` and `respond` use too, so an answer means one thing wherever it is given. No SDK needed;
 * edits and grants need the policy's decision (`AnswerPolicy.decide`), which the surface passes in.
 *
 * With the operator's `signer` (`--signing-key`, `CTRLRUN_RECEIPT_KEY`) each receipt written here
 * is followed by a checkpoint naming exactly it, so `receipts verify --public-key APP --public-key
 * OPERATOR` counts it signed; without one it is appended unsigned and reported `foreign`.
 */
export type { AnswerInput, AnswerPolicy, AnswerResult, RevokeResult } from './runtime/answer.js';
export { answerReceipt, grantReceipt, MAX_RESPONSE_CHARS, refusedAnswerReceipt } from './runtime/answer.js';

/**
 * Records an operator's answer. Every way an operator answers checks the request's `args` against
 * its `argsHash` first; an edit is checked against the tool's schema and decided again by
 * `policy.decide` (an edit into deny is refused), a grant against the policy's rule and the
 * operator's limit (`policy.maxGrantHours`).
 */
export async function answerRequest(
  store: Store,
  callId: string,
  answer: AnswerInput,
  signer?: ReceiptSigner,
  /** `fatigue`: approval fatigue's rules (serve's and the CLI's `--fatigue-*` flags): given, a finding is recorded; absent, nothing is. */
  policy: AnswerPolicy & { fatigue?: FatigueRules | undefined } = {},
): Promise<AnswerResult> {
  const { fatigue, ...answerPolicy } = policy;
  const result = await recordAnswer(store, callId, answer, { ...answerPolicy, signer });
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
  answer: AnswerInput,
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

/** Revokes an approval grant as `by` (the next call it would have covered pauses), with its `revoked` receipt. */
export async function revokeGrantAs(store: Store, id: string, by: string, now: number, signer?: ReceiptSigner): Promise<RevokeResult> {
  return revokeGrant(store, id, by, now, { signer });
}

/** The store's approval grants, newest first; `activeAt`: only those unrevoked and unexpired then. */
export async function listGrantsOf(store: Store, query: GrantQuery = {}): Promise<ApprovalGrant[]> {
  if (typeof store.listGrants !== 'function') return [];
  return (await store.listGrants(query)).reverse();
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
