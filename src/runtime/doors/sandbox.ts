import type { Agent, ApplyPatchTool, FunctionTool, RunContext, Tool } from '@openai/agents';
import type { Control } from '../control.js';
import { createActionCore, type ActionCore, type ActionCoreOptions } from '../core/action-core.js';
import { bindPolicy } from '../core/bind-policy.js';
import { hideWhenUnusable } from '../core/exposure.js';
import { refusal } from '../core/messages.js';
import { INVALID_ARGUMENTS, ReportedOutcome, type CallDetails } from '../core/types.js';
import { CtrlrunError } from '../errors.js';
import { PROTECTED_ACTION, type ControlInternals } from '../internals.js';
import { noteNestedFailure } from '../nested.js';
import type { CompiledPolicy } from '../types.js';
import { localGate, Refused } from './local-gate.js';
import { LOCAL_ACTION } from './local-mark.js';
import { makeApplyPatchTool } from './local-tools.js';
import { patchParts } from './patch-operations.js';
import { guardOfCapability, isSandboxAgent, patchArguments, SANDBOX_GUARD, sandboxAction, type AnyCapability } from './sandbox-mark.js';

export { isSandboxAgent } from './sandbox-mark.js';

/**
 * SandboxAgent capabilities (`@openai/agents/sandbox`, SDK 0.9 on). A SandboxAgent's
 * capabilities (by default `filesystem()`, `shell()`, `compaction()`) give the model tools the SDK
 * makes anew for every run from the live sandbox session: `exec_command` and `write_stdin`
 * (shell), `view_image` and `apply_patch` (filesystem), `load_skill` (skills with `lazyFrom`), and
 * whatever a custom `Capability` or a `configureTools` returns. None asks anyone by default.
 *
 * `protectSandboxAgent(agent)` guards them where the SDK makes them: each capability of the agent
 * is replaced by a copy whose class is a subclass of its own (so `instanceof`, `clone()` and the
 * SDK's binding all work as before) whose `tools()` returns the same tools, each guarded by the
 * action the manifest maps to its name (`sandbox: { tool }`, or `sandbox: { agent, tool }` for
 * this agent only). A name the manifest does not map is denied (`unknown_action`). A capability
 * added later (pushed onto `capabilities`, a list assigned, `agent.clone({ capabilities })`) and
 * the copies a capability's own `clone()` makes are guarded the same way. Each door
 * reaches the one core:
 *
 * - a function tool (`exec_command`, `write_stdin`, `view_image`, `load_skill`, a custom one):
 *   as `protectedTool`'s: the policy decides on the arguments the model sent (`cmd`,
 *   `workdir`, …), a call it sends to a person pauses with the SDK's own interruption and is
 *   filed as it pauses, the approved call runs once, receipts and a decision-log entry;
 * - the SDK's `apply_patch` tool (a model that takes `apply_patch_call`): as
 *   `protectApplyPatchTool`'s (decided in `needsApproval`, run in the wrapped editor);
 * - the function-form `apply_patch` (a model given by name, Chat Completions): its patch is read
 *   into operations (sandbox-patch.ts), decided on them, and the SDK is handed exactly those.
 *
 * The policy's `when` sees, for `apply_patch`, `{ operation, path, diff?, move_to? }` (the local
 * door's fields). A function-form patch of several operations is decided operation by operation,
 * the strictest decision winning (its templates read the fields joined by a newline).
 */
