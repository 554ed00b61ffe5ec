import { GENESIS_HASH, receiptHash } from './receipts-hash.js';
import { prefixPruned, pruneRecords } from './prune-records.js';
import { CHECKPOINT_ACTION, checkpointVerifier } from './signing.js';
import type { Receipt, ReceiptMatch, Store } from './types.js';

/**
 * `content_altered`, `link_broken`, `missing`: the SHA-256 chain. `head_mismatch`: the store's own
 * head record (Postgres) names a newer or other receipt than the last one (the newest were
 * deleted). With a public key: `signature_invalid` (a checkpoint that does not verify, or signs a
 * hash the chain does not have at that seq: the chain was rewritten), `unsigned` (a receipt no
 * valid checkpoint covers, after the last one: checkpoints were deleted, or the writer had no key),
 * `foreign` (a receipt between signed ones that no checkpoint names: someone else appended it, a
 * forger with the store's API or an operator tool without the key), `truncated` (the
 * anchor, a checkpoint seen by an earlier verification, is gone or differs).
 */
/** The newest receipt of `receipts` (in seq order) that `match` names, or null. */
export function newestReceiptOf(receipts: readonly Receipt[], match: ReceiptMatch): Receipt | null {
  for (let i = receipts.length - 1; i >= 0; i--) {
    const r = receipts[i]!;
    if ('callId' in match ? r.call_id === match.callId : r.effect_key === match.effectKey) return r;
  }
  return null;
}

export type ReceiptBreak = 'content_altered' | 'link_broken' | 'missing' | 'head_mismatch' | 'signature_invalid' | 'unsigned' | 'foreign' | 'truncated';
export type VerifyResult =
  | {
      ok: true;
      count: number;
      signed?: { seq: number; hash: string } | null;
      signers?: SignerCount[];
      /** The oldest receipts an operator pruned (a prune record, in the chain, names them): seq 1 to this one. */
      prunedThrough?: number;
    }
  | { ok: false; seq: number; break: ReceiptBreak };

/** One of the given public keys, and how many receipts its valid checkpoints name. */
export interface SignerCount {
  keyId: string;
  receipts: number;
}

export interface VerifyOptions {
  /**
   * `ctrlrun-ed25519-public:…`, or several (the application's and the operator tools'): every
   * receipt must be named by a valid checkpoint signed by one of them.
   */
  publicKey?: string | readonly string[];
  /** A checkpoint seen before (seq and hash): the chain must still hold it (detects a truncated tail). */
  anchor?: { seq: number; hash: string };
}

/**
 * Checks a chain of receipts in seq order and names the first break (see ReceiptBreak).
 * Without a public key, deleting the newest receipts leaves no trace unless the store keeps a head.
 * A chain may start after seq 1 only where an operator pruned its oldest receipts: a prune record
 * in the chain names the range up to the first kept receipt and the hash it links to; else the
 * oldest receipts were deleted (`missing` at seq 1).
 */
export function verifyReceiptChain(receipts: readonly Receipt[], options: VerifyOptions = {}): VerifyResult {
  const first = receipts[0];
  const pruned = first !== undefined && first.seq > 1 && prefixPruned(pruneRecords(receipts, 'receipts'), first.seq, first.prev_hash);
  const start = pruned ? first.seq : 1;
  let previous: Receipt | undefined;
  for (const receipt of receipts) {
    const expectedSeq = previous ? previous.seq + 1 : start;
    if (receipt.seq !== expectedSeq) return { ok: false, seq: expectedSeq, break: 'missing' };
    if (safeHash(receipt) !== receipt.hash) return { ok: false, seq: receipt.seq, break: 'content_altered' };
    if (receipt.prev_hash !== (previous ? previous.hash : pruned ? receipt.prev_hash : GENESIS_HASH))
      return { ok: false, seq: receipt.seq, break: 'link_broken' };
    previous = receipt;
  }
  if (options.anchor && options.anchor.seq >= start) {
    // an anchor older than the kept chain was pruned, as a record in the chain says
    const held = receipts[options.anchor.seq - start];
    if (!held || held.hash !== options.anchor.hash) return { ok: false, seq: options.anchor.seq, break: 'truncated' };
  }
  const keys = typeof options.publicKey === 'string' ? [options.publicKey] : (options.publicKey ?? []);
  const prunedThrough = pruned ? { prunedThrough: start - 1 } : {};
  if (keys.length === 0) return { ok: true, count: receipts.length, ...prunedThrough };
  const signed = verifySignatures(receipts, keys.map(checkpointVerifier), start);
  return signed.ok ? { ...signed, ...prunedThrough } : signed;
}

