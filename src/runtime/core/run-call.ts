import type { RunContext } from '@openai/agents';
import { describeError, reasonText } from '../internals.js';
import { settled } from '../settled.js';
import { asCtrlrunError } from './errors.js';
import { authorize } from './authorize.js';
import { softHaltText } from './halt.js';
import type { CoreScope } from './scope.js';
import { notRecorded, observedSettlement, settlementOf, type BodyOutcome } from './settlement.js';
import { withEditNote } from './edit-note.js';
import type { Authorized, Body, CallDetails, CallFacts } from './types.js';

/** Runs the body once and ends how it ended: the outcome, never a throw. */
function outcomeOf(body: Body): Promise<BodyOutcome> {
  // chained, not an async wrapper: one promise fewer per call; a sync throw is an outcome too
  return settled(body).then(succeeded, failed);
}

// (made once, not two closures a call)
const succeeded = (output: unknown): BodyOutcome => ({ ok: true, output });
const failed = (error: unknown): BodyOutcome => ({ ok: false, error });

/**
 * Settles an authorized call after its body: the effect and the outcome's receipt. A failure is
 * rethrown (as `AmbiguousEffect` for an effect without the user's errorFunction); success returns
 * the output. Adapters whose body the SDK runs call it themselves.
 */
export async function finish(scope: CoreScope, auth: Authorized, outcome: BodyOutcome): Promise<unknown> {
  const { facts, approvers, key, attemptId } = auth;
  const plan = settlementOf({ action: scope.action, callId: facts.callId, key, approvers, hasUserErrorFunction: scope.hasUserErrorFunction }, outcome);
  const { internals } = scope;
  // awaited in a try, not a rejection handler chained on: the outcome's write waits on no extra turn
  try {
    if (key && attemptId) await internals.store.settleEffect(key, attemptId, plan.effect, internals.clock());
    await scope.receipt(facts, plan.receipt);
  } catch (error) {
    throw notRecorded(scope.action, facts.callId, error);
  }
  if ('throw' in plan.answer) throw plan.answer.throw;
  // an edited call: the model reads what ran before the result, so it does not report its proposal as done
  return auth.edited === undefined ? plan.answer.return : withEditNote(plan.answer.return, auth.edited.note);
}

/** Stages 7 and 8 of an authorized call: the body once (an approved edit's input in place of the model's), then its settlement. */
export async function runBody(scope: CoreScope, auth: Authorized, body: Body): Promise<unknown> {
  return await finish(scope, auth, await outcomeOf(bodyToRun(auth, body)));
}

/** The body as the authorization runs it: an approved edit's input in place of the model's. */
function bodyToRun(auth: Authorized, body: Body): Body {
  const edited = auth.edited;
  return edited === undefined ? body : () => body(edited.input, edited.text);
}

/** Observe mode: nothing is blocked, paused or asked; the receipt says what enforce would have done. */
export async function observe(scope: CoreScope, facts: CallFacts, body: Body): Promise<unknown> {
  const reason = facts.principal === null ? 'no_principal' : reasonText(facts.decision);
  const plan = observedSettlement(reason, facts.decision.effectKey, await outcomeOf(body));
  try {
    await scope.receipt(facts, plan.receipt);
  } catch (error) {
    throw notRecorded(scope.action, facts.callId, error);
  }
  if ('throw' in plan.answer) throw plan.answer.throw;
  return plan.answer.return;
}

/** The whole call through one door: authorize, then the body once (enforce) or observed (observe). */
export async function executeCall(
  scope: CoreScope,
  input: unknown,
  runContext: RunContext<unknown>,
  details: CallDetails | undefined,
  body: Body,
): Promise<unknown> {
  const callId = details?.toolCall?.callId ?? null;
  let authorized: Awaited<ReturnType<typeof authorize>>;
  try {
    authorized = await authorize(scope, input, runContext, callId, details?.toolCall);
  } catch (error) {
    // a soft halt found at the decision's receipt (set in another process since the guardrail ran): the model reads it, the run goes on
    const halted = scope.textOutput && !scope.refusalsAsErrors ? softHaltText(error) : undefined;
    if (halted !== undefined) return halted;
    throw asCtrlrunError(error, `ctrlrun: ${scope.action} did not run: the control failed before the body (${describeError(error)}).`, {
      action: scope.action,
      callId,
    });
  }
  if (authorized.kind === 'observe') return observe(scope, authorized.facts, body);
  const enforced = authorized;
  const signal = details?.signal;
  // no signal (the Runner passes none to a tool without `timeoutMs`): nothing to hold, runBody's work here, no frame of its own
  if (signal === undefined) {
    // the body once, awaited in a try: outcomeOf's handlers chained on its promise cost a promise and a turn more
    let outcome: BodyOutcome;
    try {
      outcome = { ok: true, output: await bodyToRun(enforced, body)() };
    } catch (error) {
      outcome = { ok: false, error };
    }
    return await finish(scope, enforced, outcome);
  }
  return await scope.holds.run(enforced.facts.argsHash ?? '', signal, () => runBody(scope, enforced, body));
}
