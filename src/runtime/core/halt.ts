import type { RunContext } from '@openai/agents';
import { ActionDenied, CtrlrunError } from '../errors.js';
import { haltScope } from '../halt-actions.js';
import { haltOf, type HaltCall } from '../halts.js';
import { describeError, type ControlInternals, type Maybe } from '../internals.js';
import { isHaltsChanged } from '../stores/errors.js';
import type { AppendOptions, Halt, HaltState } from '../types.js';
import { refusal } from './messages.js';
import type { CoreScope } from './scope.js';
import type { CallFacts, ReceiptFieldsOf } from './types.js';

/**
 * The halt stage: an operator's halt (halts.ts) refuses the calls it matches, `halted`, from the
 * next call on in every process sharing the store. It is part of the body's authorization
 * (authorize.ts), which every door reaches: the call is checked against the halts this process knows
 * (no store read while there are none), and the decision's receipt, which every enforced call
 * appends before its body, is appended only while the store's halts are still those
 * (`decisionReceipt`), so a halt set in another process is found at that write and the call decided
 * anew. A halt this process knows is read again before it refuses (it may have been lifted). A
 * call the policy sends to a person is checked first (`needsApproval`: it is never paused), and
 * hosted MCP calls, which the policy answers in the SDK's state, where they are answered.
 */

/** The run a call belongs to, as the control's `run(runContext)` names it; null without one. */
export function runIdOf(internals: ControlInternals, runContext: RunContext<unknown> | undefined): string | null {
  if (!internals.run || runContext === undefined) return null;
  let value: unknown;
  try {
    value = internals.run(runContext);
  } catch (cause) {
    throw new CtrlrunError(`ctrlrun: run(runContext) threw (${describeError(cause)}); nothing was run.`, { cause });
  }
  if (value === null || value === undefined || value === '') return null;
  if (typeof value !== 'string') throw new CtrlrunError(`ctrlrun: run(runContext) must return a string or null, got ${typeof value}; nothing was run.`);
  return value;
}

function callOf(scope: CoreScope, principal: string | null, runContext: RunContext<unknown> | undefined): HaltCall {
  return { action: scope.action, principal, run: () => runIdOf(scope.internals, runContext) };
}

/**
 * The halt that stops this call, from what this process knows: none, without a read, while it knows
 * of no halt matching it (the allow path); a match is read again first (it may have been lifted). The
 * first call of a process reads the halts once. `fresh`: read them in any case (a call about to use
 * up an approval, which a later halt could not give back).
 */
export function haltNow(scope: CoreScope, principal: string | null, runContext: RunContext<unknown> | undefined, fresh = false): Maybe<Halt | undefined> {
  const watch = scope.internals.halts;
  if (!watch.kept) return undefined;
  const known = watch.known();
  // the allow path (no halt known) returns before the call's description is made: nothing allocated
  if (!fresh && known !== undefined && known.halts.length === 0) return undefined;
  const call = callOf(scope, principal, runContext);
  if (!fresh && known !== undefined && haltOf(known.halts, call) === undefined) return undefined;
  return watch.refresh().then((state) => haltOf(state.halts, call));
}

/** Why a halted call was refused, as the model reads it inside the refusal. */
export function haltedWhy(halt: Halt): string {
  return `halted by an operator: ${halt.reason}`;
}

/** What the model reads for a call a halt refused. */
export function haltedText(action: string, halt: Halt): string {
  return refusal(action, haltedWhy(halt));
}

const SOFT = Symbol('ctrlrun.halt.soft');

/** The refusal of a halted call: `ActionDenied('halted')`; a soft halt's carries the model's text (a hard one ends the run). */
export function haltedError(action: string, callId: string | null, halt: Halt): ActionDenied {
  const error = new ActionDenied('halted', `ctrlrun: ${action} refused (halted): ${haltScope(halt)}: ${halt.reason}; it did not run.`, { action, callId });
  if (!halt.hard) Object.defineProperty(error, SOFT, { value: haltedText(action, halt), enumerable: false });
  return error;
}

