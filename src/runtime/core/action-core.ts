import type { RunContext } from '@openai/agents';
import type { ControlInternals } from '../internals.js';
import { settled } from '../settled.js';
import { pausedDoor } from '../edits.js';
import type { CompiledPolicy, PausedDoor, PausedDoorKind } from '../types.js';
import type { ArgumentsCheck } from '../arguments.js';
import { argumentsStage, callArguments } from './arguments.js';
import { authorize } from './authorize.js';
import { stillRunningHolds } from './body.js';
import { checkCall, guardrailOf, needsApproval } from './gate.js';
import { retryHalted } from './halt.js';
import { refusal } from './messages.js';
import type { PausingTool } from './pause.js';
import { decidedByParts, type PartsOf } from './parts.js';
import { principalStage } from './principal.js';
import { toolOf } from '../tool-name.js';
import { receiptWriter } from './receipt.js';
import { executeCall, finish, observe, runBody } from './run-call.js';
import type { CoreScope } from './scope.js';
import type { BodyOutcome } from './settlement.js';
import type { ArgsSchema, Authorized, Body, CallDetails, CallFacts, UpstreamCheck, UserErrorFunction } from './types.js';

export interface ActionCoreOptions {
  parameters?: ArgsSchema | undefined;
  userErrorFunction?: UserErrorFunction | null | undefined;
  refusalsAsErrors?: boolean;
  /** The SDK parses the tool in strict mode (`strict` not false): optional properties' nulls are dropped before the body. */
  strict?: boolean;
  /**
   * The door's check of the upstream the call would reach (CTRLRun's `upstream:` pins), asked
   * after the policy and authority let the call through: a problem refuses it with its reason.
   */
  upstream?: UpstreamCheck | undefined;
  /**
   * The door's kind, filed with a paused call, and whether it runs an approver's edit: `edits` when
   * the door calls its body with the input the core hands it (`execute`'s `body(input, text)`);
   * `schema` the tool's parameters as the model sees them (read on the first pause).
   */
  door?: { kind: PausedDoorKind; edits?: boolean; schema?: () => unknown };
  /**
   * The door's body answers the model with its output (a function tool, an agent tool): a call a
   * soft halt refuses at the body's authorization answers with the refusal's text (the run goes on).
   * False for a door whose body answers otherwise (a handoff returns an agent): the refusal is thrown.
   */
  textOutput?: boolean;
  /** A door whose one call does several things (a shell call's commands, a patch's operations): the rules decide each part (core/parts.ts). */
  parts?: PartsOf | undefined;
}

/** The stages' shared scope for one action of one control (see CoreScope). */
export function coreScope(internals: ControlInternals, policy: CompiledPolicy, action: string, options: ActionCoreOptions): CoreScope {
  const compiled = decidedByParts(policy.actions[action], options.parts);
  const environment = internals.environment ?? policy.environment ?? 'production';
  const tool = toolOf(policy, action);
  const scope: CoreScope = {
    internals,
    policy,
    action,
    compiled,
    enforce: policy.mode === 'enforce',
    decision: { action, compiled, policy, environment },
    args: argumentsStage(options.parameters, action, options.strict === true),
    principals: principalStage(internals, Boolean(policy.authority)),
    holds: stillRunningHolds(),
    upstream: options.upstream,
    refusalsAsErrors: options.refusalsAsErrors === true,
    textOutput: options.textOutput !== false,
    hasUserErrorFunction: Boolean(options.userErrorFunction),
    tool,
    receipt: receiptWriter(internals, policy, action, environment, tool),
    edits: options.door?.edits === true,
    door: doorOf(options.door),
    haltRetry: (error, facts, fields, context) => retryHalted(scope, error, facts, fields, context as RunContext<unknown> | undefined, 0),
  };
  return scope;
}

/** The door to file with each paused call, made once (the schema checked for the edit form only where edits run). */
function doorOf(door: ActionCoreOptions['door']): () => PausedDoor {
  let made: PausedDoor | undefined;
  return () => {
    made ??= door === undefined ? { kind: 'function' } : pausedDoor(door.kind, door.edits === true ? door.schema?.() : undefined);
    return made;
  };
}

