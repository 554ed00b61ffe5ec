import { GENESIS_HASH, receiptHash } from '../../receipts-hash.js';
import { newestReceiptOf } from '../../receipts.js';
import type { AppendOptions, Receipt, ReceiptBody, ReceiptMatch, Store } from '../../types.js';
import { HaltsChanged, StoreError } from '../errors.js';
import { receiptFromRow, type ReceiptRow } from '../rows.js';
import type { PgShell } from './connection.js';

export type ReceiptMethods = Pick<Store, 'appendReceipt' | 'listReceipts' | 'lastReceiptOf' | 'receiptHead'> & Required<Pick<Store, 'deleteReceipts'>>;

/** The receipt chain of the Postgres store: appended under a lock on a single head row, so it never forks across processes. */
export function postgresReceipts({ S, query, transaction }: PgShell): ReceiptMethods {
  return {
    async appendReceipt(body: ReceiptBody, options?: AppendOptions): Promise<Receipt> {
      return transaction('appendReceipt', async (c) => {
        // the halt epoch lives on the head row: read with its lock (a set or lift raises it under the
        // same lock), so a conditional append costs no statement of its own
        const head = await c.query(`SELECT seq, hash, halt_epoch FROM ${S}.receipt_head WHERE id = 1 FOR UPDATE`);
        const last = head.rows[0] as { seq: string | number; hash: string; halt_epoch: string | number };
        if (options?.haltEpoch !== undefined && Number(last.halt_epoch) !== options.haltEpoch) throw new HaltsChanged(Number(last.halt_epoch));
        const unsigned = { ...structuredClone(body), seq: Number(last.seq) + 1, prev_hash: last.hash };
        const receipt: Receipt = { ...unsigned, hash: receiptHash(unsigned) };
        await c.query(`INSERT INTO ${S}.receipts (seq, hash, receipt) VALUES ($1, $2, $3)`, [receipt.seq, receipt.hash, JSON.stringify(receipt)]);
        await c.query(`UPDATE ${S}.receipt_head SET seq = $1, hash = $2 WHERE id = 1`, [receipt.seq, receipt.hash]);
        return receipt;
      });
    },

    async listReceipts(opts?: { afterSeq?: number; limit?: number }): Promise<Receipt[]> {
      const r = await query('listReceipts', `SELECT seq, hash, receipt FROM ${S}.receipts WHERE seq > $1 ORDER BY seq LIMIT $2`, [
        opts?.afterSeq ?? 0,
        opts?.limit ?? null,
      ]);
      return r.rows.map((row) => receiptFromRow(row as ReceiptRow));
    },

    async lastReceiptOf(match: ReceiptMatch): Promise<Receipt | null> {
      // newest first, stopping at the first match
      const field = 'callId' in match ? 'call_id' : 'effect_key';
      const value = 'callId' in match ? match.callId : match.effectKey;
      try {
        const r = await query(
          'lastReceiptOf',
          `SELECT seq, hash, receipt FROM ${S}.receipts WHERE (receipt::jsonb ->> '${field}') = $1 ORDER BY seq DESC LIMIT 1`,
          [value],
        );
        const row = r.rows[0] as ReceiptRow | undefined;
        return row ? receiptFromRow(row) : null;
      } catch (error) {
        // a receipt row that is not JSON (a damaged chain: verify names it) fails the cast; search it as listed instead
        if (!(error instanceof StoreError)) throw error;
        const rows = (await query('lastReceiptOf', `SELECT seq, hash, receipt FROM ${S}.receipts ORDER BY seq`, [])).rows as ReceiptRow[];
        return newestReceiptOf(rows.map(receiptFromRow), match);
      }
    },

    async receiptHead(): Promise<{ seq: number; hash: string }> {
      const r = await query('receiptHead', `SELECT seq, hash FROM ${S}.receipt_head WHERE id = 1`, []);
      const row = r.rows[0] as { seq: string | number; hash: string } | undefined;
      return row ? { seq: Number(row.seq), hash: row.hash } : { seq: 0, hash: GENESIS_HASH };
    },

    async deleteReceipts(through: number): Promise<number> {
      return (
        (await query('deleteReceipts', `DELETE FROM ${S}.receipts WHERE seq <= $1 AND seq < (SELECT seq FROM ${S}.receipt_head WHERE id = 1)`, [through]))
          .rowCount ?? 0
      );
    },
  };
}
