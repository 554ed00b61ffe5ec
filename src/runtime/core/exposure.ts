import type { RunContext } from '@openai/agents';
import { usableBy, mayHide } from '../exposure.js';
import { isThenable, taskOf, whoNow, type ControlInternals } from '../internals.js';
import type { CompiledPolicy } from '../types.js';

/** Whether this run's principal may use the action at all (runtime/exposure.ts), asked each time the SDK lists the tools (nothing is cached: a grant may expire in between). */
export type ExposureCheck = (runContext: RunContext<unknown>) => Promise<boolean>;

/**
 * Least exposure (issue 38), the one check every door that can hide a tool asks: whether the policy
 * lets the run's principal use `action` at all, for any arguments (runtime/exposure.ts `usableBy`).
 * Null when nothing can be hidden: `createControl({ offerAllTools: true })`, or a policy that can
 * hide nothing of this action (`mayHide`: no grants, the action usable by everyone), so such a door
 * adds no check at all. A run with no principal keeps its tools (their calls are refused
 * `no_principal`, which tells the developer).
 */
export function exposureCheck(internals: ControlInternals, policy: CompiledPolicy, action: string): ExposureCheck | null {
  if (internals.offerAllTools === true || !mayHide(policy, action)) return null;
  const environment = internals.environment ?? policy.environment ?? 'production';
  return async (runContext) => {
    const found = whoNow(internals, runContext, true);
    const who = isThenable(found) ? await found : found;
    if (who === null) return true;
    const task = policy.authority ? await taskOf(internals, runContext) : null;
    return usableBy(policy, action, who, environment, task, internals.clock());
  };
}

/** A tool the SDK asks `isEnabled(runContext, agent)` before every model call: a function tool, an agent tool, a sandbox capability's. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Enableable = { isEnabled: (runContext: RunContext<any>, agent: any) => Promise<boolean> | boolean };

/**
 * Least exposure for a tool with `isEnabled`: it answers no when the policy never lets the run's
 * principal use its action, so the model is never offered it and cannot plan with it. The tool's
 * own `isEnabled` is asked first (false stays false).
 */
export function hideWhenUnusable(internals: ControlInternals, policy: CompiledPolicy, action: string, tool: Enableable): void {
  const usable = exposureCheck(internals, policy, action);
  if (usable === null) return;
  const own = tool.isEnabled;
  // asked before every model call: the tool's own answer is awaited only where it has one
  tool.isEnabled = typeof own !== 'function' ? usable : async (runContext, agent) => (await own(runContext, agent)) && (await usable(runContext));
}
