import { canonicalHash } from './canonical.js';
import type { Receipt } from './types.js';

/** prev_hash of the first receipt. */
export const GENESIS_HASH = '0'.repeat(64);

/** The hash of a receipt: SHA-256 of the canonical JSON of every field but `hash`. Stores call this. */
export function receiptHash(receipt: Omit<Receipt, 'hash'>): string {
  const { ...fields } = receipt as Omit<Receipt, 'hash'> & { hash?: string };
  delete fields.hash;
  return canonicalHash(fields);
}
