import { settled } from '../settled.js';

/**
 * Stage 7, the body, and what the SDK may leave of it: bodies the SDK gave up on (its `timeoutMs`
 * fired, or the run was aborted) that are still running, by arguments hash. The model reads "timed
 * out" and calls again, but the first body may still commit, so a call with the same arguments is
 * refused until it settles (`still_running`). In this process only (the body runs here); across
 * processes an `effect:` key does this.
 */
export function stillRunningHolds() {
  const holds = new Map<string, number>();
  return {
    /** Whether a body with these arguments is still running after the SDK gave up on it. */
    holds: (argsHash: string): boolean => holds.size > 0 && holds.has(argsHash),
    /** Whether any body is held (the guardrail hashes the arguments only then). */
    any: (): boolean => holds.size > 0,
    /**
     * Runs `body`, holding `argsHash` from the moment `signal` aborts until the body settles; without
     * a signal (the Runner passes none to a tool without `timeoutMs`) the body's promise itself, no frame around it.
     */
    run: <T>(argsHash: string, signal: AbortSignal | undefined, body: () => Promise<T>): Promise<T> =>
      signal === undefined ? settled(body) : heldWhileRunning(argsHash, signal, body),
  };

  /** Runs `body`, holding `argsHash` from the moment `signal` aborts until the body settles. */
  async function heldWhileRunning<T>(argsHash: string, signal: AbortSignal, body: () => Promise<T>): Promise<T> {
    let holding = false;
    const hold = () => {
      holding = true;
      holds.set(argsHash, (holds.get(argsHash) ?? 0) + 1);
    };
    if (signal.aborted) hold();
    else signal.addEventListener('abort', hold, { once: true });
    try {
      return await body();
    } finally {
      signal.removeEventListener('abort', hold);
      if (holding) {
        const left = (holds.get(argsHash) ?? 1) - 1;
        if (left > 0) holds.set(argsHash, left);
        else holds.delete(argsHash);
      }
    }
  }
}

export type StillRunningHolds = ReturnType<typeof stillRunningHolds>;
