import { GENESIS_HASH, receiptHash } from '../../src/runtime/receipts-hash.js';
import type { Receipt } from '../../src/runtime/types.js';

/** An independent check of a receipt chain for the store tests: null, or the first bad seq. */
export function verifyChain(receipts: Receipt[]): number | null {
  let prev = GENESIS_HASH;
  for (const [i, r] of receipts.entries()) {
    const { hash, ...rest } = r;
    if (r.seq !== i + 1 || r.prev_hash !== prev || receiptHash(rest) !== hash) return r.seq;
    prev = hash;
  }
  return null;
}