/**
 * The door-agnostic core of one action: the stages (core/*.ts) bound to one control and policy.
 * Each door's adapter (a function tool, an MCP server, a local execution tool, an agent tool)
 * turns its SDK shape into these calls and their answers back into its SDK shape: `guardrail`
 * and `needsApproval` before the SDK runs anything, then `execute` (or `authorize` and
 * `runBody`/`finish` for a door whose body the SDK runs).
 */
export function createActionCore(internals: ControlInternals, policy: CompiledPolicy, action: string, options: ActionCoreOptions) {
  const scope = coreScope(internals, policy, action, options);
  return {
    action,
    compiled: scope.compiled,
    enforce: scope.enforce,
    policyArgs: scope.args.policyArgs,
    /** The call's arguments from its text, as the body gets them (`callArguments`). */
    callArguments: (raw: string, lossless: ArgumentsCheck) => callArguments(lossless, scope.args.policyArgs(raw, lossless)),
    /** `callId`: the SDK's; `tool`: its name (made once per tool); given, a call the policy pauses is filed in the store. */
    needsApproval: (runContext: RunContext<unknown>, input: unknown, callId?: string, tool?: PausingTool) =>
      needsApproval(scope, runContext, input, callId, tool),
    guardrail: guardrailOf(scope),
    checkCall: async (data: { context: RunContext<unknown>; toolCall: { callId: string; arguments: string } }) => checkCall(scope, data),
    authorize: (input: unknown, runContext: RunContext<unknown>, callId: string | null, toolCall: { arguments?: string } | undefined) =>
      authorize(scope, input, runContext, callId, toolCall),
    runBody: (auth: Authorized, body: Body) => runBody(scope, auth, body),
    finish: (auth: Authorized, outcome: BodyOutcome) => finish(scope, auth, outcome),
    observe: (facts: CallFacts, _input: unknown, body: () => unknown) => observe(scope, facts, body),
    execute: (input: unknown, runContext: RunContext<unknown>, details: CallDetails | undefined, body: Body) =>
      internals.telemetry === undefined ? executeCall(scope, input, runContext, details, body) : observedCall(scope, input, runContext, details, body),
    receipt: scope.receipt,
    /** The door a paused call of this action is filed with (its kind; the tool's schema where edits run). */
    door: scope.door,
    refuse: (why: string) => refusal(action, why),
  };
}

export type ActionCore = ReturnType<typeof createActionCore>;

/**
 * `executeCall` seen by OpenTelemetry: inside the call's `execute_tool` span (its receipts are that
 * span's events; the body's own spans nest under it). Only with telemetry; once the API has loaded.
 */
function observedCall(scope: CoreScope, input: unknown, runContext: RunContext<unknown>, details: CallDetails | undefined, body: Body): Promise<unknown> {
  const telemetry = scope.internals.telemetry;
  const loading = telemetry?.loading;
  // no frame of its own: without OpenTelemetry (the SDK's traces alone, the default) the call is executeCall's promise itself
  if (loading === undefined)
    return telemetry?.otel() === undefined ? executeCall(scope, input, runContext, details, body) : aroundCall(scope, input, runContext, details, body);
  return aroundOnceLoaded(loading, scope, input, runContext, details, body);
}

/** `aroundCall` once the API has loaded (the closure here: in observedCall it gave every call a context). */
function aroundOnceLoaded(
  loading: Promise<void>,
  scope: CoreScope,
  input: unknown,
  runContext: RunContext<unknown>,
  details: CallDetails | undefined,
  body: Body,
): Promise<unknown> {
  return loading.then(() => aroundCall(scope, input, runContext, details, body));
}

/** `executeCall`, inside the call's span when OpenTelemetry records; a rejection, never a throw. */
function aroundCall(scope: CoreScope, input: unknown, runContext: RunContext<unknown>, details: CallDetails | undefined, body: Body): Promise<unknown> {
  const otel = scope.internals.telemetry?.otel();
  // (executeCall is async: it rejects, it never throws)
  if (otel === undefined) return executeCall(scope, input, runContext, details, body);
  const run = () => executeCall(scope, input, runContext, details, body);
  // a tracer that throws starting the span: the call's rejection, as from an async wrapper
  return settled(() => otel.around(scope.tool ?? scope.action, scope.action, details?.toolCall?.callId ?? null, run));
}
