import { argsMatchHash } from './args-binding.js';
import { parseArguments } from './arguments.js';
import { type GrantInput, checkGrant, DEFAULT_MAX_GRANT_HOURS, newGrantId } from './approval-grants.js';
import { sha256Hex } from './canonical.js';
import { checkEdit, type DecideEdit, EDIT_REFUSED } from './edits.js';
import { newestReceiptOf } from './receipts.js';
import { appendSigned, type ReceiptSigner } from './signing.js';
import type { AddAnswerResult, ApprovalAnswer, ApprovalGrant, ApprovalRequest, Receipt, ReceiptBody, ReceiptMatch, Store } from './types.js';

/**
 * An answer to a paused call, written once for every surface that answers: a Control
 * (`approve`/`reject`/`respond`), and through operator-actions.ts the CLI, serve's pages and API,
 * serve's store API and an MCP console. Each answer (and each refused one) is one receipt; an
 * approval with edits is checked (`checkEdit`) and a grant (`checkGrant`) before anything is
 * written; the grant is stored, with its own receipt, once the answer approved the request.
 */

/** What an approver says. */
export interface AnswerInput {
  approver: string;
  decision: 'approve' | 'reject' | 'respond';
  /** The answer's time (serve's clock through serve; the operator's machine in the CLI). */
  at: number;
  reason?: string;
  /** Approve with edits: the arguments to run instead of the model's (an object, or its JSON text). */
  arguments?: unknown;
  /** Respond: what the model reads in place of the tool's result. */
  result?: string;
  /** Approve and grant the same for this principal for `hours` (within `bounds`). */
  grant?: GrantInput;
}

/** What the answering surface knows of the policy: how it decides an action's arguments, and the longest grant the operator allows. */
export interface AnswerPolicy {
  decide?: DecideEdit | undefined;
  /** Hours; 0 turns grants off. Default 8. */
  maxGrantHours?: number | undefined;
}

export interface AnswerOptions extends AnswerPolicy {
  signer?: ReceiptSigner | undefined;
  /** The run's mode and environment for the receipts (default: the call's newest receipt's). */
  context?: { mode: ReceiptBody['mode']; environment: string | null } | undefined;
  /** The store writes every answer's receipt itself (httpStore: serve does): none is written here. */
  recordsAnswers?: boolean | undefined;
  newGrantId?: () => string;
  /** Told of each receipt written here, with the request it answers (a Control's telemetry records it on the call's span). */
  onReceipt?: ((sent: ReceiptBody, request?: ApprovalRequest) => void) | undefined;
}

export type AnswerRefusalCode = string;

/** An answer's outcome: the store's (a recorded one with the grant it made), or refused before anything was written. */
export type AnswerResult =
  | (Exclude<AddAnswerResult, { outcome: 'recorded' }> | { outcome: 'recorded'; request: ApprovalRequest; grant?: ApprovalGrant })
  /** The shown arguments are not the ones the request binds: refused, unchanged. */
  | { outcome: 'args_mismatch'; request: ApprovalRequest }
  /** An edit, a response or a grant this surface refuses (`code`: `edit_*`, `respond_*`, `grant_*`): nothing changed, one receipt. */
  | { outcome: 'refused'; code: AnswerRefusalCode; message: string; request: ApprovalRequest };

/** The longest a response may be (it reaches the model as the tool's result). */
export const MAX_RESPONSE_CHARS = 16_000;

