import type { FatigueRules } from '../insights/fatigue.js';
import {
  type AnswerInput,
  type AnswerResult,
  answerReceipt,
  answerRequest,
  MAX_RESPONSE_CHARS,
  refusedAnswerReceipt,
  resolveEffectKey,
  revokeGrantAs,
} from '../operator-actions.js';
import { policyDecider } from '../policy/evaluate.js';
import { changesText, editOf } from '../runtime/edits.js';
import type { Policy } from '../policy/types.js';
import { appendSigned, type ReceiptSigner } from '../runtime/signing.js';
import type { ApprovalAnswer, ApprovalGrant, ApprovalRequest, EffectRecord, Store } from '../runtime/types.js';
import { missingRoles, type Principal, requiredRoles } from './auth.js';

/** What an operator's answer through serve came to: done, or refused with a message for the screen. */
export type AnswerOutcome =
  | { ok: true; request: ApprovalRequest; message: string }
  | { ok: false; status: 400 | 403 | 404 | 409; code: string; message: string; request?: ApprovalRequest };

export const ARGS_MISMATCH =
  "Refused: the stored arguments are not the ones this request's argsHash binds: what is shown is not what would run. Nobody may answer it here; the store was written by something other than ctrlrun-gen.";

const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/u;

/** A reason as typed: line breaks become spaces; other control characters are refused. */
export function cleanReason(raw: unknown): { ok: true; value: string | undefined } | { ok: false } {
  if (raw === undefined || raw === null) return { ok: true, value: undefined };
  if (typeof raw !== 'string') return { ok: false };
  const text = raw.replace(/\r\n?|\n/g, ' ').trim();
  if (CONTROL.test(text) || text.length > 2000) return { ok: false };
  return { ok: true, value: text === '' ? undefined : text };
}

/** The roles the policy asks of whoever answers this action (none when the policy lacks it). */
export function rolesFor(policy: Policy, action: string): string[] {
  const a = Object.hasOwn(policy.actions, action) ? policy.actions[action] : undefined;
  if (!a) return [];
  return requiredRoles(a.controls.map((id) => policy.controls[id] ?? {}));
}

/** Why this operator may not answer requests of `action`, or undefined when they may. */
export function roleProblem(policy: Policy, action: string, who: Principal): string | undefined {
  if (who.kind !== 'operator') return 'a runtime token never answers';
  if (!Object.hasOwn(policy.actions, action)) {
    return `The policy serve loaded has no action ${action}, so who may answer it is unknown: nobody may here. Start serve with the policy the agent runs.`;
  }
  const missing = missingRoles(rolesFor(policy, action), who.roles);
  if (missing.length === 0) return undefined;
  return `${who.name} may not answer ${action}: it needs the role ${missing.join(' and ')} (the policy's approver_role), which ${who.name} does not hold.`;
}

/** An answer refused for a missing role (or an action the policy lacks) is one `refused` receipt too. */
export async function recordRoleRefusal(store: Store, request: ApprovalRequest, approver: string, now: number, signer?: ReceiptSigner): Promise<void> {
  await recordAnswerRefusal(store, request, { approver, decision: 'approve', at: now }, 'role_missing', signer);
}

/**
 * A refused answer's receipt, written by serve: `answer.approver` is the authenticated name (who
 * tried), `why` the refusal (`role_missing`, `approver_not_authenticated`: the body named another
 * approver).
 */
export async function recordAnswerRefusal(store: Store, request: ApprovalRequest, answer: ApprovalAnswer, why: string, signer?: ReceiptSigner): Promise<void> {
  await appendSigned(store, signer, refusedAnswerReceipt(answerReceipt(request, answer), answer, why));
}

/** What serve's answers are weighed with: its policy, its signer, and the longest grant its operator allows. */
export interface AnswerContext {
  policy: Policy;
  signer?: ReceiptSigner | undefined;
  /** `serve --max-grant-hours` (0: no grants). */
  maxGrantHours: number;
  /** Approval fatigue's rules, when serve records its findings (`--fatigue-*`). */
  fatigue?: FatigueRules | undefined;
}

/** An answer as a form or the JSON API sends it: approve (with `arguments`, a `grant`), reject with a reason, respond with a result. */
export interface AnswerBody {
  decision?: unknown;
  reason?: unknown;
  arguments?: unknown;
  grant?: unknown;
  result?: unknown;
}

const BAD_REQUEST_CODES = new Set(['edit_invalid', 'edit_schema', 'grant_invalid', 'grant_bounds', 'respond_empty', 'respond_too_long']);

/**
 * Records `who`'s answer: the approver is the authenticated name, never a form field; the time is
 * serve's clock. The same writing (and receipt) as `approvals approve|deny|respond` (operator-actions),
 * signed with serve's `signer` when it has one; an edit decided by serve's policy, a grant bounded by
 * its `--max-grant-hours`.
 */
