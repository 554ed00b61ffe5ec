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
import type { DecisionBody, DecisionEntry, Receipt, Store } from './types.js';

export type { DecisionBody, DecisionEntry, DecisionQuery, DecisionLogStore } from './types.js';

/** The control's setting: `false` keeps no log; else how many days an entry is kept (default 30). */
export type DecisionLogOption = false | { retentionDays?: number };

export const DEFAULT_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;

/** The retention in ms of a control's `decisionLog` option, or null when the log is off. Throws on a bad value. */
export function retentionOf(option: DecisionLogOption | undefined): number | null {
  if (option === false) return null;
  const days = option?.retentionDays ?? DEFAULT_RETENTION_DAYS;
  if (typeof days !== 'number' || !Number.isFinite(days) || days <= 0) {
    throw new CtrlrunError(`createControl: \`decisionLog.retentionDays\` must be a positive number of days, got ${String(days)}.`);
  }
  return days * DAY_MS;
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
  // one new object, completed in place: hashed before it has a `hash` of its own (a body that
  // brings one is hashed without it, as decisionHash does)
  const entry = { ...body, seq: (last?.seq ?? 0) + 1, prev_hash: last?.hash ?? GENESIS_HASH } as DecisionEntry;
  entry.hash = Object.prototype.propertyIsEnumerable.call(body, 'hash') ? decisionHash(entry) : canonicalHash(entry);
  return entry;
}

export type DecisionBreak = 'content_altered' | 'link_broken' | 'missing' | 'receipt_mismatch';
export type DecisionVerifyResult = { ok: true; count: number } | { ok: false; seq: number; break: DecisionBreak };

/**
 * Checks entries in seq order: contiguous seq from the oldest kept entry (seq 1 links to the
 * genesis hash), each hash, each link. With the receipts: each entry's receipt (`receipt_seq`) has
 * its `receipt_hash` and says the same call (action, call id, arguments hash, decision, result);
 * an entry without labelled arguments must hash to its receipt's `args_hash`.
 */
export function verifyDecisionChain(entries: readonly DecisionEntry[], receipts?: readonly Receipt[]): DecisionVerifyResult {
  let previous: DecisionEntry | undefined;
  for (const entry of entries) {
    if (previous && entry.seq !== previous.seq + 1) return { ok: false, seq: previous.seq + 1, break: 'missing' };
    if (safeHash(entry) !== entry.hash) return { ok: false, seq: entry.seq, break: 'content_altered' };
    const link = previous ? previous.hash : entry.seq === 1 ? GENESIS_HASH : entry.prev_hash;
    if (entry.prev_hash !== link) return { ok: false, seq: entry.seq, break: 'link_broken' };
    if (receipts && !boundTo(entry, receipts)) return { ok: false, seq: entry.seq, break: 'receipt_mismatch' };
    previous = entry;
  }
  return { ok: true, count: entries.length };
}

function boundTo(entry: DecisionEntry, receipts: readonly Receipt[]): boolean {
  const r = receipts[entry.receipt_seq - 1];
  if (!r || r.seq !== entry.receipt_seq || r.hash !== entry.receipt_hash) return false;
  if (r.action !== entry.action || r.call_id !== entry.call_id || r.args_hash !== entry.args_hash || r.decision !== entry.decision || r.result !== entry.result)
    return false;
  // `args` is canonical JSON itself: without labelled arguments it hashes to the receipt's args_hash
  return entry.hashed.length > 0 || sha256Hex(entry.args) === entry.args_hash;
}

function safeHash(entry: DecisionEntry): string | null {
  try {
    return decisionHash(entry);
  } catch {
    return null;
  }
}

/** Reads a store's whole log and its receipts (in pages) and verifies the log's chain and its binding to the receipts. */
export async function verifyDecisions(store: Store, pageSize = 1000): Promise<DecisionVerifyResult> {
  if (typeof store.listDecisions !== 'function') return { ok: true, count: 0 };
  const entries = await pages((afterSeq) => store.listDecisions!({ afterSeq, limit: pageSize }), pageSize);
  const receipts = await pages((afterSeq) => store.listReceipts({ afterSeq, limit: pageSize }), pageSize);
  return verifyDecisionChain(entries, receipts);
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
