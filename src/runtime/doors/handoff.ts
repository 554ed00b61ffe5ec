import { handoff, type Agent, type AgentOutputType, type Handoff, type RunContext, type ToolInputParameters, type UnknownContext } from '@openai/agents';
import type { Control } from '../control.js';
import { isHardHalt } from '../core/halt.js';
import { exposureCheck } from '../core/exposure.js';
import { createActionCore, type ActionCore } from '../core/action-core.js';
import { bindPolicy } from '../core/bind-policy.js';
import type { ArgsSchema } from '../core/types.js';
import { decideCall } from '../decide.js';
import { ActionDenied, CtrlrunError } from '../errors.js';
import { argsHashOf, principalOf, type ControlInternals } from '../internals.js';
import type { CompiledPolicy } from '../types.js';

/**
 * Handoffs: `handoffs: [agent]` and `handoff(agent, { inputType, onHandoff, … })`. The model calls
 * a handoff like a tool (`transfer_to_<agent>`, with arguments when it has an `inputType`); the
 * SDK then runs its `onHandoff` (app code, on what the model chose) and hands the conversation to
 * the target agent. Nothing asks anyone.
 *
 * `protectHandoff(action, agent, config?)` is the SDK's `handoff(agent, config)` (or, given a
 * Handoff the app made, `new Handoff(agent, onInvoke)` or `handoff(…)`, a copy of it) whose every
 * transfer is decided by the policy's `action` on the handoff's input (`{}` without an
 * `inputType`), through the one core (principal, decision, authority, effect, receipt, decision
 * log):
 * - allow: `onHandoff` runs once (an `effect:` key is reserved first), then the transfer;
 * - deny (and every other refusal): no `onHandoff`, no transfer: the agent that asked keeps the
 *   conversation (the SDK tells the model its own name as the handoff's output; through `run()` of
 *   ctrlrun-gen/runtime the model reads the refusal itself), and the handoff's own `inputFilter`
 *   is not applied;
 * - approve: the SDK (0.20) cannot pause a handoff, so `generate` refuses a policy whose handoff
 *   action can decide `approve`; should one reach a call anyway, it is refused
 *   (`approval_unavailable`).
 *
 * The agent that asked is the one the SDK last asked the handoff's `isEnabled` for on that run
 * (it asks before every model call); without it (an SDK that does not ask), a refusal stops the run
 * with `ActionDenied`.
 */
export interface HandoffDoors<A extends string = string> {
  protectHandoff: ProtectHandoff<A>;
}

/** `handoff(agent, config)`'s config, as the SDK types it (its first overload's second parameter). */
type SdkHandoffConfig<TInputType extends ToolInputParameters, TContext> = NonNullable<Parameters<typeof handoff<TContext, AgentOutputType, TInputType>>[1]>;

export type ProtectHandoff<A extends string = string> = <
  TContext = UnknownContext,
  TOutput extends AgentOutputType = AgentOutputType,
  TInputType extends ToolInputParameters = ToolInputParameters,
>(
  action: A,
  agent: Agent<TContext, TOutput> | Handoff<TContext, TOutput>,
  config?: SdkHandoffConfig<TInputType, TContext>,
) => Handoff<TContext, TOutput>;

/** On a handoff made by protectHandoff: its action. */
export const HANDOFF_ACTION: unique symbol = Symbol.for('ctrlrun.protectHandoff.action');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyAgent = Agent<any, any>;

/** Per run: the agent the SDK last asked a protected handoff's `isEnabled` for (the one whose turn it is). */
const askedBy = new WeakMap<object, AnyAgent>();
/** Refusals by handoff tool name and arguments text, for `run()` to show the model (bounded): the text, and the SDK's output it replaces. */
const refusals = new Map<string, { text: string; output: string }>();
const MAX_REFUSALS = 1000;

export function bindHandoffs<A extends string = string>(control: Control, policy: CompiledPolicy): HandoffDoors<A> {
  const internals = bindPolicy(control, policy, 'bindHandoffs');
  return {
    protectHandoff: ((action: string, agent: AnyAgent | Handoff, config?: Record<string, unknown>) =>
      makeHandoff(internals, policy, action, agent, config ?? {})) as ProtectHandoff<A>,
  };
}

