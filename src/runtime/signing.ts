import { ed25519 } from '@noble/curves/ed25519.js';
import { CtrlrunError } from './errors.js';
import { receiptHash } from './receipts-hash.js';
import { TENANT } from './tenant-names.js';
import type { AppendOptions, Receipt, ReceiptBody, ReceiptCheckpoint, Store } from './types.js';

/**
 * Signed checkpoints of the receipt chain (Ed25519, @noble/curves: pure JS, synchronous, safe in a
 * browser). The control holds the secret key, the store never does: someone who can write the
 * store can rebuild a SHA-256 chain, but cannot sign its new head. A checkpoint is itself a
 * receipt (`action: ctrlrun.checkpoint`) whose `checkpoint` field signs an earlier receipt's
 * `seq` and `hash`; verifying with the public key needs nothing else.
 *
 * A checkpoint covers exactly the receipt it names, the one its signer appended and checked
 * (`signAppended`): receipts others appended in between (a forger with the store's API, the
 * operator CLI) are signed by nobody, and `verifyReceiptChain` reports them (`foreign`).
 *
 * Keys are text: `ctrlrun-ed25519-secret:<base64url 32 bytes>` and `ctrlrun-ed25519-public:<…>`
 * (`ctrlrun-gen receipts keygen` writes them). The key id is the public key's first 16 hex digits.
 */

export const CHECKPOINT_ACTION = 'ctrlrun.checkpoint';
const SECRET_PREFIX = 'ctrlrun-ed25519-secret:';
const PUBLIC_PREFIX = 'ctrlrun-ed25519-public:';

export interface ReceiptSigner {
  keyId: string;
  checkpoint(seq: number, hash: string): ReceiptCheckpoint;
}

export function generateReceiptKey(): { secret: string; publicKey: string; keyId: string } {
  const { secretKey, publicKey } = ed25519.keygen();
  return { secret: SECRET_PREFIX + b64url(secretKey), publicKey: PUBLIC_PREFIX + b64url(publicKey), keyId: keyIdOf(publicKey) };
}

/** The signer of a secret key in keygen's text form (surrounding whitespace ignored). */
export function receiptSigner(secret: string): ReceiptSigner {
  const bytes = decodeKey(secret, SECRET_PREFIX, 'receiptKey (CTRLRUN_RECEIPT_KEY)');
  const publicKey = ed25519.getPublicKey(bytes);
  const keyId = keyIdOf(publicKey);
  return {
    keyId,
    checkpoint: (seq, hash) => ({ seq, hash, key_id: keyId, signature: b64url(ed25519.sign(message(seq, hash), bytes)) }),
  };
}

export function publicKeyOf(secret: string): string {
  return PUBLIC_PREFIX + b64url(ed25519.getPublicKey(decodeKey(secret, SECRET_PREFIX, 'secret key')));
}

/** A verifier for a public key in keygen's text form. */
export function checkpointVerifier(publicKey: string): { keyId: string; verify(cp: ReceiptCheckpoint): boolean } {
  const bytes = decodeKey(publicKey, PUBLIC_PREFIX, 'public key');
  const keyId = keyIdOf(bytes);
  return {
    keyId,
    verify(cp) {
      if (!cp || cp.key_id !== keyId || typeof cp.signature !== 'string' || !Number.isSafeInteger(cp.seq) || typeof cp.hash !== 'string') return false;
      try {
        return ed25519.verify(fromB64url(cp.signature), message(cp.seq, cp.hash), bytes);
      } catch {
        return false;
      }
    },
  };
}

/**
 * The checkpoint of the receipt this signer just appended, after checking that the store appended
 * what was sent: the same fields, and a hash that is the receipt's own. Anything else (a store
 * that returns another receipt, or alters it) is refused: a signer signs only what it wrote.
 */
export function signAppended(signer: ReceiptSigner, sent: ReceiptBody, appended: Receipt): ReceiptCheckpoint {
  const returned = appended as unknown as Record<string, unknown>;
  const names = namesOf(appended);
  const stamped = (appended as unknown as Record<symbol, unknown>)[RECEIPT_STAMPED] === true;
  // the store's clock may stand for the sender's (serve stamps a token's receipts); every other field is as sent
  const differs = Object.entries(sent).find(([k, v]) => !(k === 'at' && stamped ? Number.isSafeInteger(returned.at) : sameField(v, returned[k])));
  let hashOk = false;
  try {
    // the hash covers the stored names (`@T:` + what was sent)
    hashOk = receiptHash(names === undefined ? appended : storedForm(appended, names)) === appended.hash;
  } catch {
    hashOk = false;
  }
  if (differs !== undefined || !hashOk || !Number.isSafeInteger(appended.seq)) {
    throw new CtrlrunError(
      `ctrlrun: the store did not append the receipt this control sent (${differs ? `field ${differs[0]} differs` : 'its hash does not match'}); no checkpoint was signed.`,
    );
  }
  return signer.checkpoint(appended.seq, appended.hash);
}

/**
 * Set by httpStore on a receipt serve stored under a named tenant's names (`@T:`): it comes back in
 * the names that were sent, and its call id and effect key are stored (and hashed) as `@T:` + them.
 * A symbol: never hashed, never serialized.
 */
