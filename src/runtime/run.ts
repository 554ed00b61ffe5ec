import { AgentsError, run as sdkRun, RunState } from '@openai/agents';
import { CtrlrunError, NotExecuted } from './errors.js';
import { answerByPolicy, claimForResume, guardInputFilter, hostedGuards } from './doors/hosted-mcp.js';
import { handoffRefusalFilter, hasProtectedHandoffs } from './doors/handoff.js';
import { rejectRefusedComputerCalls } from './doors/local-tools.js';
import { ESTABLISHED_NOT_EXECUTED } from './core/not-executed.js';

export { ESTABLISHED_NOT_EXECUTED, establishNotExecuted } from './core/not-executed.js';

/**
 * Finds this library's error inside what a run threw and returns it as itself, else the error
 * unchanged. It looks only where the SDK puts a tool's error: `.error` of a wrapper (`ToolCallError`)
 * and `.cause` of the SDK's own errors. It never looks into the `cause` of anyone else's error: a
 * body that throws `new Error('x', { cause: notExecuted })` may have acted, so that is not "did not
 * run". A `NotExecuted` is reported only when this library established it (core/not-executed.ts).
 *
 * The run state the wrapper carried is copied onto the recovered error's `state`; the wrapper
 * itself is never attached to it (the wrapper already points at it: that would be a cycle).
 */
export function unwrap(error: unknown): unknown {
  const seen = new Set<unknown>();
  let current: unknown = error;
  let state: unknown;
  for (let depth = 0; depth < 16 && current !== null && typeof current === 'object' && !seen.has(current); depth++) {
    if (current instanceof CtrlrunError) {
      if (current instanceof NotExecuted && (current as { [ESTABLISHED_NOT_EXECUTED]?: boolean })[ESTABLISHED_NOT_EXECUTED] !== true) return error;
      if (current.state === undefined && state !== undefined) current.state = state;
      return current;
    }
    seen.add(current);
    const holder = current as { error?: unknown; cause?: unknown; state?: unknown };
    if (state === undefined && holder.state !== undefined) state = holder.state;
    if (holder.error !== undefined) current = holder.error;
    else if (current instanceof AgentsError) current = holder.cause;
    else return error;
  }
  return error;
}

/**
 * The SDK's `run()`, except that this library's errors arrive as themselves (`catch (e) { if (e
 * instanceof DuplicateEffect) ... }` works). With hosted MCP servers made by `protectHostedMcp`
 * it also answers their approval requests as the policy says, returns only those that need a
 * person, claims each recorded yes once when a state resumes, and refuses any `approve: true` the
 * store did not record (a `callModelInputFilter` composed with yours). For streamed runs, pass
 * errors from `result.completed` through `unwrap()`; hosted requests are not answered by policy
 * in a streamed run (answer them with the control), but the input filter still applies.
 * A computer call of `protectComputerTool` that the policy refused pauses (its output is a
 * screenshot, so the SDK's rejection is the only way to tell the model why): `run()` rejects it
 * in the state with the refusal and resumes; in a streamed run, `control.request/resolve` do it.
 * A transfer of `protectHandoff` that the policy refused keeps the agent that asked, and the model
 * reads the refusal as the handoff's output (a `callModelInputFilter` composed after yours).
 */
export const run: typeof sdkRun = (async (...args: Parameters<typeof sdkRun>) => {
  try {
    const [agent, input, given] = args;
    const options = withHandoffRefusals(agent, given);
    const guards = hostedGuards(agent);
    if (guards.size === 0) {
      if ((options as { stream?: boolean } | undefined)?.stream) return await sdkRun(agent, input, options as never);
      let result = await sdkRun(agent, input, options as never);
      // a computer call the policy refused paused only so the SDK's rejection tells the model why: reject it and go on
      for (let round = 0; round < 64 && result.interruptions.length > 0 && rejectRefusedComputerCalls(result.state) > 0; round++) {
        result = await sdkRun(agent, result.state, options as never);
      }
      return result;
    }
    const claimed = input instanceof RunState ? await claimForResume(input, guards) : new Set<string>();
    const userFilter = (options as { callModelInputFilter?: Parameters<typeof guardInputFilter>[2] } | undefined)?.callModelInputFilter;
    const guarded = { ...(options ?? {}), callModelInputFilter: guardInputFilter(guards, claimed, userFilter) } as typeof options;
    if ((options as { stream?: boolean } | undefined)?.stream) return await sdkRun(agent, input, guarded as never);
    let result = await sdkRun(agent, input, guarded as never);
    // the policy answers what it can; resume while nothing is left for a person (bounded: each round answers at least one request)
    for (let round = 0; round < 64 && result.interruptions.length > 0; round++) {
      const refused = rejectRefusedComputerCalls(result.state);
      if (!(await answerByPolicy(result.state, guards)) && refused === 0) break;
      for (const id of await claimForResume(result.state, guards)) claimed.add(id);
      result = await sdkRun(agent, result.state, guarded as never);
    }
    return result;
  } catch (error) {
    throw unwrap(error);
  }
}) as typeof sdkRun;

/** The run's options with the filter that shows the model a refused protected handoff (when the graph has one). */
function withHandoffRefusals<O>(agent: unknown, options: O): O {
  if (!hasProtectedHandoffs(agent)) return options;
  const user = (options as { callModelInputFilter?: Parameters<typeof handoffRefusalFilter>[0] } | undefined)?.callModelInputFilter;
  return { ...(options ?? {}), callModelInputFilter: handoffRefusalFilter(user) } as O;
}
