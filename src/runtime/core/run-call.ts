import type { RunContext } from '@openai/agents';
import { describeError, reasonText } from '../internals.js';
import { settled } from '../settled.js';
import { asCtrlrunError } from './errors.js';
import { startAuthorize } from './authorize.js';
import { softHaltText } from './halt.js';
import type { CoreScope } from './scope.js';
import { executedReceipt, notRecorded, observedSettlement, settlementOf, type BodyOutcome, type Settlement } from './settlement.js';
import { withEditNote } from './edit-note.js';
import { ReportedOutcome, type Authorization, type Authorized, type Body, type CallDetails, type CallFacts } from './types.js';

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
  const plan = settlementPlan(scope, auth, outcome);
  // awaited in a try, not a rejection handler chained on: the outcome's write waits on no extra turn
  try {
    await settlementWritten(scope, auth, plan);
  } catch (error) {
    throw notRecorded(scope.action, auth.facts.callId, error);
  }
  return answerOf(auth, plan);
}

/** Stage 8's plan for an authorized call's outcome (settlement.ts). */
function settlementPlan(scope: CoreScope, auth: Authorized, outcome: BodyOutcome): Settlement {
  const { facts, approvers, key } = auth;
  return settlementOf({ action: scope.action, callId: facts.callId, key, approvers, hasUserErrorFunction: scope.hasUserErrorFunction }, outcome);
}

/** The settlement's writes: the effect key settled (when the call holds one), then the outcome's receipt; a failure is a rejection. */
function settlementWritten(scope: CoreScope, auth: Authorized, plan: Settlement): Promise<unknown> {
  const { key, attemptId, facts } = auth;
  // (the receipt writer never throws; a store's settleEffect may: a rejection, as in an async function)
  if (!key || !attemptId) return scope.receipt(facts, plan.receipt);
  const { internals } = scope;
  return settled(() => internals.store.settleEffect(key, attemptId, plan.effect, internals.clock())).then(() => scope.receipt(facts, plan.receipt));
}

/** What the caller gets once the settlement is recorded: the output (an edited call's with its note), or the error thrown. */
function answerOf(auth: Authorized, plan: Settlement): unknown {
  if ('throw' in plan.answer) throw plan.answer.throw;
  return editedAnswer(auth, plan.answer.return);
}

/** The output the caller gets: an edited call's with its note (the model reads what ran, so it does not report its proposal as done). */
function editedAnswer(auth: Authorized, output: unknown): unknown {
  return auth.edited === undefined ? output : withEditNote(output, auth.edited.note);
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
  let authorized: Authorization;
  try {
    // the common allowed call's decision receipt awaited here: no frame of authorize's between the store and the body
    const started = startAuthorize(scope, input, runContext, callId, details?.toolCall);
    if (started instanceof Promise) authorized = await started;
    else {
      await started.receipt;
      authorized = started.authorized;
    }
  } catch (error) {
    // a soft halt found at the decision's receipt (set in another process since the guardrail ran): the model reads it, the run goes on
    const halted = scope.textOutput && !scope.refusalsAsErrors ? softHaltText(error) : undefined;
    if (halted !== undefined) return halted;
    throw asCtrlrunError(error, `ctrlrun: ${scope.action} did not run: the control failed before the body (${describeError(error)}).`, {
      action: scope.action,
      callId,
    });
  }
  if (authorized.kind === 'observe') return observe(scope, authorized.facts, boundBody(body, input, runContext, details));
  const enforced = authorized;
  const signal = details?.signal;
  // no signal (the Runner passes none to a tool without `timeoutMs`): nothing to hold, runBody and finish here, no frame of their own
  if (signal === undefined) {
    // the body once, awaited in a try: outcomeOf's handlers chained on its promise cost a promise and a turn more
    let output: unknown;
    let failure: BodyOutcome | undefined;
    try {
      output = await callBody(enforced, body, input, runContext, details);
    } catch (error) {
      failure = { ok: false, error };
    }
    // the common end, an unkeyed call whose body answered: settlementOf's plan for it (its `executed`
    // receipt, then the output) written in place, without the outcome's, the plan's and the answer's objects
    const plan =
      failure === undefined && enforced.key === null && !(output instanceof ReportedOutcome)
        ? undefined
        : settlementPlan(scope, enforced, failure ?? { ok: true, output });
    try {
      await (plan === undefined ? scope.receipt(enforced.facts, executedReceipt(enforced.approvers, null)) : settlementWritten(scope, enforced, plan));
    } catch (error) {
      throw notRecorded(scope.action, enforced.facts.callId, error);
    }
    if (plan !== undefined) return answerOf(enforced, plan);
    return editedAnswer(enforced, output);
  }
  return await heldRun(scope, enforced, boundBody(body, input, runContext, details), signal);
}

/** The body of an authorized call run in place (executeCall's allow path): handed the call itself, or an approved edit's input and text. */
function callBody(auth: Authorized, body: Body, input: unknown, runContext: RunContext<unknown>, details: CallDetails | undefined): unknown {
  const edited = auth.edited;
  return edited === undefined ? body(input, undefined, runContext, details) : body(edited.input, edited.text, runContext, details);
}

/** The body bound to its call, for the paths that run it with no arguments or the edit's two (observe, a held run): a closure only there. */
function boundBody(body: Body, input: unknown, runContext: RunContext<unknown>, details: CallDetails | undefined): Body {
  return (edited?: unknown, editedText?: string) =>
    editedText === undefined ? body(input, undefined, runContext, details) : body(edited, editedText, runContext, details);
}

/** The body under the SDK's signal, held while it runs on after an abort (a closure here, not in executeCall: there it gave every call a context). */
function heldRun(scope: CoreScope, enforced: Authorized, body: Body, signal: AbortSignal): Promise<unknown> {
  return scope.holds.run(enforced.facts.argsHash ?? '', signal, () => runBody(scope, enforced, body));
}
