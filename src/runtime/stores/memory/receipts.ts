import { GENESIS_HASH, receiptHash } from '../../receipts-hash.js';
import { newestReceiptOf } from '../../receipts.js';
import type { AppendOptions, Receipt, ReceiptBody, ReceiptMatch, Store } from '../../types.js';
import { HaltsChanged } from '../errors.js';
import { copy, open, type MemoryState } from './state.js';

export type ReceiptMethods = Pick<Store, 'appendReceipt' | 'listReceipts' | 'lastReceiptOf'> & Required<Pick<Store, 'deleteReceipts'>>;

/** The receipt chain of the memory store: appended in one turn, so `seq` and `prev_hash` never fork. */
export function memoryReceipts(state: MemoryState): ReceiptMethods {
  const { receipts } = state;
  return {
    async appendReceipt(body: ReceiptBody, options?: AppendOptions): Promise<Receipt> {
      open(state);
      if (options?.haltEpoch !== undefined && options.haltEpoch !== state.haltEpoch) throw new HaltsChanged(state.haltEpoch);
      const last = receipts[receipts.length - 1];
      // one new object (the copy), completed in place: hashed before it has a `hash` of its own
      const receipt = copy(body) as Receipt;
      receipt.seq = (last?.seq ?? 0) + 1; // (pruning removes the oldest: the length is not the seq)
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

    async deleteReceipts(through: number): Promise<number> {
      open(state);
      let n = 0;
      // the newest receipt always stays: the next one chains to it
      while (n < receipts.length - 1 && receipts[n]!.seq <= through) n += 1;
      receipts.splice(0, n);
      return n;
    },
  };
}