export async function answerAs(store: Store, ctx: AnswerContext, who: Principal, callId: string, body: AnswerBody, now: number): Promise<AnswerOutcome> {
  const parsed = parseAnswer(body);
  if (!parsed.ok) return { ok: false, status: 400, code: parsed.code, message: parsed.message };
  const request = await store.getRequest(callId);
  if (!request) return { ok: false, status: 404, code: 'unknown', message: `No approval request ${callId}.` };
  const problem = roleProblem(ctx.policy, request.action, who);
  if (problem) {
    await recordRoleRefusal(store, request, who.name, now, ctx.signer);
    return { ok: false, status: 403, code: 'role', message: problem, request };
  }
  const result = await answerRequest(store, callId, { ...parsed.input, approver: who.name, at: now }, ctx.signer, {
    decide: policyDecider(ctx.policy),
    maxGrantHours: ctx.maxGrantHours,
    fatigue: ctx.fatigue,
  });
  return answerOutcome(result, who, callId);
}

/** An answer's body checked for its shape (what it means is the answer's own check: operator-actions). */
function parseAnswer(body: AnswerBody): { ok: true; input: Omit<AnswerInput, 'approver' | 'at'> } | { ok: false; code: string; message: string } {
  const decision = body.decision;
  if (decision !== 'approve' && decision !== 'reject' && decision !== 'respond')
    return { ok: false, code: 'bad_decision', message: 'decision must be approve, reject or respond.' };
  const reason = cleanReason(body.reason);
  if (!reason.ok) return { ok: false, code: 'bad_reason', message: 'The reason may not hold control characters and is at most 2000 characters.' };
  if (decision === 'reject' && reason.value === undefined)
    return { ok: false, code: 'reason_required', message: 'Say why the call is rejected: a reason is required.' };
  const input: Omit<AnswerInput, 'approver' | 'at'> = { decision, ...(reason.value ? { reason: reason.value } : {}) };
  if (decision === 'respond') {
    const result = cleanResult(body.result);
    if (!result.ok) return { ok: false, code: 'bad_result', message: `The response ${result.why}.` };
    input.result = result.value;
  }
  if (decision === 'approve' && body.arguments !== undefined && body.arguments !== null && body.arguments !== '') input.arguments = body.arguments;
  if (decision === 'approve' && body.grant !== undefined && body.grant !== null) {
    const grant = body.grant as { hours?: unknown; bounds?: unknown };
    const hours = typeof grant.hours === 'string' ? Number(grant.hours) : grant.hours;
    if (typeof grant !== 'object' || typeof hours !== 'number') return { ok: false, code: 'bad_grant', message: 'A grant is { hours, bounds? }.' };
    input.grant = { hours, ...(grant.bounds === undefined || grant.bounds === '' ? {} : { bounds: grant.bounds }) };
  }
  return { ok: true, input };
}

/** A response as typed: lines kept (a result may span them), other control characters refused, at most MAX_RESPONSE_CHARS. */
export function cleanResult(raw: unknown): { ok: true; value: string } | { ok: false; why: string } {
  if (typeof raw !== 'string' || raw.trim() === '') return { ok: false, why: "is empty: say what the model reads in the tool's place" };
  const text = raw.replace(/\r\n?/g, '\n');
  if (text.split('\n').some((line) => CONTROL.test(line.replace(/\t/g, ' '))))
    return { ok: false, why: 'may not hold control characters (line breaks and tabs aside)' };
  if (text.length > MAX_RESPONSE_CHARS) return { ok: false, why: `is at most ${MAX_RESPONSE_CHARS} characters` };
  return { ok: true, value: text };
}

/** An answer's outcome for the screen (and the API). */
function answerOutcome(result: AnswerResult, who: Principal, callId: string): AnswerOutcome {
  switch (result.outcome) {
    case 'unknown':
      return { ok: false, status: 404, code: 'unknown', message: `No approval request ${callId}.` };
    case 'approver_is_requester':
      return {
        ok: false,
        status: 409,
        code: 'approver_is_requester',
        message: `Refused: ${who.name} is who the run acts for (the requester); the requester never answers their own call. Another person must.`,
        request: result.request,
      };
    case 'duplicate':
      return {
        ok: false,
        status: 409,
        code: 'duplicate',
        message: `Refused: ${who.name} already answered this request; it needs a different approver.`,
        request: result.request,
      };
    case 'not_pending':
      return { ok: false, status: 409, code: 'not_pending', message: `Refused: the request is already ${result.request.state}.`, request: result.request };
    case 'edit_mismatch':
      return {
        ok: false,
        status: 409,
        code: 'edit_mismatch',
        message:
          'Refused: an earlier approval approved other arguments; every approver of a call approves the same ones. Approve those (shown below), or reject.',
        request: result.request,
      };
    case 'args_mismatch':
      return { ok: false, status: 409, code: 'args_mismatch', message: ARGS_MISMATCH, request: result.request };
    case 'refused':
      return { ok: false, status: BAD_REQUEST_CODES.has(result.code) ? 400 : 409, code: result.code, message: result.message, request: result.request };
    case 'recorded':
      return { ok: true, request: result.request, message: recordedMessage(result.request, who, result.grant) };
  }
}