/** Records one answer (see the module comment). */
export async function recordAnswer(store: Store, callId: string, input: AnswerInput, options: AnswerOptions = {}): Promise<AnswerResult> {
  const before = await store.getRequest(callId);
  if (!before) return { outcome: 'unknown' };
  const context = options.context ?? (await runContextOf(store, callId));
  const write = (body: ReceiptBody, request?: ApprovalRequest) => {
    if (options.recordsAnswers) return Promise.resolve();
    const sent = { ...body, ...context };
    options.onReceipt?.(sent, request);
    return appendSigned(store, options.signer, sent);
  };
  if (!argsMatchHash(before)) {
    await write(refusedAnswerReceipt(answerReceipt(before, plainAnswer(input)), plainAnswer(input), 'args_mismatch'));
    return { outcome: 'args_mismatch', request: before };
  }
  const prepared = prepareAnswer(before, input, options);
  if (!prepared.ok) {
    await write(refusedAnswerReceipt(answerReceipt(before, plainAnswer(input)), plainAnswer(input), prepared.code));
    return { outcome: 'refused', code: prepared.code, message: prepared.message, request: before };
  }
  const result = await store.addAnswer(callId, prepared.answer);
  if (result.outcome === 'unknown') return result;
  // every answer and every refused answer is one receipt (the requester's, a second answer by the
  // same person, an answer to a request no longer pending, an approval of another edit)
  const receipt = answerReceipt(result.request, prepared.answer);
  await write(result.outcome === 'recorded' ? receipt : refusedAnswerReceipt(receipt, prepared.answer, result.outcome), result.request);
  if (result.outcome !== 'recorded' || prepared.grant === undefined || result.request.state !== 'approved') return result;
  const grant = await putGrantOf(store, prepared.grant);
  await write(
    grantReceipt(result.request, grant, 'granted', grant.grantedBy, `${grant.rule} ${grant.bounds} until ${new Date(grant.expiresAt).toISOString()}`),
  );
  return { ...result, grant };
}

async function putGrantOf(store: Store, grant: ApprovalGrant): Promise<ApprovalGrant> {
  if (typeof store.putGrant !== 'function') throw new Error('this store keeps no approval grants');
  return store.putGrant(grant);
}

type Prepared = { ok: true; answer: ApprovalAnswer; grant?: ApprovalGrant } | { ok: false; code: string; message: string };

/** The answer to store (an edit checked, a response checked) and the grant to make, or why this surface refuses them. */
function prepareAnswer(request: ApprovalRequest, input: AnswerInput, options: AnswerOptions): Prepared {
  const answer = plainAnswer(input);
  if (input.decision === 'respond') {
    if (request.door?.kind === 'hosted_mcp')
      return { ok: false, code: 'respond_unsupported', message: `This call cannot be answered with a result: ${EDIT_REFUSED.hosted_mcp}.` };
    if (typeof input.result !== 'string' || input.result.trim() === '')
      return { ok: false, code: 'respond_empty', message: 'A response needs the result the model reads.' };
    if (input.result.length > MAX_RESPONSE_CHARS)
      return { ok: false, code: 'respond_too_long', message: `A response is at most ${MAX_RESPONSE_CHARS} characters.` };
    return { ok: true, answer: { ...answer, result: input.result } };
  }
  if (input.decision === 'reject') return { ok: true, answer };
  let approved: Record<string, unknown> | undefined;
  if (input.arguments !== undefined) {
    const edit = checkEdit(request, input.arguments, options.decide);
    if (!edit.ok) return edit;
    approved = edit.value;
    if (!edit.unchanged) Object.assign(answer, { args: edit.args, argsHash: edit.argsHash });
  }
  if (input.grant === undefined) return { ok: true, answer };
  const proposed = parseArguments(request.args);
  const checked = checkGrant({
    request,
    approver: input.approver,
    input: input.grant,
    approved: approved ?? (proposed.ok ? proposed.value : {}),
    decide: options.decide,
    maxHours: options.maxGrantHours ?? DEFAULT_MAX_GRANT_HOURS,
    now: input.at,
    id: (options.newGrantId ?? newGrantId)(),
  });
  return checked.ok ? { ok: true, answer, grant: checked.grant } : checked;
}

/** The stored part of an answer: who, what, when, why (an edit and a result are added once checked). */
function plainAnswer(input: AnswerInput): ApprovalAnswer {
  return { approver: input.approver, decision: input.decision, at: input.at, ...(input.reason === undefined ? {} : { reason: input.reason }) };
}

/** The receipt of an answer the store (or this surface) refused: who tried, and why. */
export function refusedAnswerReceipt(receipt: ReceiptBody, answer: ApprovalAnswer, why: string): ReceiptBody {
  const prefix = answer.decision === 'reject' ? 'reject_' : answer.decision === 'respond' && !why.startsWith('respond_') ? 'respond_' : '';
  return { ...receipt, decision: 'approve', approvers: [answer.approver], result: 'refused', reason: `${prefix}${why}` };
}

