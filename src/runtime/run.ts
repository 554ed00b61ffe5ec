import { AgentsError, run as sdkRun } from '@openai/agents';
import { CtrlrunError, NotExecuted } from './errors.js';

/**
 * Marks a `NotExecuted` this library itself established: the protected tool's body threw it, and the
 * wrapper settled the effect key as failed and wrote the receipt before rethrowing it.
 */
export const ESTABLISHED_NOT_EXECUTED: unique symbol = Symbol.for('ctrlrun.notExecuted.established');

export function establishNotExecuted(error: NotExecuted): NotExecuted {
  Object.defineProperty(error, ESTABLISHED_NOT_EXECUTED, { value: true, enumerable: false });
  return error;
}

/**
 * Finds this library's error inside what a run threw and returns it as itself, else the error
 * unchanged. It looks only where the SDK puts a tool's error: `.error` of a wrapper (`ToolCallError`)
 * and `.cause` of the SDK's own errors. It never looks into the `cause` of anyone else's error: a
 * body that throws `new Error('x', { cause: notExecuted })` may have acted, so that is not "did not
 * run". A `NotExecuted` is reported only when this library established it (see above).
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