function makeHandoff(
  internals: ControlInternals,
  policy: CompiledPolicy,
  action: string,
  target: AnyAgent | Handoff,
  config: Record<string, unknown>,
): Handoff {
  const who = `protectHandoff('${action}')`;
  const made = handoffOf(target, config, who);
  requireHandoffAction(policy, made.agentName, action, who);
  const core = createActionCore(internals, policy, action, {
    parameters: config.inputType as ArgsSchema | undefined,
    strict: true,
    textOutput: false, // the body returns the agent handed to: a refusal stays with the current one (below)
  });
  const innerEnabled = made.isEnabled;
  // least exposure: a transfer the policy never lets this principal make is not offered (after the handoff's own isEnabled)
  const usable = exposureCheck(internals, policy, action);
  if (typeof innerEnabled === 'function') {
    made.isEnabled = async (args: { runContext: RunContext<unknown>; agent: AnyAgent }) => {
      if (args?.runContext && args.agent) askedBy.set(args.runContext, args.agent);
      if (!(await innerEnabled(args as never))) return false;
      return usable === null || !args?.runContext ? true : usable(args.runContext);
    };
  }
  const invoke = made.onInvokeHandoff;
  /** Runs whose current step's transfer this handoff refused (its inputFilter must not run). */
  const refusedStep = new WeakSet<object>();
  made.onInvokeHandoff = async (runContext: RunContext<unknown>, argsText: string) => {
    refusedStep.delete(runContext);
    const raw = typeof argsText === 'string' && argsText.trim() !== '' ? argsText : '{}';
    const parsed = core.policyArgs(raw);
    const input = parsed.ok ? parsed.value : raw;
    try {
      await refuseApproval(internals, core, runContext, raw, input);
      return (await core.execute(input, runContext, { toolCall: { arguments: raw } }, () => invoke(runContext, argsText))) as AnyAgent;
    } catch (error) {
      // a hard halt ends the run; any other refusal keeps the conversation where it is
      if (!(error instanceof ActionDenied) || isHardHalt(error)) throw error;
      const source = stayWith(runContext, made, raw, error);
      refusedStep.add(runContext);
      return source;
    }
  };
  const userFilter = made.inputFilter;
  if (typeof userFilter === 'function') {
    // a refused transfer hands nothing over: the handoff's own filter (which may drop history) is not applied
    made.inputFilter = (data) => {
      if (!data?.runContext || !refusedStep.has(data.runContext)) return userFilter(data);
      refusedStep.delete(data.runContext);
      return data;
    };
  }
  Object.defineProperty(made, HANDOFF_ACTION, { value: action, enumerable: false });
  return made;
}

/** Whether `value` is a Handoff (the SDK's class, or one of another copy of the SDK): its agent and invoke function. */
function isHandoff(value: unknown): value is Handoff {
  const h = value as { agent?: unknown; onInvokeHandoff?: unknown; agentName?: unknown } | null;
  return !!h && typeof h === 'object' && typeof h.onInvokeHandoff === 'function' && typeof h.agentName === 'string' && !!h.agent;
}

/**
 * The handoff to guard: the SDK's `handoff(agent, config)`, or a copy of a Handoff the app made
 * (its own fields and class; the app's object is left as it was, as the SDK's tools are).
 */
function handoffOf(target: AnyAgent | Handoff, config: Record<string, unknown>, who: string): Handoff {
  if (isHandoff(target)) {
    const guarded = (target as { [HANDOFF_ACTION]?: string })[HANDOFF_ACTION];
    if (guarded !== undefined)
      throw new CtrlrunError(`${who}: this handoff is already protected by protectHandoff('${guarded}'); pass its agent or the Handoff the app made.`);
    if (Object.keys(config).length > 0) {
      throw new CtrlrunError(
        `${who}: a Handoff carries its own configuration; pass it alone, or pass its agent and the config (as for handoff(agent, config)).`,
      );
    }
    return Object.create(Object.getPrototypeOf(target), Object.getOwnPropertyDescriptors(target)) as Handoff;
  }
  if (!target || typeof target !== 'object' || typeof (target as { name?: unknown }).name !== 'string') {
    throw new CtrlrunError(`${who}: pass the Agent the conversation is handed to, as for handoff(agent, config), or a Handoff.`);
  }
  return handoff(target, config as never) as Handoff;
}

/**
 * A handoff the policy sends to a person: the SDK cannot pause one, so it is refused
 * (`approval_unavailable`); `generate` refuses such a policy, this is the run-time backstop.
 */
async function refuseApproval(internals: ControlInternals, core: ActionCore, runContext: RunContext<unknown>, raw: string, input: unknown): Promise<void> {
  if (!core.enforce) return;
  const decision = decideCall(core.compiled, input);
  if (decision.decision !== 'approve') return;
  await core.receipt(
    { callId: null, argsHash: argsHashOf(raw, undefined), principal: await principalOf(internals, runContext), decision },
    { result: 'refused', reason: 'approval_unavailable' },
  );
  throw new ActionDenied(
    'approval_unavailable',
    `ctrlrun: ${core.action} refused (approval_unavailable): it needs a person's approval, and a handoff cannot pause for one.`,
    {
      action: core.action,
      callId: null,
    },
  );
}

