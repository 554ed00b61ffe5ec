/**
 * The failures of a nested run (`agent.asTool()`), handed to the protected agent tool that started
 * it. The SDK turns any error of an agent tool's nested run into "An error occurred while running
 * the tool. Please try again." for the parent model, which then retries: a body could run twice,
 * and the library's refusal never reaches the caller. So this library notes every error it lets
 * propagate out of a tool (with the run context the SDK gave that tool), and a protected agent
 * tool in flight on the same run takes it back and throws it as itself.
 *
 * A nested run's context shares the parent's `usage` object (the SDK's fork shares approvals and
 * usage), so that is the key; it lives only as long as the run (a WeakMap).
 */
export interface NestedFrame {
  /** The first failure noted while this frame was open. */
  readonly failure: { error: unknown } | undefined;
  close(): void;
}

const open = new WeakMap<object, Set<{ failure: { error: unknown } | undefined }>>();

function keyOf(runContext: unknown): object | undefined {
  const usage = (runContext as { usage?: unknown } | null | undefined)?.usage;
  return usage !== null && typeof usage === 'object' ? usage : undefined;
}

/** Opens a frame for an agent tool's call on `runContext`'s run. */
export function openNestedFrame(runContext: unknown): NestedFrame {
  const key = keyOf(runContext);
  const frame: { failure: { error: unknown } | undefined } = { failure: undefined };
  if (key) {
    const frames = open.get(key) ?? new Set();
    frames.add(frame);
    open.set(key, frames);
  }
  return {
    get failure() {
      return frame.failure;
    },
    close() {
      if (key) open.get(key)?.delete(frame);
    },
  };
}

/** Notes a failure this library lets propagate out of a tool run on `runContext`'s run. */
export function noteNestedFailure(runContext: unknown, error: unknown): void {
  const key = keyOf(runContext);
  const frames = key ? open.get(key) : undefined;
  if (!frames) return;
  for (const frame of frames) if (frame.failure === undefined) frame.failure = { error };
}
