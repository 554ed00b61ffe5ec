import type { ApplyPatchOperation } from '@openai/agents';
import type { CompiledPolicy } from '../types.js';
import type { PartsOf } from '../core/parts.js';
import { parsePatchInput, patchParts, presentPatchOperation, presentPatchOperations } from './patch-operations.js';

/**
 * What a SandboxAgent guarded by protectSandboxAgent (sandbox.ts) carries, read by the control
 * without loading the door: the guard on its capabilities' prototype (its policy and the agent's
 * name), and how a paused capability call is looked up and presented to the policy.
 */
export const SANDBOX_GUARD: unique symbol = Symbol.for('ctrlrun.sandbox.guard');

/** The part of a sandbox guard the control needs: the policy and the name the agent was protected under. */
export interface SandboxGuardMark {
  policy: CompiledPolicy;
  agent: string;
}

export type AnyCapability = { type?: unknown; clone?: () => AnyCapability; tools?: () => unknown };

/** Whether `agent` is a SandboxAgent (its public `capabilities` list), read without importing the sandbox entry (older SDKs have none). */
export function isSandboxAgent(agent: unknown): agent is { name: string; capabilities: AnyCapability[] } {
  return !!agent && typeof agent === 'object' && Array.isArray((agent as { capabilities?: unknown }).capabilities);
}

/** The guard a capability's class carries, when protectSandboxAgent made it. */
export function guardOfCapability<G extends SandboxGuardMark = SandboxGuardMark>(capability: unknown): G | undefined {
  const proto = capability && typeof capability === 'object' ? (Object.getPrototypeOf(capability) as Record<symbol, unknown> | null) : null;
  return (proto?.[SANDBOX_GUARD] as G | undefined) ?? undefined;
}

/** The action the manifest maps to a capability tool of this agent; unmapped: a name that is no action (denied `unknown_action`). */
export function sandboxAction(policy: CompiledPolicy, agent: string, tool: string): string {
  const own = policy.sandbox?.agents?.[agent];
  if (own && Object.hasOwn(own, tool)) return own[tool] as string;
  const every = policy.sandbox?.tools;
  if (every && Object.hasOwn(every, tool)) return every[tool] as string;
  return `sandbox:${agent}/${tool}`;
}

/** What the policy sees of a function-form patch (the SDK's JSON parse, or the model's text). */
export function patchArguments(input: unknown): { operations?: ApplyPatchOperation[]; error?: string; args: Record<string, unknown> } {
  const parsed = parsePatchInput(typeof input === 'string' ? input : JSON.stringify(input ?? null));
  if (!parsed.ok) return { error: parsed.error, args: { operation: '', path: '' } };
  return { operations: parsed.operations, args: presentPatchOperations(parsed.operations) };
}

/** A paused call of a protected SandboxAgent's capability tool, as the control files and answers it. */
export interface SandboxCall {
  action: string;
  toolName: string;
  /** A patch: the yes stays in the store (its needsApproval claims it on resume); the presented arguments. */
  local?: { args: unknown };
  /** A function-form patch of several operations: each decided on its own (core/parts.ts). */
  parts?: PartsOf;
}

/**
 * The capability call behind an interruption of a protected SandboxAgent (the SDK's items name the
 * public agent, whose `tools` hold none of the capability tools): a function call that is not one
 * of the agent's own tools, or an `apply_patch_call`. Undefined otherwise.
 */
export function sandboxCallOf(agent: unknown, rawItem: { type?: unknown; name?: unknown; arguments?: unknown; operation?: unknown }): SandboxCall | undefined {
  if (!isSandboxAgent(agent)) return undefined;
  const guard = agent.capabilities.map((c) => guardOfCapability(c)).find((g) => g !== undefined);
  if (!guard) return undefined;
  if (rawItem.type === 'apply_patch_call') {
    const op = rawItem.operation as ApplyPatchOperation | undefined;
    return { action: sandboxAction(guard.policy, guard.agent, 'apply_patch'), toolName: 'apply_patch', local: { args: presentPatchOperation(op) } };
  }
  if (rawItem.type !== 'function_call' || typeof rawItem.name !== 'string') return undefined;
  const own = (agent as { tools?: unknown }).tools;
  if (Array.isArray(own) && own.some((t) => (t as { name?: unknown } | null)?.name === rawItem.name)) return undefined;
  const action = sandboxAction(guard.policy, guard.agent, rawItem.name);
  if (rawItem.name !== 'apply_patch') return { action, toolName: rawItem.name };
  return {
    action,
    toolName: rawItem.name,
    local: { args: patchArguments(typeof rawItem.arguments === 'string' ? rawItem.arguments : '').args },
    parts: patchParts,
  };
}
