import {
  ModelBehaviorError,
  tool,
  type FunctionTool,
  type RunContext,
  type ToolInputParameters,
  type ToolOptions,
  type ToolOutputSchema,
  type UnknownContext,
} from '@openai/agents';
import type { Control } from '../control.js';
import { createActionCore } from '../core/action-core.js';
import { bindPolicy } from '../core/bind-policy.js';
import { hideWhenUnusable } from '../core/exposure.js';
import { withoutNegativeZero, zodProblem } from '../core/arguments.js';
import { invalidArgumentsText, WITHHELD_ARGUMENTS } from '../core/messages.js';
import { isBodyFailure } from '../core/body-failures.js';
import type { ArgsSchema, CallDetails, UpstreamProblem, UserErrorFunction } from '../core/types.js';
import { noteNestedFailure } from '../nested.js';
import { CtrlrunError } from '../errors.js';
import { describeError, PAUSED_DOOR, PROTECTED_ACTION, sdkToolName, TOOL_ARGUMENTS, type ControlInternals } from '../internals.js';
import { matchesNamePattern } from '../name-pattern.js';
import type { CompiledPolicy } from '../types.js';

// the core's names, where the doors have always imported them
export { createActionCore, type ActionCore } from '../core/action-core.js';
export { bindPolicy } from '../core/bind-policy.js';
export { ReportedOutcome } from '../core/types.js';
export type { ArgsSchema, Authorization, Authorized, CallDetails, CallFacts, Observed, UpstreamProblem, UserErrorFunction } from '../core/types.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * Whether this SDK's `tool()` takes an `outputSchema` (0.14 on), read off `tool` itself: on older
 * SDKs of the peer range `ToolOptions` has two type parameters and `ToolOutputSchema` does not
 * exist, so those spellings are only reached when it does. (Projects on those SDKs need
 * `skipLibCheck`, which the SDK's own declarations need there too; the branch not taken is then
 * never checked.)
 */
type SdkHasOutputSchema = 'outputSchema' extends keyof Parameters<typeof tool>[0] ? true : false;
type SdkToolOptions<TParameters extends ToolInputParameters, Context, TOutputSchema extends ToolOutputSchema | undefined> = SdkHasOutputSchema extends true
  ? ToolOptions<TParameters, Context, TOutputSchema>
  : ToolOptions<TParameters, Context>;
type SdkTool<TParameters extends ToolInputParameters, Context, Result, TOutputSchema extends ToolOutputSchema | undefined> = SdkHasOutputSchema extends true
  ? ReturnType<typeof tool<TParameters, Context, Result, TOutputSchema>>
  : ReturnType<typeof tool<TParameters, Context, Result>>;

/** The SDK's `tool()` options without `needsApproval`: the policy decides who approves what. */
export type ProtectedToolOptions<
  TParameters extends ToolInputParameters = undefined,
  Context = UnknownContext,
  TOutputSchema extends ToolOutputSchema | undefined = undefined,
> = DistributiveOmit<SdkToolOptions<TParameters, Context, TOutputSchema>, 'needsApproval'> & { needsApproval?: never };

/** `protectedTool(action, options)`: a real SDK `FunctionTool` guarded by the policy. */
export type ProtectedTool<A extends string> = <
  TParameters extends ToolInputParameters = undefined,
  Context = UnknownContext,
  Result = string,
  TOutputSchema extends ToolOutputSchema | undefined = undefined,
>(
  action: A,
  options: ProtectedToolOptions<TParameters, Context, TOutputSchema>,
) => SdkTool<TParameters, Context, Result, TOutputSchema>;

/**
 * Binds a compiled policy to a control and returns `protectedTool`. The generated module calls
 * this once; binding a policy with another hash to the same control is an error.
 */
export function bindProtectedTool<A extends string>(control: Control, policy: CompiledPolicy): ProtectedTool<A> {
  const internals = bindPolicy(control, policy, 'bindProtectedTool');
  const made = ((action: A, options: Record<string, unknown>) => makeProtectedTool(internals, policy, action, options)) as unknown;
  return made as ProtectedTool<A>;
}