function recordedMessage(r: ApprovalRequest, who: Principal, grant: ApprovalGrant | undefined): string {
  const count = new Set(r.answers.filter((a) => a.decision === 'approve').map((a) => a.approver)).size;
  const edit = editOf(r);
  const changes = edit ? ` with changes (${changesText(r.args, edit.args)})` : '';
  const granted = grant
    ? ` Granted the same (${grant.rule}${grant.bounds === '{}' ? '' : `, ${grant.bounds}`}) to ${grant.principal} until ${new Date(grant.expiresAt).toISOString()} (${grant.id}).`
    : '';
  if (r.state === 'rejected') {
    const responded = r.answers.some((a) => a.decision === 'respond');
    return responded
      ? `Responded as ${who.name}: the tool does not run; the model reads the response when the run resumes.`
      : `Rejected as ${who.name}. The run gets a refusal when it resumes.`;
  }
  if (r.state === 'approved')
    return `Approved as ${who.name}${changes} (${count} of ${r.approvalsRequired}). The call runs once${edit ? ', with these arguments,' : ''} when the run resumes.${granted}`;
  return `Recorded ${who.name}'s approval${changes} (${count} of ${r.approvalsRequired}); it needs ${r.approvalsRequired - count} more.`;
}

export type GrantOutcomeView = { ok: true; grant: ApprovalGrant; message: string } | { ok: false; status: 403 | 404 | 409; code: string; message: string };

/** Revokes a grant as `who` (serve's clock), for an operator who may answer its action; the `revoked` receipt signed by serve. */
export async function revokeAs(store: Store, policy: Policy, who: Principal, id: string, now: number, signer?: ReceiptSigner): Promise<GrantOutcomeView> {
  const grant = typeof store.getGrant === 'function' ? await store.getGrant(id) : null;
  if (!grant) return { ok: false, status: 404, code: 'unknown', message: `No approval grant ${id}.` };
  const problem = roleProblem(policy, grant.action, who);
  if (problem) return { ok: false, status: 403, code: 'role', message: problem };
  const result = await revokeGrantAs(store, id, who.name, now, signer);
  if (result.outcome === 'unknown') return { ok: false, status: 404, code: 'unknown', message: `No approval grant ${id}.` };
  if (result.outcome === 'not_active')
    return { ok: false, status: 409, code: 'not_active', message: `${id} was already revoked by ${result.grant.revokedBy}.` };
  return { ok: true, grant: result.grant, message: `Revoked ${id} as ${who.name}: the next call it would have covered pauses.` };
}

export type ResolveOutcomeView =
  | { ok: true; effect: EffectRecord; message: string }
  | { ok: false; status: 400 | 403 | 404 | 409; code: string; message: string };

export async function resolveAs(
  store: Store,
  policy: Policy,
  who: Principal,
  key: unknown,
  state: unknown,
  now: number,
  signer?: ReceiptSigner,
): Promise<ResolveOutcomeView> {
  if (typeof key !== 'string' || key === '') return { ok: false, status: 400, code: 'bad_key', message: 'Name the effect key.' };
  if (state !== 'committed' && state !== 'failed') return { ok: false, status: 400, code: 'bad_state', message: 'state must be committed or failed.' };
  const effect = await store.getEffect(key);
  if (!effect) return { ok: false, status: 404, code: 'unknown', message: `No effect key ${key}.` };
  const problem = roleProblem(policy, effect.action, who);
  if (problem) return { ok: false, status: 403, code: 'role', message: problem };
  const result = await resolveEffectKey(store, key, state, who.name, now, signer);
  if (result.outcome === 'unknown') return { ok: false, status: 404, code: 'unknown', message: `No effect key ${key}.` };
  if (result.outcome === 'not_ambiguous')
    return {
      ok: false,
      status: 409,
      code: 'not_ambiguous',
      message: `${key} is ${result.effect.state}${result.effect.state === 'in_flight' ? ' (its lease is still running)' : ''}; only an ambiguous key can be resolved.`,
    };
  return { ok: true, effect: result.effect, message: `Resolved ${key} as ${state} (by ${who.name}).` };
}