type Verifier = ReturnType<typeof checkpointVerifier>;

/** The signature half of verifyReceiptChain, over a chain whose hashes and links already hold. */
function verifySignatures(receipts: readonly Receipt[], verifiers: readonly Verifier[], start: number): VerifyResult {
  const named = new Map<number, string>(); // the receipts a valid checkpoint names (its signer appended them) -> key id
  const vouched = new Set<number>(); // the valid checkpoints
  let unknownKey: number | undefined; // the first checkpoint by none of the given keys
  let covered = 0; // the newest seq a valid checkpoint names
  let signed: { seq: number; hash: string } | null = null;
  for (const receipt of receipts) {
    if (receipt.action !== CHECKPOINT_ACTION) continue;
    const cp = receipt.checkpoint;
    const own = verifiers.filter((v) => v.keyId === cp?.key_id);
    if (cp && own.length === 0) {
      // a key not given (another signer's, or a forger's): vouches for nothing; the checkpoint is
      // then a receipt like any other that no checkpoint names
      unknownKey ??= receipt.seq;
      continue;
    }
    const target = cp && Number.isSafeInteger(cp.seq) ? receipts[cp.seq - start] : undefined;
    // a checkpoint of a receipt pruned since (before the kept chain) is checked by its signature alone
    const gone = cp !== undefined && Number.isSafeInteger(cp.seq) && cp.seq >= 1 && cp.seq < start;
    if (!cp || !own.some((v) => v.verify(cp)) || (!gone && (!target || target.hash !== cp.hash)) || cp.seq >= receipt.seq) {
      return { ok: false, seq: receipt.seq, break: 'signature_invalid' };
    }
    named.set(cp.seq, cp.key_id);
    vouched.add(receipt.seq);
    if (cp.seq > covered) {
      covered = cp.seq;
      signed = { seq: cp.seq, hash: cp.hash };
    }
  }
  // no checkpoint verifies with any given key, yet there are checkpoints: the wrong key was given
  if (named.size === 0 && unknownKey !== undefined) return { ok: false, seq: unknownKey, break: 'signature_invalid' };
  // valid checkpoints need no checkpoint of their own; any other receipt no checkpoint names was
  // appended by someone without a given key: `foreign` between signed receipts, `unsigned` after the last
  for (const receipt of receipts) {
    if (vouched.has(receipt.seq) || named.has(receipt.seq)) continue;
    return { ok: false, seq: receipt.seq, break: receipt.seq < covered ? 'foreign' : 'unsigned' };
  }
  const signers = verifiers.map((v) => ({ keyId: v.keyId, receipts: [...named.values()].filter((k) => k === v.keyId).length }));
  return { ok: true, count: receipts.length, signed, signers: signers.filter((s, i) => signers.findIndex((t) => t.keyId === s.keyId) === i) };
}

/** Reads every receipt of a store (in pages), checks it against the store's head record if it keeps one, and verifies the chain. */
export async function verifyReceipts(store: Store, options: VerifyOptions & { pageSize?: number } = {}): Promise<VerifyResult> {
  const pageSize = options.pageSize ?? 1000;
  const all: Receipt[] = [];
  let afterSeq = 0;
  for (;;) {
    const page = await store.listReceipts({ afterSeq, limit: pageSize });
    all.push(...page);
    if (page.length < pageSize) break;
    afterSeq = page[page.length - 1]!.seq;
  }
  const result = verifyReceiptChain(all, options);
  if (!result.ok || typeof store.receiptHead !== 'function') return result;
  const head = await store.receiptHead();
  const last = all[all.length - 1];
  if (head.seq !== (last?.seq ?? 0) || head.hash !== (last?.hash ?? GENESIS_HASH)) {
    return { ok: false, seq: Math.min(head.seq, (last?.seq ?? 0) + 1), break: 'head_mismatch' };
  }
  return result;
}

/** A receipt whose stored form is unreadable (not an object, fields missing) hashes to something that cannot match. */
function safeHash(receipt: Receipt): string | null {
  try {
    return receiptHash(receipt);
  } catch {
    return null;
  }
}
