import { GENESIS_HASH, receiptHash } from './receipts-hash.js';
import type { Receipt, Store } from './types.js';

export type ReceiptBreak = 'content_altered' | 'link_broken' | 'missing';
export type VerifyResult = { ok: true; count: number } | { ok: false; seq: number; break: ReceiptBreak };

/**
 * Checks a chain of receipts in seq order and names the first break: a gap in `seq` (`missing`,
 * at the first absent seq), a receipt whose hash does not match its content (`content_altered`),
 * a receipt whose `prev_hash` is not the previous receipt's hash (`link_broken`).
 * Deleting the newest receipts leaves no trace without an outside anchor (keep the last hash).
 */
export function verifyReceiptChain(receipts: readonly Receipt[]): VerifyResult {
  let previous: Receipt | undefined;
  for (const receipt of receipts) {
    const expectedSeq = (previous?.seq ?? 0) + 1;
    if (receipt.seq !== expectedSeq) return { ok: false, seq: expectedSeq, break: 'missing' };
    if (receiptHash(receipt) !== receipt.hash) return { ok: false, seq: receipt.seq, break: 'content_altered' };
    if (receipt.prev_hash !== (previous ? previous.hash : GENESIS_HASH)) return { ok: false, seq: receipt.seq, break: 'link_broken' };
    previous = receipt;
  }
  return { ok: true, count: receipts.length };
}

/** Reads every receipt of a store (in pages) and verifies the chain. */
export async function verifyReceipts(store: Store, options: { pageSize?: number } = {}): Promise<VerifyResult> {
  const pageSize = options.pageSize ?? 1000;
  const all: Receipt[] = [];
  let afterSeq = 0;
  for (;;) {
    const page = await store.listReceipts({ afterSeq, limit: pageSize });
    all.push(...page);
    if (page.length < pageSize) break;
    afterSeq = page[page.length - 1]!.seq;
  }
  return verifyReceiptChain(all);
}