export interface SandboxDoors {
  /** Guards every capability tool of a SandboxAgent in place (its `capabilities`); returns the agent. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  protectSandboxAgent: <T extends Agent<any, any>>(agent: T) => T;
}

const BASE: unique symbol = Symbol.for('ctrlrun.sandbox.base');
const SDK_RETRY_TEXT = 'An error occurred while running the tool. Please try again.';
const WHO = 'protectSandboxAgent';

/** One protected SandboxAgent's guard: its control, policy and name (the manifest may map tools per agent). */
interface Guard {
  internals: ControlInternals;
  policy: CompiledPolicy;
  agent: string;
  /** One core per tool name, shared by every run's copy of the tool (the in-flight holds are per tool). */
  cores: Map<string, ActionCore>;
}

export function bindSandbox(control: Control, policy: CompiledPolicy): SandboxDoors {
  const internals = bindPolicy(control, policy, 'bindSandbox');
  return { protectSandboxAgent: (agent) => guardSandboxAgent(internals, policy, agent) };
}

/** Whether every capability of a SandboxAgent is guarded by this library (for `protectAgent`). */
export function isGuardedSandboxAgent(agent: unknown): boolean {
  return isSandboxAgent(agent) && agent.capabilities.every((c) => guardOfCapability(c) !== undefined);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function guardSandboxAgent<T extends Agent<any, any>>(internals: ControlInternals, policy: CompiledPolicy, agent: T): T {
  if (!isSandboxAgent(agent)) {
    throw new CtrlrunError(`${WHO}: pass a SandboxAgent (from @openai/agents/sandbox); ${describeValue(agent)} has no \`capabilities\`.`);
  }
  const guard = guardFor(internals, policy, agent.name);
  if ((agent as { [GUARDED_AGENT]?: Guard })[GUARDED_AGENT] === guard) return agent;
  keepGuarded(agent, guard);
  keepClonesGuarded(agent, internals, policy);
  Object.defineProperty(agent, GUARDED_AGENT, { value: guard, configurable: true });
  return agent;
}

const GUARDED_AGENT: unique symbol = Symbol.for('ctrlrun.sandbox.guardedAgent');

/**
 * The agent's `capabilities` become an accessor whose every read guards what the list holds: a
 * capability pushed onto it, or a list assigned, after protectSandboxAgent is guarded before the
 * SDK reads it for a run (a name the manifest does not map is denied), never handed over as it is.
 */
function keepGuarded(agent: { capabilities: AnyCapability[] }, guard: Guard): void {
  let list = agent.capabilities;
  const read = (): AnyCapability[] => {
    if (!Array.isArray(list)) throw new CtrlrunError(`${WHO}: agent ${guard.agent}'s capabilities are not a list; nothing is given to the model unguarded.`);
    for (let i = 0; i < list.length; i++) {
      if (guardOfCapability<Guard>(list[i]) !== guard) list[i] = guardedCapability(list[i] as AnyCapability, guard);
    }
    return list;
  };
  read();
  Object.defineProperty(agent, 'capabilities', {
    get: read,
    set: (value: AnyCapability[]) => {
      list = value;
    },
    enumerable: true,
    configurable: true,
  });
}

/**
 * The SDK's `clone()` makes a new SandboxAgent (it does so for every run, with the run's bound
 * capabilities, and an app may call `agent.clone({ capabilities })`): the clone is guarded as the
 * agent is, under its own name, so no capability reaches the model through a copy.
 */
function keepClonesGuarded(agent: { clone?: unknown }, internals: ControlInternals, policy: CompiledPolicy): void {
  const clone = agent.clone;
  if (typeof clone !== 'function') throw new CtrlrunError(`${WHO}: the agent has no clone(); it is not a SandboxAgent this door knows.`);
  Object.defineProperty(agent, 'clone', {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    value: function guardedClone(this: unknown, config: unknown) {
      return guardSandboxAgent(internals, policy, clone.call(this, config));
    },
    writable: true,
    configurable: true,
  });
}

function describeValue(value: unknown): string {
  if (value === null || typeof value !== 'object') return String(value);
  return `agent ${(value as { name?: unknown }).name ?? '(unnamed)'}`;
}

const guards = new WeakMap<ControlInternals, Map<string, Guard>>();

function guardFor(internals: ControlInternals, policy: CompiledPolicy, agent: string): Guard {
  let byAgent = guards.get(internals);
  if (!byAgent) {
    byAgent = new Map();
    guards.set(internals, byAgent);
  }
  let guard = byAgent.get(agent);
  if (!guard) {
    guard = { internals, policy, agent, cores: new Map() };
    byAgent.set(agent, guard);
  }
  return guard;
}

function coreOf(guard: Guard, tool: string, options: ActionCoreOptions): ActionCore {
  let core = guard.cores.get(tool);
  if (!core) {
    core = createActionCore(guard.internals, guard.policy, sandboxAction(guard.policy, guard.agent, tool), options);
    guard.cores.set(tool, core);
  }
  return core;
}

// --- the capability: a subclass whose tools() guards what the SDK makes --------------------------

const protos = new WeakMap<object, Map<Guard, object>>();

/**
 * A copy of `capability` whose prototype is its own class's, with `tools()` guarded by `guard` (one
 * prototype per class and guard). Its `clone()` (the SDK clones every capability before each run)
 * guards what the class's own returns: a custom clone() that makes `new X()` stays guarded.
 */
function guardedCapability(capability: AnyCapability, guard: Guard): AnyCapability {
  if (guardOfCapability<Guard>(capability) === guard) return capability;
  requireCapability(capability, guard);
  return withGuard(capability.clone!(), guard);
}

function requireCapability(capability: unknown, guard: Guard): asserts capability is AnyCapability {
  const c = capability as AnyCapability | null;
  if (!c || typeof c !== 'object' || typeof c.clone !== 'function' || typeof c.tools !== 'function') {
    throw new CtrlrunError(`${WHO}: agent ${guard.agent} has a capability that is not a sandbox Capability (no clone() and tools()).`);
  }
}

/** `copy` (a fresh copy no one else holds) given the guarded prototype of its class. */
function withGuard(copy: unknown, guard: Guard): AnyCapability {
  requireCapability(copy, guard);
  if (guardOfCapability<Guard>(copy) === guard) return copy;
  const current = Object.getPrototypeOf(copy) as Record<symbol, unknown>;
  Object.setPrototypeOf(copy, protoOf((current[BASE] as object | undefined) ?? current, guard));
  return copy;
}

function protoOf(base: object, guard: Guard): object {
  let byGuard = protos.get(base);
  if (!byGuard) {
    byGuard = new Map();
    protos.set(base, byGuard);
  }
  let proto = byGuard.get(guard);
  if (!proto) {
    const baseTools = (base as { tools: () => unknown }).tools;
    const baseClone = (base as { clone: () => unknown }).clone;
    proto = Object.create(base, {
      tools: {
        value: function tools(this: AnyCapability) {
          return guardTools(guard, baseTools.call(this), this);
        },
        writable: true,
        configurable: true,
      },
      clone: {
        value: function clone(this: AnyCapability) {
          return withGuard(baseClone.call(this), guard);
        },
        writable: true,
        configurable: true,
      },
      [SANDBOX_GUARD]: { value: guard },
      [BASE]: { value: base },
    }) as object;
    byGuard.set(guard, proto);
  }
  return proto;
}

function guardTools(guard: Guard, tools: unknown, capability: AnyCapability): unknown {
  if (!Array.isArray(tools)) return tools;
  return tools.map((tool: Tool) => guardTool(guard, tool, capability));
}

function guardTool(guard: Guard, tool: Tool, capability: AnyCapability): Tool {
  const t = tool as Tool & { [PROTECTED_ACTION]?: string; [LOCAL_ACTION]?: unknown; name?: string };
  if (t[PROTECTED_ACTION] !== undefined || t[LOCAL_ACTION] !== undefined) return tool; // made by this library: decided by its own action
  if (t.type === 'function' && t.name === 'apply_patch') return patchFunctionTool(guard, t as FunctionTool);
  if (t.type === 'function') return functionTool(guard, t as FunctionTool);
  if (t.type === 'apply_patch') {
    const inner = t as ApplyPatchTool;
    const action = sandboxAction(guard.policy, guard.agent, inner.name);
    return makeApplyPatchTool(guard.internals, guard.policy, action, { name: inner.name, editor: inner.editor }, WHO) as Tool;
  }
  throw new CtrlrunError(
    `${WHO}: capability ${String(capability.type)} of agent ${guard.agent} gives the model a ${String(t.type)} tool (${t.name ?? 'unnamed'}) that this door cannot guard; nothing is given to the model unguarded.`,
  );
}

/** A copy of the SDK's tool object (its own properties, its prototype): the SDK's object is left as it was. */
function copyTool<T extends object>(tool: T): T {
  return Object.create(Object.getPrototypeOf(tool), Object.getOwnPropertyDescriptors(tool)) as T;
}

/** A capability's function tool, decided as a protectedTool is: the guardrail, needsApproval (files a pause), then the SDK's own invoke once. */
function functionTool(guard: Guard, inner: FunctionTool): FunctionTool {
  const strict = inner.strict !== false;
  // its body is the SDK's invoke with the text the core hands it: an approved edit runs as a model's call would
  const core = coreOf(guard, inner.name, {
    parameters: inner.parameters as never,
    strict,
    door: { kind: 'sandbox', edits: true, schema: () => made.parameters },
  });
  const made = copyTool(inner);
  // the tool a call pauses in, made once: no object a call
  const pausing = { toolName: made.name, ...(strict ? { strictSchema: made.parameters } : {}) };
  made.needsApproval = (runContext: RunContext<unknown>, input: unknown, callId?: string) => core.needsApproval(runContext, input, callId, pausing);
  made.inputGuardrails = [core.guardrail as never, ...(inner.inputGuardrails ?? [])];
  const invoke = inner.invoke.bind(inner);
  made.invoke = async (runContext: RunContext<unknown>, input: string, details?: Parameters<FunctionTool['invoke']>[2]) => {
    const parsed = core.policyArgs(input);
    const body = async (_edited?: unknown, editedText?: string) => {
      const output = await invoke(runContext, editedText ?? input, details);
      // the capability's execute threw and the SDK's default error function hid it: whether it acted is unknown
      if (output === SDK_RETRY_TEXT) throw failedInside(core.action, inner.name, details);
      return output;
    };
    return core.execute(parsed.ok ? parsed.value : input, runContext, details as CallDetails | undefined, body) as never;
  };
  Object.defineProperty(made, PROTECTED_ACTION, { value: core.action, enumerable: false });
  hideWhenUnusable(guard.internals, guard.policy, core.action, made);
  return made;
}

function failedInside(action: string, tool: string, details: unknown): CtrlrunError {
  return new CtrlrunError(
    `ctrlrun: ${action}: the sandbox's ${tool} failed (the SDK hid its error behind "${SDK_RETRY_TEXT}"); whether it acted is unknown, so it is not retried.`,
    { action, callId: (details as CallDetails | undefined)?.toolCall?.callId ?? null },
  );
}

/** Per run context, one key object per call id: what the patch tool's needsApproval and invoke share. */
const callKeys = new WeakMap<object, Map<string, object>>();

function callKey(runContext: object, callId: string, take = false): object {
  let keys = callKeys.get(runContext);
  if (!keys) {
    keys = new Map();
    callKeys.set(runContext, keys);
  }
  let key = keys.get(callId);
  if (!key) {
    key = {};
    keys.set(callId, key);
  }
  if (take) keys.delete(callId);
  return key;
}

/**
 * The function-form `apply_patch` of a filesystem capability: decided in `needsApproval` on the
 * patch's operations (a yes stays in the store, as for the local apply_patch door), run in
 * `invoke` with exactly those operations.
 */
function patchFunctionTool(guard: Guard, inner: FunctionTool): FunctionTool {
  const core = coreOf(guard, inner.name, { door: { kind: 'apply_patch' }, parts: patchParts });
  const made = copyTool(inner);
  const gate = localGate(guard.internals, core, WHO, () => made.name);
  made.needsApproval = async (runContext: RunContext<unknown>, input: unknown, callId?: string) => {
    const read = patchArguments(input);
    if (read.error !== undefined || typeof callId !== 'string') return false; // refused in invoke, nothing runs
    return gate.needsApproval(runContext, callKey(runContext, callId), read.args, callId);
  };
  const invoke = inner.invoke.bind(inner);
  made.invoke = async (runContext: RunContext<unknown>, input: string, details?: Parameters<FunctionTool['invoke']>[2]) => {
    const read = patchArguments(input);
    const callId = (details as CallDetails | undefined)?.toolCall?.callId;
    if (read.operations === undefined) {
      await core.receipt(
        { callId: callId ?? null, argsHash: null, principal: null, decision: INVALID_ARGUMENTS },
        { result: 'refused', reason: 'invalid_arguments' },
      );
      return `${refusal(core.action, `its patch could not be read (${read.error})`)} Nothing was changed; send a valid patch if still needed.`;
    }
    const operations = read.operations;
    const key = callId === undefined ? {} : callKey(runContext, callId, true);
    let out: unknown;
    try {
      out = await gate.run(key, read.args, async () => {
        const output = await invoke(runContext, JSON.stringify({ operations }), details);
        // the SDK turns an editor that threw into this text: whether that operation acted is unknown
        return typeof output === 'string' && output.split('\n').some((line) => line.startsWith('Failed to apply patch: '))
          ? new ReportedOutcome('ambiguous', 'patch_failed: the sandbox editor threw', output)
          : output;
      });
    } catch (error) {
      noteNestedFailure(runContext, error);
      throw error;
    }
    return (out instanceof Refused ? out.refused : out) as never;
  };
  Object.defineProperty(made, PROTECTED_ACTION, { value: core.action, enumerable: false });
  hideWhenUnusable(guard.internals, guard.policy, core.action, made);
  return made;
}