export const RECEIPT_NAMES = Symbol.for('ctrlrun.receiptNames');
/** Set by httpStore on a receipt whose `at` serve set from its own clock (a token never chooses the time its records carry). */
export const RECEIPT_STAMPED = Symbol.for('ctrlrun.receiptStamped');
/** serve's tenant names (`@` + TENANT + `:`, runtime/tenant-names.ts); anything else is not a prefix. */
const NAMES = new RegExp(`^@${TENANT.source.slice(1, -1)}:$`);

function namesOf(appended: Receipt): string | undefined {
  const names = (appended as unknown as Record<symbol, unknown>)[RECEIPT_NAMES];
  return typeof names === 'string' && NAMES.test(names) ? names : undefined;
}

/** A receipt returned in a tenant's names, as the store holds (and hashed) it: its call id and effect key under `names`. */
function storedForm(r: Receipt, names: string): Receipt {
  return { ...r, call_id: r.call_id === null ? null : names + r.call_id, effect_key: r.effect_key === null ? null : names + r.effect_key };
}

/** A field as sent and as stored: equal as JSON (a missing or undefined field stored as null is the same). */
function sameField(sent: unknown, stored: unknown): boolean {
  if (sent === undefined || sent === null) return stored === undefined || stored === null;
  return JSON.stringify(sent) === JSON.stringify(stored);
}

/**
 * Appends `body`, then (with a signer) the checkpoint naming exactly the receipt the store
 * appended, after `signAppended`'s check. The one way the control and the operator tools (the
 * CLI's answers and resolutions, serve's) write a receipt they vouch for; without a signer the
 * receipt is appended unsigned (`foreign` or `unsigned` under `verify --public-key`).
 */
export function appendSigned(
  store: Pick<Store, 'appendReceipt'>,
  signer: ReceiptSigner | undefined,
  body: ReceiptBody,
  base?: CheckpointBase,
  options?: AppendOptions,
): Promise<Receipt> {
  // unsigned: the store's own promise (two receipts a call wait on no extra turn); a throw is still a rejection
  if (!signer) {
    // settled's work without its closure (two receipts a call): a throw is a rejection, a thenable a promise
    try {
      const made = options === undefined ? store.appendReceipt(body) : store.appendReceipt(body, options);
      return made instanceof Promise ? made : Promise.resolve(made);
    } catch (error) {
      return Promise.reject(error);
    }
  }
  return appendAndSign(store, signer, body, base ?? checkpointBaseOf(body), options);
}

async function appendAndSign(
  store: Pick<Store, 'appendReceipt'>,
  signer: ReceiptSigner,
  body: ReceiptBody,
  base: CheckpointBase,
  options: AppendOptions | undefined,
): Promise<Receipt> {
  // the condition (a halt epoch) is the receipt's own: its checkpoint follows it whatever changed since
  const appended = await (options === undefined ? store.appendReceipt(body) : store.appendReceipt(body, options));
  await store.appendReceipt(checkpointBody(base, signAppended(signer, body, appended)));
  return appended;
}

type CheckpointBase = Omit<ReceiptBody, 'action' | 'result' | 'reason'>;

/** A checkpoint's own fields: the signed receipt's time, policy, mode and environment; no call, no people. */
function checkpointBaseOf(body: ReceiptBody): CheckpointBase {
  return receiptBase(body.at, body.policy_hash, body.mode, body.environment);
}

/** A receipt's fields before a call's own: its time, policy, mode and environment; no call, no people (a checkpoint's, or the base a receipt overwrites). */
export function receiptBase(at: number, policyHash: string, mode: ReceiptBody['mode'], environment: string | null): CheckpointBase {
  return { at, call_id: null, args_hash: null, principal: null, decision: null, approvers: [], effect_key: null, policy_hash: policyHash, mode, environment };
}

/** The receipt body of a checkpoint. */
export function checkpointBody(base: CheckpointBase, cp: ReceiptCheckpoint): ReceiptBody {
  return { ...base, action: CHECKPOINT_ACTION, result: 'checkpoint', reason: `signed ${cp.seq}`, checkpoint: cp };
}

function message(seq: number, hash: string): Uint8Array {
  return new TextEncoder().encode(`ctrlrun receipt checkpoint v1\n${seq}\n${hash}`);
}

function keyIdOf(publicKey: Uint8Array): string {
  return [...publicKey.slice(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function decodeKey(text: string, prefix: string, what: string): Uint8Array {
  const trimmed = typeof text === 'string' ? text.trim() : '';
  if (!trimmed.startsWith(prefix)) throw new CtrlrunError(`ctrlrun: the ${what} is not a ${prefix}… key (make one with \`ctrlrun-gen receipts keygen\`).`);
  let bytes: Uint8Array;
  try {
    bytes = fromB64url(trimmed.slice(prefix.length));
  } catch {
    bytes = new Uint8Array();
  }
  if (bytes.length !== 32) throw new CtrlrunError(`ctrlrun: the ${what} is malformed (expected 32 bytes after ${prefix}).`);
  return bytes;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function b64url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = [(n >> 18) & 63, (n >> 12) & 63, (n >> 6) & 63, n & 63].map((c) => B64[c]).join('');
    out += chars.slice(0, i + 2 < bytes.length ? 4 : i + 1 < bytes.length ? 3 : 2);
  }
  return out;
}

function fromB64url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) throw new Error('not base64url');
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of text) {
    value = (value << 6) | B64.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((value >> bits) & 255);
    }
  }
  return Uint8Array.from(out);
}