export function makeProtectedTool(
  internals: ControlInternals,
  policy: CompiledPolicy,
  action: string,
  options: Record<string, unknown>,
  door: { upstream?: (toolCall: { callId: string; arguments: string }) => Promise<UpstreamProblem | null>; kind?: 'function' | 'mcp' } = {},
): FunctionTool {
  if (!options || typeof options !== 'object') throw new CtrlrunError(`protectedTool('${action}'): options are required, as for tool().`);
  if ('needsApproval' in options) {
    throw new CtrlrunError(
      `protectedTool('${action}'): remove \`needsApproval\`: the policy (ctrlrun.yaml) decides which calls need a human, and the control records the answers.`,
    );
  }
  const execute = options.execute;
  if (typeof execute !== 'function') throw new CtrlrunError(`protectedTool('${action}'): \`execute\` must be a function.`);
  const userErrorFunction = options.errorFunction as UserErrorFunction | null | undefined;
  const core = createActionCore(internals, policy, action, {
    parameters: options.parameters as ArgsSchema | undefined,
    userErrorFunction,
    // a structured tool (outputSchema) cannot answer with refusal text unless the user supplies a fallback
    refusalsAsErrors: options.outputSchema !== undefined && !userErrorFunction,
    strict: options.strict !== false,
    upstream: door.upstream,
    // the body takes the input the core hands it, so an approved edit runs; not a structured tool
    // (outputSchema): its output cannot carry the note that tells the model what ran
    door: { kind: door.kind ?? 'function', edits: options.outputSchema === undefined, schema: () => created.parameters },
  });
  const body = execute as (i: unknown, c: unknown, d: unknown) => unknown;
  // the core hands the body the call (its input, run context and details): made once, not a closure a call
  const toolBody = (input?: unknown, editedText?: string, runContext?: RunContext<unknown>, details?: CallDetails) =>
    editedText === undefined ? body(input, runContext, details) : body(input, runContext, editedDetails(details, editedText));
  // `-0` is the policy's 0: the body gets the value that was decided on
  const wrappedExecute = (parsed: unknown, runContext: RunContext<unknown>, details?: CallDetails) =>
    core.execute(withoutNegativeZero(parsed), runContext, details, toolBody);
  const errorFunction = composeErrorFunction(action, userErrorFunction, options.outputSchema !== undefined);

  const userGuardrails = (options.inputGuardrails as unknown[] | undefined) ?? [];
  // the call id is the SDK's third argument: a paused call is filed under it, with the tool's name
  // (and its schema as the model sees it: strict mode's parse drops optional properties' nulls)
  const needsApproval = (runContext: RunContext<unknown>, input: unknown, callId?: string) => core.needsApproval(runContext, input, callId, pausing);
  const created = tool({
    ...(options as object),
    execute: wrappedExecute,
    needsApproval,
    errorFunction,
    inputGuardrails: [core.guardrail, ...userGuardrails],
  } as Parameters<typeof tool>[0]) as FunctionTool;
  // the tool a call pauses in, made once: no object a call
  const pausing = { toolName: created.name, strictSchema: created.parameters };
  requireManifestAction(policy, created.name, action);
  register(internals, created, action);
  Object.defineProperty(created, PAUSED_DOOR, { value: core.door, enumerable: false });
  hideWhenUnusable(internals, policy, action, created);
  Object.defineProperty(created, TOOL_ARGUMENTS, { value: core.callArguments, enumerable: false });
  internals.namedArguments.set(sdkToolName(created.name), core.callArguments);
  return created;
}

/** The SDK's call details for an approved edit: the tool call's arguments are the edited text the body runs. */
function editedDetails(details: CallDetails | undefined, text: string): CallDetails | undefined {
  if (!details?.toolCall) return details;
  return { ...details, toolCall: { ...details.toolCall, arguments: text } };
}

