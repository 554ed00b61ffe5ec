import type { DecisionEntry, PrunedDecision } from '../types.js';
import { StoreError } from './errors.js';

/** The `action` column of a tenant's pruned entry (no policy action is empty): listings skip it. */
export const PRUNED_ACTION = '';

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

/** A tenant's pruned entry: its links, time and tenant, nothing of its inputs. */
export function tombstoneOf(entry: { seq: number; at: number; prev_hash: string; hash: string }, tenant: string): PrunedDecision {
  return { seq: entry.seq, at: entry.at, prev_hash: entry.prev_hash, hash: entry.hash, pruned: { tenant } };
}