/** The model's text of a soft halt's refusal, or undefined (not a halt, or a hard one: the run ends). */
export function softHaltText(error: unknown): string | undefined {
  const text = error !== null && typeof error === 'object' ? (error as { [SOFT]?: unknown })[SOFT] : undefined;
  return typeof text === 'string' ? text : undefined;
}

/** A hard halt's refusal: it ends the run, whatever a door does with other refusals. */
export function isHardHalt(error: unknown): boolean {
  return error instanceof ActionDenied && error.reason === 'halted' && softHaltText(error) === undefined;
}

/** Writes the halted call's receipt (`refused`, reason `halted`), then throws its refusal. */
export async function refuseHalted(scope: CoreScope, facts: CallFacts, halt: Halt, fields: Partial<ReceiptFieldsOf> = {}): Promise<never> {
  await scope.receipt(facts, { ...fields, result: 'refused', reason: 'halted' });
  throw haltedError(scope.action, facts.callId, halt);
}

/**
 * The decision's receipt, appended only while the store's halts are the ones this process knows:
 * a halt set or lifted elsewhere since (`HaltsChanged`) makes the process read them again and decide
 * the call against them (refused `halted`, or appended at the new epoch). One write on the allow
 * path, as before; a store without halts is appended to plainly.
 */
export function decisionReceipt(scope: CoreScope, facts: CallFacts, fields: ReceiptFieldsOf, runContext: RunContext<unknown> | undefined): Promise<unknown> {
  const watch = scope.internals.halts;
  // the store's promise handed straight on (no async wrapper: the allow path's write waits on no extra
  // frame); the writer never throws, its failures are rejections (core/receipt.ts)
  if (!watch.kept) return scope.receipt(facts, fields);
  const known = watch.known();
  if (known !== undefined) return atEpoch(scope, facts, fields, runContext, known, 0);
  return watch.refresh().then((state) => atEpoch(scope, facts, fields, runContext, state, 0));
}

/**
 * One try of the decision's receipt at the halts' epoch `state`: a halt set or lifted elsewhere
 * since (`HaltsChanged`) reads them again and decides the call against them; a store whose halts
 * keep changing under the call fails closed after a few tries. The first try's handler is the
 * tool's own (`scope.haltRetry`, made once: no closure a receipt), the call's run context its
 * `context`; a later try's carries its attempt.
 */
function atEpoch(
  scope: CoreScope,
  facts: CallFacts,
  fields: ReceiptFieldsOf,
  runContext: RunContext<unknown> | undefined,
  state: HaltState,
  attempt: number,
): Promise<unknown> {
  // the retry handles the receipt's write only (a log entry's failure is the call's, as it was: no store throws HaltsChanged there)
  const options = scope.internals.halts.appendOptions(state.epoch);
  if (attempt === 0) return scope.receipt(facts, fields, options, scope.haltRetry, runContext);
  return laterTry(scope, facts, fields, runContext, options, attempt);
}

/** A try after the first: its handler a closure carrying the attempt (in a function of its own: atEpoch's first try makes no context). */
function laterTry(
  scope: CoreScope,
  facts: CallFacts,
  fields: ReceiptFieldsOf,
  runContext: RunContext<unknown> | undefined,
  options: AppendOptions,
  attempt: number,
): Promise<unknown> {
  return scope.receipt(facts, fields, options, (error: unknown) => retryHalted(scope, error, facts, fields, runContext, attempt));
}

/**
 * A decision receipt's failed write at try `attempt` (0 the first): not a halts change, or too many,
 * fails the call; otherwise the halts read again, the call refused by a halt now matching it, or
 * its receipt tried again at the new epoch.
 */
export async function retryHalted(
  scope: CoreScope,
  error: unknown,
  facts: CallFacts,
  fields: ReceiptFieldsOf,
  runContext: RunContext<unknown> | undefined,
  attempt: number,
): Promise<unknown> {
  if (!isHaltsChanged(error) || attempt >= 4) throw error;
  const next = await scope.internals.halts.refresh(error.epoch);
  const halt = haltOf(next.halts, callOf(scope, facts.principal, runContext));
  if (halt) await refuseHalted(scope, facts, halt, { approvers: fields.approvers ?? [], effect_key: fields.effect_key ?? null });
  return atEpoch(scope, facts, fields, runContext, next, attempt + 1);
}
