import { strictCompleted } from '../args-binding.js';
import { checkArguments, type ArgumentsCheck } from '../arguments.js';
import { canonicalHash, canonicalJson } from '../canonical.js';
import { CtrlrunError } from '../errors.js';
import { describeError, type Who } from '../internals.js';
import type { CallDecision, NewApprovalRequest } from '../types.js';
import { noticeUnfiledPause } from '../unfiled-pause-notice.js';
import { coveringGrant } from './approval-grant.js';
import type { CoreScope } from './scope.js';

/** The call the SDK is about to pause: its call id (the SDK's third `needsApproval` argument) and the tool's name. */
export interface PausingCall {
  callId: string | undefined;
  toolName: string;
  /**
   * The tool's JSON schema as the SDK sends it to the model (strict mode: every property required,
   * an optional one nullable). The SDK drops the `null` sent for an optional property before
   * `needsApproval`; the schema says where to put it back (`strictCompleted`).
   */
  strictSchema?: unknown;
}

/** The tool a call may pause in, made once per tool: a `PausingCall` is built from it only when a pause is filed. */
export type PausingTool = Omit<PausingCall, 'callId'>;

/** Parameters the SDK parses with a schema library (zod, a Standard Schema), dropping optional fields' nulls, not JSON.parse alone. */
export function isSchemaParsed(parameters: unknown): boolean {
  return (
    parameters !== null &&
    typeof parameters === 'object' &&
    (typeof (parameters as { safeParse?: unknown }).safeParse === 'function' || '~standard' in parameters)
  );
}

/**
 * The arguments of the paused call as the model's text has them, from what `needsApproval` sees
 * (the SDK's parse, optional properties' `null`s dropped): those `null`s put back, as strict mode
 * writes the call. Undefined when that cannot be known: an optional property missing where the
 * schema does not say which it was, or a value this library would not hash the same way from the
 * text (an integer beyond 2^53, which JSON.parse rounds). Pure.
 */
export function pausedArguments(call: Pick<PausingCall, 'strictSchema'>, input: unknown): Record<string, unknown> | undefined {
  return writtenArguments(call.strictSchema, input).written;
}

/**
 * `pausedArguments` with the check it made: `checked` is the check of `written` where that is
 * known, else of the SDK's parse, so the pause decides on it without checking the arguments again
 * (needsApproval runs for every call). Pure.
 */
export function writtenArguments(strictSchema: unknown, input: unknown): { checked: ArgumentsCheck; written?: Record<string, unknown> } {
  const checked = checkArguments(input);
  if (!checked.ok) return { checked };
  if (strictSchema === undefined) return { checked, written: checked.value };
  const completed = strictCompleted(strictSchema, checked.value);
  if (!completed.complete) return { checked };
  const written = completed.value as Record<string, unknown>;
  return { checked: written === checked.value ? checked : { ok: true, value: written }, written };
}

/**
 * The pending request of a call the policy pauses, or null when it cannot be bound exactly from
 * what `needsApproval` sees (`pausedArguments`): such a call is left for `control.request(state)`,
 * which reads the text. A call whose optional property the model left out (not strict mode's
 * `null`) is filed as strict mode writes it; its claim binds the same form (core/approval.ts,
 * `rebind`) when CTRLRun decides both forms alike. Pure.
 */
export function pausedRequest(
  scope: CoreScope,
  call: PausingCall,
  principal: string,
  input: unknown,
  now: number,
  args?: ArgumentsCheck,
): NewApprovalRequest | null {
  if (typeof call.callId !== 'string' || call.callId === '') return null;
  const value = filedArguments(call, input, args);
  if (value === undefined) return null;
  return {
    callId: call.callId,
    action: scope.action,
    toolName: call.toolName,
    argsHash: canonicalHash(value),
    args: canonicalJson(value),
    policyHash: scope.policy.hash,
    principal,
    approvalsRequired: scope.compiled?.approvalsRequired ?? 1,
    createdAt: now,
    door: scope.door(),
  };
}

/**
 * What a pause files: the arguments as the model wrote them (`pausedArguments`), undefined when
 * that cannot be known exactly; as the body gets them (`args`: a default the schema fills in) when given.
 */
function filedArguments(call: PausingCall, input: unknown, args: ArgumentsCheck | undefined): Record<string, unknown> | undefined {
  const written = pausedArguments(call, input);
  return written !== undefined && args?.ok ? args.value : written;
}

/**
 * Files the pending approval request of a call the policy pauses, where the pause is decided
 * (`needsApproval`), so every driver of the run (the SDK's `run()`, `Runner.run`, a streamed run,
 * a `RealtimeSession`) leaves it in the store with no further call. Idempotent by call id: a
 * request already there (a second ask, a resume, `control.request`) is never rewritten; one bound
 * to other arguments, action, policy or principal is refused when answered or claimed.
 * The `requested` receipt is the call's decision receipt: its decision log entry is written with it
 * (the resume that claims this request writes none; core/decision-entry.ts).
 * A store that fails: nothing is paused silently; the run stops with a `CtrlrunError`, the call unrun.
 */
export async function filePause(
  scope: CoreScope,
  call: PausingCall,
  who: Who,
  task: string | null,
  input: unknown,
  decision: CallDecision,
  args?: ArgumentsCheck,
): Promise<'paused' | 'granted'> {
  const principal = who.principal;
  const request = pausedRequest(scope, call, principal, input, scope.internals.clock(), args);
  const { store } = scope.internals;
  const callId = typeof call.callId === 'string' && call.callId !== '' ? call.callId : null;
  try {
    // a call with a request of its own waits for its own answer; one without may run under an approval grant
    if (callId !== null && (await store.getRequest(callId))) return 'paused';
    // only a call bound exactly is weighed against a grant's bounds, on the value the body gets (as the policy decided it)
    if (request !== null && (await coveringGrant(scope, { principal, decision, args: filedArguments(call, input, args) }))) return 'granted';
    if (request === null) {
      if (callId !== null) noticeUnfiledPause(scope.internals, scope.action, scope.internals.notice);
      return 'paused';
    }
    const filed = await store.putRequest(request);
    // another process filed it between the read and the write: its receipt is its own
    if (filed.createdAt !== request.createdAt || filed.argsHash !== request.argsHash || filed.principal !== request.principal) return 'paused';
    const facts = {
      callId: request.callId,
      argsHash: request.argsHash,
      principal,
      decision,
      args: filedArguments(call, input, args),
      subject: who.subject,
      task,
    };
    await scope.receipt(facts, { result: 'requested' });
    return 'paused';
  } catch (error) {
    throw new CtrlrunError(
      `ctrlrun: ${scope.action} needs a person's approval, but its request could not be filed in the store (${describeError(error)}); the call did not run and the run stopped. Run it again once the store is reachable.`,
      { action: scope.action, callId, cause: error },
    );
  }
}
