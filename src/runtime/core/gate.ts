import type { RunContext } from '@openai/agents';
import { checkArguments, parseArguments, type ArgumentsCheck } from '../arguments.js';
import { decideArguments } from '../decide.js';
import { ActionDenied, type CtrlrunError } from '../errors.js';
import { argsHashOf, describeError, isThenable, taskOf, whoOf, type Maybe, type Who } from '../internals.js';
import { noteNestedFailure } from '../nested.js';
import { argsOf, decideOn, guardrailRefusal, type GuardrailWhy } from './decision.js';
import { invalidArgumentsText, refusal, STILL_RUNNING_TEXT, WITHHELD_ARGUMENTS } from './messages.js';
import { filePause, writtenArguments, type PausingTool } from './pause.js';
import { asCtrlrunError } from './errors.js';
import { haltNow } from './halt.js';
import type { Vetted } from './principal.js';
import type { CoreScope } from './scope.js';
import { callArguments, valueArguments, type PolicyArgs } from './arguments.js';
import { INVALID_ARGUMENTS, type DecidedCall, type UpstreamProblem } from './types.js';
import { upstreamProblem } from './upstream.js';

const allow = { behavior: { type: 'allow' as const } };

type ToolCall = { callId: string; arguments: string };
type GuardrailAnswer = typeof allow | { behavior: { type: 'rejectContent'; message: string } };

// The answers shared by every call that needs no turn of its own: a settled promise is never changed by a reader
const NO_PAUSE: Promise<boolean> = Promise.resolve(false);
const ALLOWED: Promise<GuardrailAnswer> = Promise.resolve(allow);

/** A call `needsApproval` may pause: its decision (approve) and what it was decided on. */
interface Approvable {
  decision: DecidedCall['decision'];
  args: ArgumentsCheck;
  raw: string | undefined;
  seen: unknown;
}

/**
 * The SDK's `needsApproval`, asked before the guardrail with the SDK's own (lossy) parse of the
 * arguments: an integer beyond 2^53 arrives rounded, so it is read back through JSON text. The
 * guardrail and the wrapper decide again on the model's own text before anything runs. A call it
 * pauses (`callId`, the SDK's, in `tool`: the tool's name) has its pending request filed right here
 * (core/pause.ts), whoever drives the run; nothing else is written. A call it does not pause is
 * answered with one settled promise, no frame of its own; a throw is a rejection.
 */
