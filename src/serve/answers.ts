import type { FatigueRules } from '../insights/fatigue.js';
import { answerReceipt, answerRequest, refusedAnswerReceipt, resolveEffectKey } from '../operator-actions.js';
import type { Policy } from '../policy/types.js';
import { appendSigned, type ReceiptSigner } from '../runtime/signing.js';
import type { ApprovalAnswer, ApprovalRequest, EffectRecord, Store } from '../runtime/types.js';
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

/**
 * Records `who`'s answer: the approver is the authenticated name, never a form field; the time is
 * serve's clock. The same store calls (and receipt) as `approvals approve|deny`, signed with
 * serve's `signer` when it has one.
 */
export async function answerAs(
  store: Store,
  policy: Policy,
  who: Principal,
  callId: string,
  decision: unknown,
  rawReason: unknown,
  now: number,
  signer?: ReceiptSigner,
  fatigue?: FatigueRules,
): Promise<AnswerOutcome> {
  if (decision !== 'approve' && decision !== 'reject') return { ok: false, status: 400, code: 'bad_decision', message: 'decision must be approve or reject.' };
  const reason = cleanReason(rawReason);
  if (!reason.ok) return { ok: false, status: 400, code: 'bad_reason', message: 'The reason may not hold control characters and is at most 2000 characters.' };
  if (decision === 'reject' && reason.value === undefined)
    return { ok: false, status: 400, code: 'reason_required', message: 'Say why the call is rejected: a reason is required.' };
  const request = await store.getRequest(callId);
  if (!request) return { ok: false, status: 404, code: 'unknown', message: `No approval request ${callId}.` };
  const problem = roleProblem(policy, request.action, who);
  if (problem) {
    await recordRoleRefusal(store, request, who.name, now, signer);
    return { ok: false, status: 403, code: 'role', message: problem, request };
  }
  const result = await answerRequest(
    store,
    callId,
    { approver: who.name, decision, at: now, ...(reason.value ? { reason: reason.value } : {}) },
    signer,
    fatigue,
  );
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
    case 'args_mismatch':
      return { ok: false, status: 409, code: 'args_mismatch', message: ARGS_MISMATCH, request: result.request };
    case 'recorded': {
      const r = result.request;
      const count = new Set(r.answers.filter((a) => a.decision === 'approve').map((a) => a.approver)).size;
      const message =
        r.state === 'rejected'
          ? `Rejected as ${who.name}. The run gets a refusal when it resumes.`
          : r.state === 'approved'
            ? `Approved as ${who.name} (${count} of ${r.approvalsRequired}). The call runs once when the run resumes.`
            : `Recorded ${who.name}'s approval (${count} of ${r.approvalsRequired}); it needs ${r.approvalsRequired - count} more.`;
      return { ok: true, request: r, message };
    }
  }
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
