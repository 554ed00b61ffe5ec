import { run as sdkRun } from '@openai/agents';
import { CtrlrunError } from './errors.js';

/**
 * Finds this library's error inside what a run threw (the SDK wraps tool errors in `ToolCallError`,
 * the original on `.error`) and returns it as itself, else the error unchanged. The run state the
 * wrapper carried is copied onto the recovered error's `state`; the wrapper itself is never
 * attached to it (the wrapper already points at it: that would be a cycle).
 */
export function unwrap(error: unknown): unknown {
  const seen = new Set<unknown>();
  let current: unknown = error;
  let state: unknown;
  for (let depth = 0; depth < 16 && current !== null && typeof current === 'object' && !seen.has(current); depth++) {
    if (current instanceof CtrlrunError) {
      if (current.state === undefined && state !== undefined) current.state = state;
      return current;
    }
    seen.add(current);
    const holder = current as { error?: unknown; cause?: unknown; state?: unknown };
    if (state === undefined && holder.state !== undefined) state = holder.state;
    current = holder.error ?? holder.cause;
  }
  return error;
}

/**
 * The SDK's `run()`, except that this library's errors arrive as themselves (`catch (e) { if (e
 * instanceof DuplicateEffect) ... }` works). Nothing else is changed. For streamed runs, pass
 * errors from `result.completed` through `unwrap()`.
 */
export const run: typeof sdkRun = (async (...args: Parameters<typeof sdkRun>) => {
  try {
    return await sdkRun(...args);
  } catch (error) {
    throw unwrap(error);
  }
}) as typeof sdkRun;