/** The receipt of a recorded answer: `approved`/`answered` (with its edit), `rejected`, or `responded`. */
export function answerReceipt(request: ApprovalRequest, answer: ApprovalAnswer): ReceiptBody {
  const approvers = request.answers.filter((a) => a.decision === 'approve').map((a) => a.approver);
  const base: ReceiptBody = {
    at: answer.at,
    action: request.action,
    call_id: request.callId,
    args_hash: request.argsHash,
    principal: request.principal,
    decision: 'approve',
    effect_key: null,
    policy_hash: request.policyHash,
    mode: 'enforce',
    environment: null,
    approvers,
    result: '',
    reason: '',
  };
  if (answer.decision === 'reject') return { ...base, approvers: [answer.approver], result: 'rejected', reason: answer.reason ?? 'rejected' };
  if (answer.decision === 'respond') {
    const response = answer.result ?? '';
    return {
      ...base,
      approvers: [answer.approver],
      result: 'responded',
      reason: answer.reason ?? 'responded in place of the tool',
      response_hash: sha256Hex(response),
    };
  }
  const receipt: ReceiptBody = {
    ...base,
    result: request.state === 'approved' ? 'approved' : 'answered',
    reason: `${approvers.length} of ${request.approvalsRequired} approvals`,
  };
  const first = request.answers.find((a) => a.decision === 'approve' && a.argsHash !== undefined && a.argsHash !== request.argsHash);
  if (answer.argsHash !== undefined && answer.argsHash !== request.argsHash)
    receipt.edit = { proposed_args_hash: request.argsHash, approved_args_hash: answer.argsHash, edited_by: first?.approver ?? answer.approver };
  return receipt;
}

/** The receipt of a grant made (`granted`) or revoked (`revoked`), naming it. */
export function grantReceipt(
  request: Pick<ApprovalRequest, 'action' | 'callId' | 'argsHash' | 'principal' | 'policyHash'> | null,
  grant: ApprovalGrant,
  result: 'granted' | 'revoked',
  by: string,
  reason: string,
): ReceiptBody {
  return {
    at: result === 'granted' ? grant.grantedAt : (grant.revokedAt ?? grant.grantedAt),
    action: grant.action,
    call_id: grant.callId,
    args_hash: request?.argsHash ?? null,
    principal: grant.principal,
    decision: 'approve',
    reason,
    approvers: [by],
    effect_key: null,
    result,
    policy_hash: grant.policyHash,
    mode: 'enforce',
    environment: null,
    approval_grant: grant.id,
  };
}

export type RevokeResult = { outcome: 'revoked'; grant: ApprovalGrant } | { outcome: 'unknown' } | { outcome: 'not_active'; grant: ApprovalGrant };

/** Revokes a grant (`by` at `now`) and writes its `revoked` receipt; an already revoked grant is left as it is. */
export async function revokeGrant(
  store: Store,
  id: string,
  by: string,
  now: number,
  options: Pick<AnswerOptions, 'signer' | 'context'> = {},
): Promise<RevokeResult> {
  if (typeof store.revokeGrant !== 'function') return { outcome: 'unknown' };
  const grant = await store.revokeGrant(id, by, now);
  if (!grant) return { outcome: 'unknown' };
  if (grant.revokedAt !== now || grant.revokedBy !== by) return { outcome: 'not_active', grant };
  const context = options.context ?? (await runContextOf(store, grant.callId));
  await appendSigned(store, options.signer, { ...grantReceipt(null, grant, 'revoked', by, 'revoked'), ...context });
  return { outcome: 'revoked', grant };
}

/** The mode and environment the run recorded for a call (its newest receipt), for the receipts of its answers. */
async function runContextOf(store: Store, callId: string): Promise<{ mode: ReceiptBody['mode']; environment: string | null }> {
  const asked = await lastReceipt(store, { callId });
  return { mode: asked?.mode ?? 'enforce', environment: asked?.environment ?? null };
}

/** The newest receipt of a call or an effect key: the store's own lookup, else the whole chain searched. */
export async function lastReceipt(store: Store, match: ReceiptMatch): Promise<Receipt | undefined> {
  const found = store.lastReceiptOf ? await store.lastReceiptOf(match) : newestReceiptOf(await store.listReceipts(), match);
  return found ?? undefined;
}
