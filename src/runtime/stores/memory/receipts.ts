import { GENESIS_HASH, receiptHash } from '../../receipts-hash.js';
import { newestReceiptOf } from '../../receipts.js';
import type { Receipt, ReceiptBody, ReceiptMatch, Store } from '../../types.js';
import { copy, open, type MemoryState } from './state.js';

export type ReceiptMethods = Pick<Store, 'appendReceipt' | 'listReceipts' | 'lastReceiptOf'>;

/** The receipt chain of the memory store: appended in one turn, so `seq` and `prev_hash` never fork. */
export function memoryReceipts(state: MemoryState): ReceiptMethods {
  const { receipts } = state;
  return {
    async appendReceipt(body: ReceiptBody): Promise<Receipt> {
      open(state);
      const last = receipts[receipts.length - 1];
      // one new object (the copy), completed in place: hashed before it has a `hash` of its own
      const receipt = copy(body) as Receipt;
      receipt.seq = receipts.length + 1;
      receipt.prev_hash = last ? last.hash : GENESIS_HASH;
      receipt.hash = receiptHash(receipt);
      receipts.push(receipt);
      return copy(receipt);
    },

    async listReceipts(options?: { afterSeq?: number; limit?: number }): Promise<Receipt[]> {
      open(state);
      const after = options?.afterSeq ?? 0;
      const selected = receipts.filter((r) => r.seq > after);
      return (options?.limit === undefined ? selected : selected.slice(0, options.limit)).map(copy);
    },

    async lastReceiptOf(match: ReceiptMatch): Promise<Receipt | null> {
      open(state);
      const found = newestReceiptOf(receipts, match);
      return found && copy(found);
    },
  };
}