export function needsApproval(scope: CoreScope, runContext: RunContext<unknown>, input: unknown, callId?: string, tool?: PausingTool): Promise<boolean> {
  try {
    const approvable = approvableCall(scope, input, callId, tool);
    return approvable === undefined ? NO_PAUSE : pauseIfAsked(scope, runContext, input, callId, tool, approvable);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The call's decision as `needsApproval` reads it, when it is `approve` and the schema admits it; else undefined (no pause). */
function approvableCall(scope: CoreScope, input: unknown, callId: string | undefined, tool: PausingTool | undefined): Approvable | undefined {
  if (!scope.enforce) return undefined;
  // an action no rule pauses (or none at all: unknown_action): nothing to decide here, the arguments untouched
  if (scope.compiled === undefined || scope.compiled.neverPauses === true) return undefined;
  if (scope.args.schemaCheck && scope.args.schemaCheck(input) !== null) return undefined; // refused by the guardrail
  // decided on the call as the model wrote it where that is known: the nulls the SDK dropped put back
  const pre = tool?.strictSchema !== undefined ? writtenArguments(tool.strictSchema, input) : undefined;
  const seen = pre?.written ?? input;
  let raw: string | undefined;
  // as the body gets them (a default the schema fills in): what the guardrail decides on, and the pause files
  let args = valueArguments(scope.args, pre?.checked ?? checkArguments(seen), callId);
  // (no principal yet: the rules alone, as decideOn decides without one)
  let decision = decideArguments(scope.compiled, args);
  if ((decision.reason === 'invalid_argument' || decision.reason === 'resource_template') && decision.detail !== undefined) {
    try {
      raw = JSON.stringify(seen);
    } catch {
      return undefined; // not JSON: refused by the guardrail
    }
    const lossless = parseArguments(raw);
    args = callArguments(lossless, scope.args.policyArgs(raw, lossless));
    decision = decideArguments(scope.compiled, args);
  }
  if (decision.decision !== 'approve') return undefined;
  if (!admitted(scope, raw, seen)) return undefined;
  return { decision, args, raw, seen };
}

/** An `approve` call: paused (its request filed) unless nobody is asked: no principal, a halt, no grant, or an approval grant covering it. */
async function pauseIfAsked(
  scope: CoreScope,
  runContext: RunContext<unknown>,
  input: unknown,
  callId: string | undefined,
  tool: PausingTool | undefined,
  { decision, args, raw, seen }: Approvable,
): Promise<boolean> {
  const loading = scope.internals.telemetry?.loading;
  if (loading !== undefined) await loading; // the pause is seen once OpenTelemetry has loaded
  const who = await whoOf(scope.internals, runContext);
  if (who === null) return false; // no principal: refused by the guardrail
  // a halted call is never paused for a person: its authorization refuses it (the halts read now)
  if (await haltNow(scope, who.principal, runContext, true)) return false;
  const task = scope.policy.authority ? await taskOf(scope.internals, runContext) : null;
  // a call no grant covers is refused by the guardrail, never paused for a human
  if (scope.policy.authority && decideOn(scope.decision, scope.internals.clock, raw, seen, who, task, args).decision.decision !== 'approve') return false;
  // filed here, unless an approval grant covers the call (then it runs without a pause)
  // the call's description made here, on a pause, not for every call asked
  const paused = tool ? (await filePause(scope, { ...tool, callId }, who, task, input, decision, args)) === 'paused' : true;
  // a paused call's guardrail does not run now: the parse kept for it is let go
  if (paused) scope.args.dropShared();
  return paused;
}

/**
 * Whether a zod tool's schema admits the call `needsApproval` sees (a JSON-schema tool's was checked
 * first). An SDK of the peer range that asks before it validates (0.5 among them: `JSON.parse` of
 * the text; 0.14 and later validate first) hands over a call the schema refuses, e.g. a required
 * argument left out, which strict mode's completion would file with a `null` the model never sent.
 * Such a call never runs (the SDK refuses it before the body, the wrapper if not) and the guardrail
 * records its refusal: nobody is asked.
 */
function admitted(scope: CoreScope, raw: string | undefined, seen: unknown): boolean {
  if (scope.args.schemaCheck) return true;
  let text: string;
  try {
    text = raw ?? JSON.stringify(seen);
  } catch {
    return true; // not JSON text: asked as before
  }
  return scope.args.policyArgs(text).ok;
}

/** The tool input guardrail: the call decided before the SDK runs anything; a refusal is model text (or `ActionDenied`). */
export function guardrailOf(scope: CoreScope) {
  return {
    type: 'tool_input' as const,
    name: 'ctrlrun.policy',
    // no frame of its own: an allowed call is answered with one settled promise
    run: (data: { context: RunContext<unknown>; toolCall: ToolCall }): Promise<GuardrailAnswer> => {
      // `openTelemetry: true` still importing the API: a refusal here waits for it once, so it is seen
      const loading = scope.internals.telemetry?.loading;
      return loading === undefined ? guardrailAnswer(scope, data) : answerOnceLoaded(loading, scope, data);
    },
  };
}

// The continuations of the hooks' asynchronous answers are made in functions of their own: a
// closure in the hook itself makes the values it captures a context, allocated on every call, the
// synchronous allowed ones too.

function answerOnceLoaded(loading: Promise<void>, scope: CoreScope, data: Call): Promise<GuardrailAnswer> {
  return loading.then(() => guardrailAnswer(scope, data));
}

/** The guardrail's answer to one call; the control's own failure is a `CtrlrunError` rejection, noted for a nesting agent tool. */
function guardrailAnswer(scope: CoreScope, data: Call): Promise<GuardrailAnswer> {
  try {
    const answer = checkCall(scope, data);
    // (the one synchronous answer is `allow`: every refusal writes its receipt first)
    if (!isThenable(answer)) return answer === allow ? ALLOWED : Promise.resolve(answer);
    return failuresNoted(answer, scope, data);
  } catch (error) {
    return Promise.reject(guardrailFailure(scope, data, error));
  }
}

function failuresNoted(answer: PromiseLike<GuardrailAnswer>, scope: CoreScope, data: Call): Promise<GuardrailAnswer> {
  return Promise.resolve(answer).catch((error: unknown) => {
    throw guardrailFailure(scope, data, error);
  });
}

function guardrailFailure(scope: CoreScope, data: Call, error: unknown): CtrlrunError {
  const failed = asCtrlrunError(error, `ctrlrun: ${scope.action} did not run: the control failed (${describeError(error)}).`, {
    action: scope.action,
    callId: data.toolCall.callId,
  });
  noteNestedFailure(data.context, failed);
  return failed;
}

/** Why the guardrail lets a decided, principal-holding call through or not: held, or refused by its upstream (a promise only when the door checks one). */
function heldOrUpstream(scope: CoreScope, toolCall: ToolCall, decided: DecidedCall): Maybe<GuardrailWhy | null> {
  // (hashed only while a call of this action runs: the common case hashes nothing here)
  if (scope.holds.any() && scope.holds.holds(argsOf(decided).argsHash ?? '')) {
    return { why: STILL_RUNNING_TEXT, reason: 'still_running', code: 'still_running' };
  }
  const problem = upstreamProblem(scope.compiled, scope.upstream, toolCall);
  return isThenable(problem) ? problem.then(upstreamWhy) : upstreamWhy(problem);
}

/** The guardrail's words for the door's upstream problem, or null. */
function upstreamWhy(problem: UpstreamProblem | null): GuardrailWhy | null {
  return problem ? { why: problem.text, reason: problem.reason, code: problem.reason } : null;
}

type Call = { context: RunContext<unknown>; toolCall: ToolCall };

/**
 * The guardrail's check of one call: arguments, principal, decision, hold, upstream. Refusals write
 * their receipt. An allowed call is answered synchronously when nothing it asks is asynchronous
 * (identity, task, the door's upstream check); else a promise.
 */
export function checkCall(scope: CoreScope, { context, toolCall }: Call): Maybe<GuardrailAnswer> {
  scope.principals.forget(toolCall); // only this check's own answer may reach the body
  if (!scope.enforce) return allow;
  const lossless = parseArguments(toolCall.arguments);
  // needsApproval's parse of this same value, when it made one (core/arguments.ts, sharedParse)
  const fromRaw = scope.args.policyArgs(toolCall.arguments, lossless, 'take', toolCall.callId);
  // arguments the tool's schema refuses: a JSON schema's the SDK would pass on, a zod schema's it
  // refuses before the body but records nowhere; text that is not JSON is the SDK's withheld text
  if (!fromRaw.ok) return refuseInvalid(scope, toolCall, fromRaw.problem);
  // decided as the body will get them (a default the schema fills in included)
  const checked = callArguments(lossless, fromRaw);
  const resolved = scope.principals.resolve(context);
  // (the call's parts passed one by one, not gathered in an object a call)
  if (isThenable(resolved)) return decideOnceResolved(resolved, scope, context, toolCall, checked, fromRaw);
  return decideCheck(scope, context, toolCall, checked, fromRaw, resolved);
}

function decideOnceResolved(
  resolved: Promise<{ who: Who | null; task: string | null }>,
  scope: CoreScope,
  context: RunContext<unknown>,
  toolCall: ToolCall,
  checked: ArgumentsCheck,
  fromRaw: PolicyArgs,
): Promise<GuardrailAnswer> {
  return resolved.then((p) => decideCheck(scope, context, toolCall, checked, fromRaw, p));
}

/**
 * A call whose arguments do not match the tool's schema: its receipt, then the refusal. `problem`
 * undefined: the text is not JSON, which the SDK (0.20) hands a guardrail only in place of a call
 * its own parse of the tool's (zod) schema refused while tool data is not logged (arguments `''`).
 * The SDK then shows a rejection as its redacted placeholder and replaces a thrown error with its
 * own, so the call goes on to that parse, which refuses it before the body: the tool's error
 * function words it as here (doors/function-tool.ts), or the SDK throws it (a structured tool),
 * and the body's authorization would refuse it too. A receipt the store cannot write still stops
 * the run (fail closed), with the SDK's error in place of the store's.
 */
async function refuseInvalid(scope: CoreScope, toolCall: ToolCall, problem: string | undefined): Promise<GuardrailAnswer> {
  const { action } = scope;
  const facts = { callId: toolCall.callId, argsHash: argsHashOf(toolCall.arguments, undefined), principal: null, decision: INVALID_ARGUMENTS };
  await scope.receipt(facts, { result: 'refused', reason: `invalid_arguments:${problem ?? WITHHELD_ARGUMENTS}` });
  if (problem === undefined) return allow;
  const why = `its arguments do not match the tool's schema: ${problem}`;
  if (scope.refusalsAsErrors) throw new ActionDenied('invalid_arguments', `ctrlrun: ${refusal(action, why)}`, { action, callId: toolCall.callId });
  return { behavior: { type: 'rejectContent', message: invalidArgumentsText(action, problem) } };
}

/** The decision on a call with its principal: let through (remembered for the body), or refused. */
function decideCheck(
  scope: CoreScope,
  context: RunContext<unknown>,
  toolCall: ToolCall,
  checked: ArgumentsCheck,
  fromRaw: PolicyArgs,
  { who, task }: { who: Who | null; task: string | null },
): Maybe<GuardrailAnswer> {
  const principal = who?.principal ?? null;
  const decided = decideOn(scope.decision, scope.internals.clock, toolCall.arguments, undefined, who, task, checked);
  const early = guardrailRefusal({ principal, decision: decided.decision });
  if (early !== null) return refuseDecided(scope, toolCall, who, task, decided, early);
  const held = heldOrUpstream(scope, toolCall, decided);
  // let through: remembered for the body (who, its task, the arguments' parse, and the decision
  // where it is a pure function of that parse: no grants to read the principal, task or clock)
  const vetted = { context, raw: toolCall.arguments, who, task, checked, fromRaw, decided: scope.policy.authority ? undefined : decided };
  return isThenable(held) ? settleOnceChecked(held, scope, toolCall, vetted, decided) : settleCheck(scope, toolCall, vetted, decided, held);
}

function settleOnceChecked(
  held: Promise<GuardrailWhy | null>,
  scope: CoreScope,
  toolCall: ToolCall,
  vetted: Omit<Vetted, 'who'> & { who: Who | null },
  decided: DecidedCall,
): Promise<GuardrailAnswer> {
  return held.then((refused) => settleCheck(scope, toolCall, vetted, decided, refused));
}

/** A decided call the hold and the upstream refused (its receipt, then the refusal), or let through: remembered for the body. */
function settleCheck(
  scope: CoreScope,
  toolCall: ToolCall,
  vetted: Omit<Vetted, 'who'> & { who: Who | null },
  decided: DecidedCall,
  refused: GuardrailWhy | null,
): Maybe<GuardrailAnswer> {
  if (refused !== null) return refuseDecided(scope, toolCall, vetted.who, vetted.task, decided, refused);
  if (vetted.who !== null) scope.principals.remember(toolCall, vetted as Vetted);
  return allow;
}

/** A call refused by its principal, decision, hold or upstream: its receipt, then the model's text (or `ActionDenied`). */
async function refuseDecided(
  scope: CoreScope,
  toolCall: ToolCall,
  who: Who | null,
  task: string | null,
  decided: DecidedCall,
  refused: GuardrailWhy,
): Promise<GuardrailAnswer> {
  const { action } = scope;
  const principal = who?.principal ?? null;
  const decision = decided.decision;
  const facts = { callId: toolCall.callId, ...argsOf(decided), principal, decision, args: decided.args, subject: who?.subject ?? null, task };
  await scope.receipt(facts, {
    result: decision.decision === 'deny' && principal !== null && decision.detail === undefined ? 'denied' : 'refused',
    reason: refused.reason,
  });
  if (scope.refusalsAsErrors) throw new ActionDenied(refused.code, `ctrlrun: ${refusal(action, refused.why)}`, { action, callId: toolCall.callId });
  return { behavior: { type: 'rejectContent', message: refusal(action, refused.why) } };
}
