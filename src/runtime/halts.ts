import type { AppendOptions, Halt, HaltState, HaltTarget, Store } from './types.js';

/**
 * Operators' halts (`ctrlrun-gen halts set`, serve's inbox, the MCP console, `control.halt`): the
 * matching of a call against the halts in force, and what one process knows of them.
 *
 * A process keeps the halts it last read (`HaltWatch`): the guardrail checks a call against that copy
 * without touching the store (nothing to do while there are none), and the call's decision receipt,
 * a write every enforced call makes before its body, is appended only while the store's halt epoch
 * is still the copy's. A halt set or lifted in another process raises the epoch, so the next call's
 * append fails (`HaltsChanged`), the process reads the halts again and decides that call anew: a
 * halt is effective at the next call, with no read of its own on the allow path.
 */

export const HALT_TARGETS: readonly HaltTarget[] = ['all', 'run', 'principal', 'action'];

/** What a halt is matched against: the call's action, its principal (normalised) and, only when a halt names a run, its run id. */
export interface HaltCall {
  action: string;
  principal: string | null;
  run: () => string | null;
}

/**
 * The halt that stops this call (a hard one before a soft one), or undefined. A target this
 * version does not know stops every call (fail closed: it was written by an operator). Pure.
 */
export function haltOf(halts: readonly Halt[], call: HaltCall): Halt | undefined {
  let found: Halt | undefined;
  let run: string | null | undefined;
  for (const halt of halts) {
    let hit: boolean;
    switch (halt.target) {
      case 'action':
        hit = halt.value === call.action;
        break;
      case 'principal':
        hit = call.principal !== null && halt.value === call.principal;
        break;
      case 'run':
        if (run === undefined) run = call.run();
        hit = run !== null && halt.value === run;
        break;
      default:
        hit = true; // 'all', or a target this version does not know
    }
    if (hit && (found === undefined || (halt.hard && !found.hard))) found = halt;
  }
  return found;
}

/** What one control knows of its store's halts. */
export interface HaltWatch {
  /** Whether the store keeps halts at all (a store without them has none: nothing to check, no condition on appends). */
  readonly kept: boolean;
  /** The halts as this process last read them; undefined before the first read. */
  known(): HaltState | undefined;
  /** Reads the store's halts (one read shared by concurrent callers), again until the epoch is at least `atLeast`. */
  refresh(atLeast?: number): Promise<HaltState>;
  /** The append options of a receipt written at `epoch`: one frozen object while the epoch holds, not one a receipt. */
  appendOptions(epoch: number): AppendOptions;
}

const NONE: HaltState = Object.freeze({ epoch: 0, halts: [] }) as HaltState;

export function haltWatch(store: Store): HaltWatch {
  const read = typeof store.readHalts === 'function' ? store.readHalts.bind(store) : undefined;
  let state: HaltState | undefined;
  let pending: Promise<HaltState> | undefined;
  let options: AppendOptions = Object.freeze({ haltEpoch: 0 });
  const once = (): Promise<HaltState> => {
    pending ??= read!().then(
      (s) => {
        pending = undefined;
        // a slower, older read never replaces a newer one
        if (state === undefined || s.epoch >= state.epoch) state = s;
        return state;
      },
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
  return {
    kept: read !== undefined,
    known: () => (read ? state : NONE),
    async refresh(atLeast = -1) {
      if (!read) return NONE;
      let s = await once();
      // a read that started before the change it is asked about: once more (a store's epoch never goes back)
      for (let i = 0; s.epoch < atLeast && i < 3; i++) s = await once();
      return s;
    },
    appendOptions(epoch) {
      if (options.haltEpoch !== epoch) options = Object.freeze({ haltEpoch: epoch });
      return options;
    },
  };
}
