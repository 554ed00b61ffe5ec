import { PRUNE_ACTION } from './runtime/prune-records.js';
import { appendSigned, type ReceiptSigner } from './runtime/signing.js';
import { ownsRecord } from './runtime/tenant-names.js';
import type { PrunedDecision, PruneRecord, Receipt, ReceiptBody, Store } from './runtime/types.js';

/**
 * Pruning the decision log and the receipts: an operator's act (`ctrlrun-gen receipts prune`, serve's
 * prune API and `--retention-days`), never the application's, on the pruner's clock, and recorded.
 * The record (a receipt, `action: ctrlrun.prune`, signed like every receipt its writer appends)
 * names the log, the scope, the seq range and the hash of its last record (its head), and is
 * appended before anything is removed: verification then tells a pruned range from a deleted one
 * (no record names it) and from a cut tail (the store's head row names a newer record).
 *
 * Scopes: the whole store (no tenant) removes the oldest records of the log, up to the first one
 * decided at or after the cutoff; a tenant's prune (`@T:` names, runtime/tenant-names.ts) erases
 * that tenant's decision entries decided before the cutoff, wherever they are, leaving tombstones
 * (seq, time, hashes) so the one chain the tenants share still links. Receipts are the store's one
 * evidence chain: only the whole store's oldest are pruned.
 */
export const DAY_MS = 86_400_000;

export interface PruneRequest {
  log: 'decisions' | 'receipts';
  /** A tenant's decision entries; undefined: the whole store's oldest records. */
  tenant?: string;
  /** Records decided before this instant (the pruner's clock minus the retention). */
  before: number;
  /** Who prunes (the operator's authenticated or given name). */
  by: string;
  /** The pruner's clock now (the record's time). */
  now: number;
  signer?: ReceiptSigner;
}

export type PruneOutcome = { outcome: 'pruned'; record: PruneRecord; receipt: Receipt } | { outcome: 'nothing' };

export class PruneUnsupported extends Error {}

export async function pruneLog(store: Store, r: PruneRequest): Promise<PruneOutcome> {
  if (r.log === 'receipts' && r.tenant !== undefined)
    throw new PruneUnsupported(
      "receipts are the store's one evidence chain, shared by every tenant: only an operator without a tenant prunes them (the whole store's oldest)",
    );
  const range = r.log === 'receipts' ? await receiptsRange(store, r.before) : await decisionsRange(store, r.before, r.tenant);
  if (range === null) return { outcome: 'nothing' };
  const record: PruneRecord = {
    log: r.log,
    tenant: r.tenant ?? null,
    from: range.seqs[0]!,
    to: range.seqs[range.seqs.length - 1]!,
    head: range.head,
    count: range.seqs.length,
    before: r.before,
  };
  // recorded first: a prune that fails half-way leaves a record and the records it names, never a gap without one
  const receipt = await appendSigned(store, r.signer, pruneReceipt(record, r.by, r.now));
  if (r.log === 'receipts') await store.deleteReceipts!(record.to);
  else if (record.tenant === null) await store.deleteDecisions!(record.to);
  else await store.tombstoneDecisions!(range.seqs, record.tenant);
  return { outcome: 'pruned', record, receipt };
}

/** The record of a prune, as a receipt: who pruned, when, and the range (no call, no arguments). */
export function pruneReceipt(record: PruneRecord, by: string, now: number): ReceiptBody {
  const scope = record.tenant === null ? 'the whole store' : `tenant ${record.tenant}`;
  return {
    at: now,
    action: PRUNE_ACTION,
    call_id: null,
    args_hash: null,
    principal: null,
    decision: null,
    reason: `pruned ${record.count} ${record.log === 'receipts' ? 'receipts' : 'decision log entries'} of ${scope}, seq ${record.from}-${record.to}`,
    approvers: [by],
    effect_key: null,
    result: 'pruned',
    policy_hash: '',
    mode: 'enforce',
    environment: null,
    prune: record,
  };
}

/** What a store needs to be pruned; a store without it (httpStore, a third-party store) cannot be. */
export function canPrune(store: Store, log: 'decisions' | 'receipts'): boolean {
  return log === 'receipts'
    ? typeof store.deleteReceipts === 'function'
    : ['listDecisions', 'listPrunedDecisions', 'deleteDecisions', 'tombstoneDecisions'].every(
        (m) => typeof (store as unknown as Record<string, unknown>)[m] === 'function',
      );
}

type Range = { seqs: number[]; head: string } | null;

const PAGE = 1000;

/** The oldest receipts decided before `before` (a prefix of the chain), never the newest one. */
async function receiptsRange(store: Store, before: number): Promise<Range> {
  const seqs: number[] = [];
  const hashes: string[] = [];
  const range = (): Range => (seqs.length ? { seqs, head: hashes[hashes.length - 1]! } : null);
  for (let afterSeq = 0; ; ) {
    const page = await store.listReceipts({ afterSeq, limit: PAGE });
    for (const r of page) {
      if (!(r.at < before)) return range();
      seqs.push(r.seq);
      hashes.push(r.hash);
    }
    if (page.length < PAGE) break;
    afterSeq = page[page.length - 1]!.seq;
  }
  // every receipt is older: the newest stays (the next one chains to it)
  seqs.pop();
  hashes.pop();
  return range();
}

/**
 * The decision log's records to prune: the whole store's oldest prefix decided before `before`
 * (tombstones included: they go too), or every entry of `tenant` decided before it.
 */
async function decisionsRange(store: Store, before: number, tenant: string | undefined): Promise<Range> {
  if (!canPrune(store, 'decisions')) throw new PruneUnsupported('this store keeps no decision log that can be pruned');
  const stones = tenant === undefined ? await store.listPrunedDecisions!() : [];
  const seqs: number[] = [];
  let head = '';
  for (let afterSeq = 0; ; ) {
    const page = await store.listDecisions!({ afterSeq, limit: PAGE });
    const last = page.length < PAGE ? Number.POSITIVE_INFINITY : page[page.length - 1]!.seq;
    // the tombstones among this page's seqs, in order with it (the whole store's prune only)
    const merged: Array<{ seq: number; at: number; hash: string; call_id?: string | null; effect_key?: string | null }> = [
      ...page,
      ...takeUpTo(stones, last),
    ].sort((a, b) => a.seq - b.seq);
    for (const e of merged) {
      const old = e.at < before;
      if (tenant === undefined) {
        if (!old) return seqs.length ? { seqs, head } : null;
      } else if (!old || !('call_id' in e) || !ownsRecord(tenant, e as { call_id: string | null; effect_key: string | null })) continue;
      seqs.push(e.seq);
      head = e.hash;
    }
    if (page.length < PAGE) break;
    afterSeq = page[page.length - 1]!.seq;
  }
  return seqs.length ? { seqs, head } : null;
}

/** Removes and returns the leading tombstones with seq <= `last`. */
function takeUpTo(stones: PrunedDecision[], last: number): PrunedDecision[] {
  let n = 0;
  while (n < stones.length && stones[n]!.seq <= last) n += 1;
  return stones.splice(0, n);
}
