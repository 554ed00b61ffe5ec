import type { PruneRecord, Receipt } from './types.js';

/** The action of a prune's record (a receipt): an operator pruned a range of the decision log or the receipts. */
export const PRUNE_ACTION = 'ctrlrun.prune';

const HASH = /^[0-9a-f]{64}$/;
const seq = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 1;

/** A receipt's prune record when it is a well-formed one (anything else is no record: its range stays unexplained). */
export function pruneRecordOf(r: Receipt): PruneRecord | undefined {
  if (r.action !== PRUNE_ACTION || r.result !== 'pruned') return undefined;
  const p = r.prune as PruneRecord | undefined;
  if (typeof p !== 'object' || p === null) return undefined;
  if (p.log !== 'decisions' && p.log !== 'receipts') return undefined;
  if (!(p.tenant === null || typeof p.tenant === 'string') || (p.log === 'receipts' && p.tenant !== null)) return undefined;
  if (!seq(p.from) || !seq(p.to) || p.from > p.to || !seq(p.count) || typeof p.head !== 'string' || !HASH.test(p.head)) return undefined;
  // a record comes after what it names: it cannot vouch for a range that includes or follows it
  if (p.log === 'receipts' && p.to >= r.seq) return undefined;
  return p;
}

/** The prune records of one log among a chain's receipts, oldest first. */
export function pruneRecords(receipts: readonly Receipt[], log: PruneRecord['log']): PruneRecord[] {
  const out: PruneRecord[] = [];
  for (const r of receipts) {
    const p = pruneRecordOf(r);
    if (p?.log === log) out.push(p);
  }
  return out;
}

/** Whether the whole store's prune records explain a chain kept from `firstSeq` on, whose first record links to `prevHash`. */
export function prefixPruned(records: readonly PruneRecord[], firstSeq: number, prevHash: string): boolean {
  return firstSeq === 1 || records.some((p) => p.tenant === null && p.to === firstSeq - 1 && p.head === prevHash);
}
