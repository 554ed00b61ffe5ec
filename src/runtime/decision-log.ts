/**
 * The decision log (issue 25 item 2): the inputs of each decided call, beside the receipts, so a
 * candidate policy can re-decide them (`ctrlrun-gen replay --store`). Receipts hold only the
 * arguments' hash; an entry holds the arguments too, but an argument the policy labels (`data:`) is
 * kept only as its keyed hash (HMAC-SHA-256 under the store's secret decision key, so a dictionary
 * of likely values cannot be hashed to match without the key). Entries are hash-chained as receipts are (seq, prev_hash, hash over the
 * canonical JSON of every other field) and bound to the receipt written with them (its seq and
 * hash). Pure: the stores (stores/decision-log-*.ts) keep the chain, the core (core/receipt.ts) writes.
 */
import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import { canonicalHash, canonicalJson, sha256Hex } from './canonical.js';
import { CtrlrunError } from './errors.js';
import { GENESIS_HASH } from './receipts-hash.js';
import { prefixPruned, pruneRecords } from './prune-records.js';
import type { DecisionBody, DecisionEntry, PrunedDecision, PruneRecord, Receipt, Store } from './types.js';

export type { DecisionBody, DecisionEntry, DecisionQuery, DecisionLogStore } from './types.js';

/**
 * The control's setting: `false` keeps no log; `true` or `{}` (the default) keeps one. How long an
 * entry is kept is not the application's to say: pruning is an operator's act (`ctrlrun-gen
 * receipts prune`, `serve --retention-days`), on the operator's clock, and leaves a record.
 */
export type DecisionLogOption = boolean | Record<string, never>;

/** Whether a control's `decisionLog` option keeps a log. Throws on `retentionDays` (moved to the operator) and anything unknown. */
export function keepsDecisionLog(option: unknown): boolean {
  if (option === undefined || option === true) return true;
  if (option === false) return false;
  if (typeof option === 'object' && option !== null && !Array.isArray(option)) {
    const keys = Object.keys(option);
    if (keys.length === 0) return true;
    if (keys.includes('retentionDays'))
      throw new CtrlrunError(
        "createControl: `decisionLog.retentionDays` is not an application setting any more: pruning the decision log is an operator's act, recorded and on the operator's clock. Remove it, and prune with `ctrlrun-gen receipts prune --older-than-days N` (or `ctrlrun-gen serve --retention-days N`).",
      );
    throw new CtrlrunError(`createControl: \`decisionLog\` has no option ${JSON.stringify(keys[0])} (it is true, false or {}).`);
  }
  throw new CtrlrunError(`createControl: \`decisionLog\` is true, false or {}, got ${String(option)}.`);
}

/** What a labelled value's keyed hash starts with. */
export const KEYED_HASH_PREFIX = 'hmac-sha256:';

/** The keyed hash a labelled value is kept as: HMAC-SHA-256 of its canonical JSON under the store's decision key (hex). */
export function sensitiveHash(key: string, value: unknown): string {
  return `${KEYED_HASH_PREFIX}${bytesToHex(hmac(sha256, utf8ToBytes(key), utf8ToBytes(canonicalJson(value))))}`;
}

/** A new decision key: 32 random bytes, hex (a store makes one once and keeps it). */
export function newDecisionKey(): string {
  return bytesToHex(globalThis.crypto.getRandomValues(new Uint8Array(32)));
}

// a store without its own key (a third-party store): one random key per store object, in this process
const processKeys = new WeakMap<Store, string>();

/**
 * The key a store's labelled arguments are hashed under: its own decision key (`decisionKey()`,
 * made once and kept in the store, which remembers it), or for a store without one a random key of
 * this process, the same for that store object every time (its hashes compare only within the process).
 */
export function storeDecisionKey(store: Store): Promise<string> {
  if (typeof store.decisionKey === 'function') return store.decisionKey();
  let key = processKeys.get(store);
  if (key === undefined) {
    key = newDecisionKey();
    processKeys.set(store, key);
  }
  return Promise.resolve(key);
}

/** The decision key a tenant of a shared store is given (serve): derived from the store's, so tenants' hashes never compare. */
export function tenantDecisionKey(storeKey: string, tenant: string): string {
  return bytesToHex(hmac(sha256, utf8ToBytes(storeKey), utf8ToBytes(`ctrlrun.decision-key/tenant:${tenant}`)));
}