/** A refused transfer: the agent that asked keeps the conversation; the refusal is kept for `run()` to show the model. */
function stayWith(runContext: RunContext<unknown>, made: Handoff, raw: string, error: ActionDenied): AnyAgent {
  const source = askedBy.get(runContext);
  if (!source) throw error; // the SDK never said whose turn it is: the run stops rather than transfer
  const why = error.message.replace(/^ctrlrun: /, '').replace(/; it did not run\.$/, '');
  const text = `The transfer to ${made.agentName} was refused (${why}). You were not transferred and nothing ran: go on helping the user yourself, and do not ask for this transfer again.`;
  const key = refusalKey(made.toolName, raw);
  refusals.delete(key);
  refusals.set(key, { text, output: JSON.stringify({ assistant: source.name }) });
  if (refusals.size > MAX_REFUSALS) refusals.delete(refusals.keys().next().value as string);
  return source;
}

const refusalKey = (toolName: string, raw: string) => `${toolName}\u0000${raw}`;

/**
 * The manifest binds a handoff's target to one action: a handoff to an agent the manifest maps
 * to another action is refused at creation (that action's policy must not decide it).
 */
function requireHandoffAction(policy: CompiledPolicy, target: string, action: string, who: string): void {
  const mapped = policy.handoffs?.[target];
  if (mapped === undefined || mapped === action) return;
  throw new CtrlrunError(
    `${who}: the manifest (ctrlrun.tools.yaml) maps handoffs to agent "${target}" to action ${mapped}, not ${action}; use protectHandoff('${mapped}', …), or change the mapping and run \`ctrlrun-gen generate\`.`,
    { action },
  );
}

// --- what run() does: the refusal as the handoff's output ---------------------------------------

/** Whether an agent graph holds a handoff made by protectHandoff. */
export function hasProtectedHandoffs(root: unknown): boolean {
  const seen = new Set<unknown>();
  const visit = (a: unknown): boolean => {
    if (!a || typeof a !== 'object' || seen.has(a)) return false;
    seen.add(a);
    const handoffs = (a as { handoffs?: unknown }).handoffs;
    if (!Array.isArray(handoffs)) return false;
    return handoffs.some((h) => (h && typeof h === 'object' && HANDOFF_ACTION in h) || visit((h as { agent?: unknown })?.agent ?? h));
  };
  return visit(root);
}

type ModelData = { input: unknown[]; instructions?: string };
type Filter = (args: { modelData: ModelData; agent: unknown; context: unknown }) => ModelData | Promise<ModelData>;

/**
 * A `callModelInputFilter` (composed after the user's) that shows the model why a transfer was
 * refused: the output of a refused protected handoff (the SDK's transfer message naming the agent
 * that asked) becomes the refusal. The output is found by the handoff's tool name and the call's
 * arguments text.
 */
export function handoffRefusalFilter(user: Filter | undefined): Filter {
  return async (args) => {
    const data = user ? await user(args) : args.modelData;
    const input: unknown[] = Array.isArray(data?.input) ? data.input : [];
    const callArgs = new Map<string, string>();
    for (const item of input) {
      const i = item as { type?: unknown; callId?: unknown; arguments?: unknown };
      if (i?.type === 'function_call' && typeof i.callId === 'string' && typeof i.arguments === 'string') callArgs.set(i.callId, i.arguments);
    }
    let changed = false;
    const out = input.map((item) => {
      const i = item as { type?: unknown; callId?: unknown; name?: unknown; output?: unknown };
      if (i?.type !== 'function_call_result' || typeof i.callId !== 'string' || typeof i.name !== 'string') return item;
      const raw = callArgs.get(i.callId);
      const refused = raw === undefined ? undefined : refusals.get(refusalKey(i.name, raw.trim() === '' ? '{}' : raw));
      // only the SDK's transfer message naming the agent that asked: an allowed transfer's output names its target
      if (refused === undefined || outputText(i.output) !== refused.output) return item;
      changed = true;
      return { ...(item as object), output: { type: 'text', text: refused.text } };
    });
    return changed ? { ...data, input: out } : data;
  };
}

function outputText(output: unknown): string | undefined {
  if (typeof output === 'string') return output;
  const o = output as { type?: unknown; text?: unknown } | null;
  return o && o.type === 'text' && typeof o.text === 'string' ? o.text : undefined;
}
