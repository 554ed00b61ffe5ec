import { canonicalHash } from './canonical.js';
import type { Receipt } from './types.js';

/** prev_hash of the first receipt. */
export const GENESIS_HASH = '0'.repeat(64);

/** The hash of a receipt: SHA-256 of the canonical JSON of every field but `hash`. Stores call this. */
export function receiptHash(receipt: Omit<Receipt, 'hash'>): string {
  // the receipt itself when it has no hash yet (what a store appends); else a copy without it,
  // built key by key (a `delete` would leave the copy in V8's slow dictionary mode)
  if (!Object.prototype.propertyIsEnumerable.call(receipt, 'hash')) return canonicalHash(receipt);
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(receipt)) if (key !== 'hash') fields[key] = (receipt as Record<string, unknown>)[key];
  return canonicalHash(fields);
}
