import { checkArguments } from '../arguments.js';
import { canonicalHash, canonicalJson } from '../canonical.js';
import { CtrlrunError } from '../errors.js';
import { describeError, type Who } from '../internals.js';
import type { CallDecision, NewApprovalRequest } from '../types.js';
import type { CoreScope } from './scope.js';

/** The call the SDK is about to pause: its call id (the SDK's third `needsApproval` argument) and the tool's name. */
export interface PausingCall {
  callId: string | undefined;
  toolName: string;
  /**
   * The tool's strict JSON schema when its parameters are a zod (or Standard) schema: the SDK then
   * drops the `null` the model sends for an optional field before parsing, so `needsApproval` sees
   * the field absent; the schema says which properties the model's text had (`lacksStrictProperty`).
   */
  strictSchema?: unknown;
}

/** Parameters the SDK parses with a schema library (zod, a Standard Schema), dropping optional fields' nulls, not JSON.parse alone. */
export function isSchemaParsed(parameters: unknown): boolean {
  return (
    parameters !== null &&
    typeof parameters === 'object' &&
    (typeof (parameters as { safeParse?: unknown }).safeParse === 'function' || '~standard' in parameters)
  );
}

/**
 * Whether the SDK's parse lacks a property the strict schema names (at any depth it can follow):
 * the model sent it as `null` (strict mode; the parse drops optional fields' nulls) or left it out,
 * and the two texts hash differently, so the call's text is not known at the pause.
 */
export function lacksStrictProperty(schema: unknown, value: unknown, depth = 0): boolean {
  if (depth > 64 || schema === null || typeof schema !== 'object' || value === null || typeof value !== 'object') return false;
  const node = schema as { properties?: unknown; items?: unknown; anyOf?: unknown };
  if (Array.isArray(node.anyOf)) {
    const shape = Array.isArray(value) ? 'items' : 'properties';
    const branch = (node.anyOf as unknown[]).find((b) => b !== null && typeof b === 'object' && shape in b);
    return branch !== undefined && lacksStrictProperty(branch, value, depth + 1);
  }
  if (Array.isArray(value)) return node.items !== undefined && value.some((v) => lacksStrictProperty(node.items, v, depth + 1));
  const properties = node.properties;
  if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) return false;
  const given = value as Record<string, unknown>;
  return Object.entries(properties as Record<string, unknown>).some(([k, sub]) => !Object.hasOwn(given, k) || lacksStrictProperty(sub, given[k], depth + 1));
}

/**
 * The pending request of a call the policy pauses, or null when it cannot be bound exactly from
 * what `needsApproval` sees. The SDK hands `needsApproval` its own parse of the arguments, not the
 * model's text: a value this library would not hash the same way from the text (an integer beyond
 * 2^53, which JSON.parse rounds) is left for `control.request(state)`, which reads the text.
 * Pure.
 */
export function pausedRequest(scope: CoreScope, call: PausingCall, principal: string, input: unknown, now: number): NewApprovalRequest | null {
  if (typeof call.callId !== 'string' || call.callId === '') return null;
  const checked = checkArguments(input);
  if (!checked.ok) return null;
  // An optional field the parse lacks was sent as null (strict mode) or left out (a model that
  // ignores strict, a scripted test): the text is not known, so control.request(state) files it.
  if (call.strictSchema !== undefined && lacksStrictProperty(call.strictSchema, checked.value)) return null;
  return {
    callId: call.callId,
    action: scope.action,
    toolName: call.toolName,
    argsHash: canonicalHash(checked.value),
    args: canonicalJson(checked.value),
    policyHash: scope.policy.hash,
    principal,
    approvalsRequired: scope.compiled?.approvalsRequired ?? 1,
    createdAt: now,
  };
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
export async function filePause(scope: CoreScope, call: PausingCall, who: Who, task: string | null, input: unknown, decision: CallDecision): Promise<void> {
  const principal = who.principal;
  const request = pausedRequest(scope, call, principal, input, scope.internals.clock());
  if (request === null) return;
  const { store } = scope.internals;
  try {
    if (await store.getRequest(request.callId)) return;
    const filed = await store.putRequest(request);
    // another process filed it between the read and the write: its receipt is its own
    if (filed.createdAt !== request.createdAt || filed.argsHash !== request.argsHash || filed.principal !== request.principal) return;
    const args = checkArguments(input);
    const facts = {
      callId: request.callId,
      argsHash: request.argsHash,
      principal,
      decision,
      args: args.ok ? args.value : undefined,
      subject: who.subject,
      task,
    };
    await scope.receipt(facts, { result: 'requested' });
  } catch (error) {
    throw new CtrlrunError(
      `ctrlrun: ${scope.action} needs a person's approval, but its request could not be filed in the store (${describeError(error)}); the call did not run and the run stopped. Run it again once the store is reachable.`,
      { action: scope.action, callId: request.callId, cause: error },
    );
  }
}
