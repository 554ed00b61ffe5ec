import { GENESIS_HASH, receiptHash } from '../../receipts-hash.js';
import type { AppendOptions, Receipt, ReceiptBody, ReceiptMatch, Store } from '../../types.js';
import { HaltsChanged } from '../errors.js';
import { receiptFromRow, type ReceiptRow } from '../rows.js';
import type { SqliteShell } from './connection.js';

export type ReceiptMethods = Pick<Store, 'appendReceipt' | 'listReceipts' | 'lastReceiptOf'> & Required<Pick<Store, 'deleteReceipts'>>;

/** The receipt chain of the SQLite store: appended under the write lock, so it never forks. */
export function sqliteReceipts({ write, read }: SqliteShell): ReceiptMethods {
  return {
    async appendReceipt(body: ReceiptBody, options?: AppendOptions): Promise<Receipt> {
      return write('appendReceipt', (s) => {
        // under the write lock: a halt set or lifted since the caller read the halts appends nothing
        if (options?.haltEpoch !== undefined) {
          const epoch = (s.haltEpoch.get() as { epoch: number }).epoch;
          if (epoch !== options.haltEpoch) throw new HaltsChanged(epoch);
        }
        const last = s.lastReceipt.get() as { seq: number; hash: string } | undefined;
        const unsigned = { ...structuredClone(body), seq: (last?.seq ?? 0) + 1, prev_hash: last?.hash ?? GENESIS_HASH };
        const receipt: Receipt = { ...unsigned, hash: receiptHash(unsigned) };
        s.insertReceipt.run(receipt.seq, receipt.hash, JSON.stringify(receipt));
        return receipt;
      });
    },

    async listReceipts(opts?: { afterSeq?: number; limit?: number }): Promise<Receipt[]> {
      return read('listReceipts', (s) => {
        const rows = s.listReceipts.all(opts?.afterSeq ?? 0, opts?.limit ?? -1) as ReceiptRow[];
        return rows.map(receiptFromRow);
      });
    },

    async lastReceiptOf(match: ReceiptMatch): Promise<Receipt | null> {
      return read('lastReceiptOf', (s) => {
        const row = ('callId' in match ? s.lastReceiptOfCall.get(match.callId) : s.lastReceiptOfEffect.get(match.effectKey)) as ReceiptRow | undefined;
        return row ? receiptFromRow(row) : null;
      });
    },

    async deleteReceipts(through: number): Promise<number> {
      // the newest receipt always stays: the next one chains to it (this table keeps no head row)
      return write('deleteReceipts', (s) =>
        Number(s.db.prepare('DELETE FROM receipts WHERE seq <= ? AND seq < (SELECT max(seq) FROM receipts)').run(through).changes),
      );
    },
  };
}