/** The canonical JSON of the arguments with each labelled argument present written as its keyed hash (under `key`); and the names hashed. */
export function redactArguments(args: unknown, sensitive: readonly string[], key: string, argsJson?: string): { args: string; hashed: string[] } {
  // `argsJson`: the canonical JSON of `args` when the caller already wrote it (to hash them)
  if (sensitive.length === 0 || typeof args !== 'object' || args === null || Array.isArray(args)) return { args: argsJson ?? canonicalJson(args), hashed: [] };
  const source = args as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const hashed: string[] = [];
  for (const name of Object.keys(source)) {
    if (sensitive.includes(name) && source[name] !== undefined) {
      out[name] = sensitiveHash(key, source[name]);
      hashed.push(name);
    } else out[name] = source[name];
  }
  return { args: canonicalJson(out), hashed: hashed.sort() };
}

/** The hash of an entry: SHA-256 of the canonical JSON of every field but `hash` (as receiptHash). */
export function decisionHash(entry: Omit<DecisionEntry, 'hash'>): string {
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(entry)) if (key !== 'hash') fields[key] = (entry as unknown as Record<string, unknown>)[key];
  return canonicalHash(fields);
}

/** The next entry of a chain whose last entry is `last` (seq and hash), as every store appends it. */
export function chainedEntry(body: DecisionBody, last: { seq: number; hash: string } | undefined): DecisionEntry {
  // one new object (a shallow copy), completed in place
  return chainInPlace({ ...body }, last);
}

/**
 * `chainedEntry` of a body that is already the store's own new object (a copy no one else holds):
 * its seq, prev_hash and hash set on it, no copy made. Hashed before it has a `hash` of its own (a
 * body that brings one is hashed without it, as decisionHash does); the fields it brings keep
 * their places, as a spread would keep them.
 */
export function chainInPlace(own: DecisionBody, last: { seq: number; hash: string } | undefined): DecisionEntry {
  const brings = Object.prototype.propertyIsEnumerable.call(own, 'hash');
  const entry = own as DecisionEntry;
  entry.seq = (last?.seq ?? 0) + 1;
  entry.prev_hash = last?.hash ?? GENESIS_HASH;
  entry.hash = brings ? decisionHash(entry) : canonicalHash(entry);
  return entry;
}

export type DecisionBreak = 'content_altered' | 'link_broken' | 'missing' | 'receipt_mismatch' | 'deleted' | 'pruned_unrecorded' | 'truncated';
export type DecisionVerifyResult =
  | {
      ok: true;
      count: number;
      /** What operators pruned, as the prune records in the receipts name it (whole-store ranges and tenants' entries). */
      pruned?: { records: number; entries: number };
    }
  | { ok: false; seq: number; break: DecisionBreak };

/** What verification knows beside the entries: the receipts (their prune records), and the store's head row. */
export interface DecisionVerifyContext {
  /** The receipts in seq order (the entries' binding; the prune records). */
  receipts?: readonly Receipt[];
  /** The tenants' pruned entries (tombstones), in seq order. */
  pruned?: readonly PrunedDecision[];
  /** The store's own record of its newest entry. */
  head?: { seq: number; hash: string };
}

type Link = DecisionEntry | PrunedDecision;

/**
 * Checks entries in seq order and names the first break: contiguous seq (`missing`: cut from the
 * middle), each hash, each link, each entry's binding to its receipt. The log may start after seq 1
 * only where a whole-store prune record names the range up to the first kept entry and the hash it
 * links to (else `deleted`); a tenant's pruned entry (a tombstone: its links, never its inputs)
 * only where a prune record of that tenant names its seq (else `pruned_unrecorded`); and the newest
 * entry must be the store's head row (else `truncated`: the newest were cut). The binding: each
 * entry's receipt (`receipt_seq`) has its `receipt_hash` and says the same call (action, call id,
 * arguments hash, decision, result), and an entry without labelled arguments hashes to its
 * receipt's `args_hash`; an entry whose receipt was pruned is checked as a link only.
 */
