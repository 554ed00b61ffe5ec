import type { DecisionEntry } from '../types.js';
import { StoreError } from './errors.js';

/** How often (in the entries' own clock) a store looks for entries past their retention: at most once a minute. */
export const PRUNE_EVERY_MS = 60_000;

/**
 * Decides when a store prunes: the first append with a retention, then once per PRUNE_EVERY_MS of
 * the entries' time. One per store object (its own state, no global).
 */
export function pruneSchedule(): (at: number, retainAfter: number | undefined) => boolean {
  let next = -Infinity;
  return (at, retainAfter) => {
    if (retainAfter === undefined || at < next) return false;
    next = at + PRUNE_EVERY_MS;
    return true;
  };
}

/** One stored row: the entry's JSON text (its hash is checked by verification, never trusted here). */
export function decisionFromRow(row: { entry: string }): DecisionEntry {
  try {
    return JSON.parse(row.entry) as DecisionEntry;
  } catch (error) {
    throw new StoreError('store_corrupt', `the decision log holds a row that is not JSON (${(error as Error).message})`, {
      hint: 'restore the store from a backup',
      cause: error,
    });
  }
}