/**
 * This library's errors always reach the caller. With the user's own errorFunction, their other
 * errors still go to it. Without one: a failure of the tool body propagates too (never "please
 * try again": whether it took effect is unknown); the SDK's invalid-arguments error (raised
 * before the body) becomes the guardrail's text for such a call, saying nothing ran; anything
 * else propagates.
 */
function composeErrorFunction(
  action: string,
  user: ((ctx: RunContext<unknown>, error: unknown, details?: unknown) => unknown) | null | undefined,
  hasOutputSchema: boolean,
) {
  if (user === null) return null;
  if (user === undefined && hasOutputSchema) return null; // the SDK's own default for structured tools
  return (ctx: RunContext<unknown>, error: unknown, details?: unknown) => {
    if (error instanceof CtrlrunError) throw noted(ctx, error);
    if (user) return user(ctx, error, details);
    if (!(error instanceof ModelBehaviorError) || isBodyFailure(error)) throw noted(ctx, error);
    return invalidArgumentsText(action, invalidInputProblem(error));
  };
}

/**
 * The schema's problem with a call the SDK refused before the body: its invalid-input error
 * carries the schema's own error (`originalError`) unless the SDK withheld it (tool data not
 * logged: the guardrail recorded the refusal, core/gate.ts); another model error says itself.
 */
function invalidInputProblem(error: ModelBehaviorError): string {
  if (!('originalError' in error)) return describeError(error);
  return error.originalError === undefined ? WITHHELD_ARGUMENTS : zodProblem(error.originalError);
}

/** An error about to propagate out of a tool: a protected agent tool running this run takes it back (nested.ts). */
function noted(ctx: unknown, error: unknown): unknown {
  noteNestedFailure(ctx, error);
  return error;
}

/**
 * The manifest binds a tool name to one action: a tool whose (SDK-sanitized) name the manifest
 * maps to another action is refused at creation, so the policy of the wrong action (a read's
 * `allow` for a refund) can never decide its calls. A name the manifest does not map is not
 * bound here (`check` reports it as unmapped).
 */
function requireManifestAction(policy: CompiledPolicy, sdkName: string, action: string): void {
  let mappedHere = false;
  for (const [written, mapped] of Object.entries(policy.tools ?? {})) {
    if (sdkToolName(written) !== sdkName) continue;
    if (mapped === action) {
      mappedHere = true;
      continue;
    }
    throw new CtrlrunError(
      `protectedTool('${action}'): the manifest (ctrlrun.tools.yaml) maps the tool name "${written}" to action ${mapped}, not ${action}; ` +
        `the policy of ${action} must not decide its calls. Use protectedTool('${mapped}', …), or change the tool's name or its mapping and run \`ctrlrun-gen generate\`.`,
      { action },
    );
  }
  // a tool whose name the code computes keeps to the names its entry declares (issue 40, item 5)
  const patterns = policy.computedNames?.[action];
  if (mappedHere || patterns === undefined || patterns.some((p) => matchesNamePattern(p, sdkName))) return;
  throw new CtrlrunError(
    `protectedTool('${action}'): the tool name "${sdkName}" is not among the names the manifest (ctrlrun.tools.yaml) gives the tools of ${action} (${patterns.join(', ')}); ` +
      `a name outside them could be another action's. Widen \`names:\` of the entry, or give the tool a name it allows, and run \`ctrlrun-gen generate\`.`,
    { action },
  );
}

function register(internals: ControlInternals, created: FunctionTool, action: string): void {
  const name = sdkToolName(created.name);
  const known = internals.namedActions.get(name);
  if (known !== undefined && known !== action) {
    throw new CtrlrunError(
      `protectedTool('${action}'): the tool name "${created.name}" is already protected as action ${known}; one tool name maps to one action.`,
    );
  }
  internals.namedActions.set(name, action);
  internals.toolActions.set(created, action);
  Object.defineProperty(created, PROTECTED_ACTION, { value: action, enumerable: false });
}