export function verifyDecisionChain(entries: readonly DecisionEntry[], context: readonly Receipt[] | DecisionVerifyContext = {}): DecisionVerifyResult {
  const c: DecisionVerifyContext = Array.isArray(context) ? { receipts: context as readonly Receipt[] } : (context as DecisionVerifyContext);
  const records = c.receipts ? pruneRecords(c.receipts, 'decisions') : [];
  const chain = mergeBySeq(entries, c.pruned ?? []);
  // a tombstone is what the store lists as one, never an entry that carries a `pruned` field
  const stones = new Set<Link>(c.pruned ?? []);
  const isStone = (e: Link): e is PrunedDecision => stones.has(e);
  const receiptsFrom = c.receipts?.[0]?.seq ?? 1;
  const first = chain[0];
  if (first && first.seq > 1 && !prefixPruned(records, first.seq, first.prev_hash)) return { ok: false, seq: first.seq - 1, break: 'deleted' };
  let previous: Link | undefined;
  for (const entry of chain) {
    if (previous && entry.seq !== previous.seq + 1) return { ok: false, seq: previous.seq + 1, break: 'missing' };
    const link = previous ? previous.hash : entry.seq === 1 ? GENESIS_HASH : entry.prev_hash;
    if (isStone(entry)) {
      if (!records.some((p) => p.tenant === entry.pruned.tenant && p.from <= entry.seq && entry.seq <= p.to))
        return { ok: false, seq: entry.seq, break: 'pruned_unrecorded' };
    } else {
      if (safeHash(entry) !== entry.hash) return { ok: false, seq: entry.seq, break: 'content_altered' };
      if (c.receipts && entry.receipt_seq >= receiptsFrom && !boundTo(entry, c.receipts)) return { ok: false, seq: entry.seq, break: 'receipt_mismatch' };
    }
    if (entry.prev_hash !== link) return { ok: false, seq: entry.seq, break: 'link_broken' };
    previous = entry;
  }
  const headBreak = c.head ? truncatedAt(chain, c.head, records) : undefined;
  if (headBreak !== undefined) return { ok: false, seq: headBreak, break: 'truncated' };
  const pruned = records.length ? { pruned: { records: records.length, entries: records.reduce((n, p) => n + p.count, 0) } } : {};
  return { ok: true, count: entries.length, ...pruned };
}

/** Where the chain falls short of the store's head row (its newest entries cut), or undefined when it ends there. */
function truncatedAt(chain: readonly Link[], head: { seq: number; hash: string }, records: readonly PruneRecord[]): number | undefined {
  const last = chain[chain.length - 1];
  if (last) return last.seq === head.seq && last.hash === head.hash ? undefined : Math.min(last.seq + 1, head.seq);
  // an empty log: nothing ever written, or everything pruned (a record names the head)
  if (head.seq === 0) return undefined;
  return records.some((p) => p.tenant === null && p.to === head.seq && p.head === head.hash) ? undefined : 1;
}

function mergeBySeq(entries: readonly DecisionEntry[], stones: readonly PrunedDecision[]): Link[] {
  if (stones.length === 0) return entries as Link[];
  return [...entries, ...stones].sort((a, b) => a.seq - b.seq);
}

function boundTo(entry: DecisionEntry, receipts: readonly Receipt[]): boolean {
  const r = receipts[entry.receipt_seq - (receipts[0]?.seq ?? 1)];
  return r !== undefined && entryBindsReceipt(entry, r);
}

/**
 * Whether an entry is bound to this receipt: its seq and hash, the same call (action, call id,
 * arguments hash, decision, result), and, without labelled arguments, arguments that hash to the
 * receipt's `args_hash`. (serve asks it of a token's entry before appending it.)
 */
export function entryBindsReceipt(entry: DecisionBody, r: Receipt): boolean {
  if (r.seq !== entry.receipt_seq || r.hash !== entry.receipt_hash) return false;
  if (r.action !== entry.action || r.call_id !== entry.call_id || r.args_hash !== entry.args_hash || r.decision !== entry.decision || r.result !== entry.result)
    return false;
  // `args` is canonical JSON itself: without labelled arguments it hashes to the receipt's args_hash
  if (!Array.isArray(entry.hashed) || typeof entry.args !== 'string') return false;
  try {
    return entry.hashed.length > 0 || sha256Hex(entry.args) === entry.args_hash;
  } catch {
    return false;
  }
}

function safeHash(entry: DecisionEntry): string | null {
  try {
    return decisionHash(entry);
  } catch {
    return null;
  }
}

/**
 * Reads a store's whole log (its tenants' pruned entries too), its receipts (in pages) and its head
 * row, and verifies the log's chain, its prunes and its binding to the receipts.
 */
export async function verifyDecisions(store: Store, pageSize = 1000): Promise<DecisionVerifyResult> {
  if (typeof store.listDecisions !== 'function') return { ok: true, count: 0 };
  const entries = await pages((afterSeq) => store.listDecisions!({ afterSeq, limit: pageSize }), pageSize);
  const receipts = await pages((afterSeq) => store.listReceipts({ afterSeq, limit: pageSize }), pageSize);
  const pruned = typeof store.listPrunedDecisions === 'function' ? await store.listPrunedDecisions() : [];
  const head = typeof store.decisionHead === 'function' ? await store.decisionHead() : undefined;
  return verifyDecisionChain(entries, { receipts, pruned, ...(head ? { head } : {}) });
}

async function pages<T extends { seq: number }>(page: (afterSeq: number) => Promise<T[]>, pageSize: number): Promise<T[]> {
  const all: T[] = [];
  for (let afterSeq = 0; ; ) {
    const got = await page(afterSeq);
    all.push(...got);
    if (got.length < pageSize) return all;
    afterSeq = got[got.length - 1]!.seq;
  }
}
