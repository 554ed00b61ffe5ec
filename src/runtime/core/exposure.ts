import type { FunctionTool, RunContext } from '@openai/agents';
import { usableBy, mayHide } from '../exposure.js';
import { isThenable, taskOf, whoNow, type ControlInternals } from '../internals.js';
import type { CompiledPolicy } from '../types.js';

/**
 * Least exposure for a function tool (issue 38): the SDK asks each tool's `isEnabled` before every
 * model call; a protected tool answers no when the policy never lets the run's principal use its
 * action, for any arguments (runtime/exposure.ts), so the model is never offered it and cannot plan
 * with it. The tool's own `isEnabled` is asked first. A run with no principal keeps its tools (their
 * calls are refused `no_principal`, which tells the developer). `createControl({ offerAllTools:
 * true })` keeps every tool; a policy that can hide nothing (no grants, no action nobody may use) adds
 * no check at all.
 */
export function hideWhenUnusable(internals: ControlInternals, policy: CompiledPolicy, action: string, tool: FunctionTool): void {
  if (internals.offerAllTools === true || !mayHide(policy, action)) return;
  const own = tool.isEnabled;
  const environment = internals.environment ?? policy.environment ?? 'production';
  tool.isEnabled = async (runContext: RunContext<unknown>, agent) => {
    if (typeof own === 'function' && !(await own(runContext as never, agent))) return false;
    const found = whoNow(internals, runContext, true);
    const who = isThenable(found) ? await found : found;
    if (who === null) return true;
    const task = policy.authority ? await taskOf(internals, runContext) : null;
    return usableBy(policy, action, who, environment, task, internals.clock());
  };
}
