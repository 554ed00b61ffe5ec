// @noble/hashes: an audited, dependency-free, synchronous SHA-256 that runs unchanged in Node,
// browsers and edge runtimes (node:crypto does not bundle for browsers; Web Crypto is async only);
// on Node, node:crypto's when the process hands it over (see platformSha256Hex).
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';

/**
 * Canonical JSON, CTRLRun's (Python's `json.dumps(sort_keys=True, separators=(",", ":"),
 * ensure_ascii=False)`): object keys sorted by code point, no whitespace, arrays in order, text
 * unescaped but for `"`, `\\` and control characters. Integers of any size (a `bigint` is written
 * as its digits). `undefined` object members are dropped (as JSON.stringify does). Non-finite
 * numbers, functions and symbols are refused: a canonical form must be unambiguous.
 */
export function canonicalJson(value: unknown): string {
  return write(value);
}

function write(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('canonicalJson: non-finite number');
      // a finite number's JSON text is its ToString (-0 included: "0"), and String() is far cheaper
      return String(value);
    case 'bigint':
      return value.toString();
    case 'object':
      return Array.isArray(value) ? writeArray(value) : writeObject(value as Record<string, unknown>);
    default:
      throw new TypeError(`canonicalJson: cannot encode ${typeof value}`);
  }
}

// One string built in place (no intermediate arrays): receipts are hashed twice per call.
function writeArray(value: unknown[]): string {
  let out = '[';
  for (let i = 0; i < value.length; i++) {
    if (i > 0) out += ',';
    // a hole is written as nothing, as `map` then `join` wrote it
    if (!(i in value)) continue;
    const v = value[i];
    out += v === undefined ? 'null' : write(v);
  }
  return `${out}]`;
}

function writeObject(value: Record<string, unknown>): string {
  const keys = Object.keys(value);
  const { sorted, order, names, later } = layoutOf(keys);
  // the values in one native pass (in the keys' order), read in canonical order through `order`:
  // not one lookup by name a member (a megamorphic keyed load: records come in many shapes). Only
  // an accessor that deletes a member as it is read makes the two lists differ: then by name.
  const values = Object.values(value);
  const byName = values.length !== keys.length;
  let out = '{';
  for (let i = 0; i < sorted.length; i++) {
    const v = byName ? value[sorted[i]!] : values[order[i]!];
    if (v === undefined) continue;
    // the separator and a string's opening quote are part of the name written, and a string that
    // needs no escape is appended as it is: two concatenations a member fewer (most are strings)
    const plain = typeof v === 'string' && !NEEDS_ESCAPE.test(v);
    out += (out.length > 1 ? later : names)[plain ? i + sorted.length : i];
    if (plain) {
      out += v;
      out += '"';
    } else out += write(v);
  }
  return `${out}}`;
}

/** An object's keys in canonical order, and each written as `"key":`. */
interface Layout {
  keys: readonly string[];
  sorted: readonly string[];
  /** Where each of `sorted` is in `keys`. */
  order: readonly number[];
  /** Each name written first (`"key":`), then each with a string's opening quote (`"key":"`). */
  names: readonly string[];
  /** As `names`, each after a comma (`,"key":`, then `,"key":"`). */
  later: readonly string[];
}

// The layouts of the last few key lists seen: the records hashed per call (receipts, decision log
// entries, a tool's arguments) come in a few shapes whose keys Object.keys gives in one order, so
// the sort and the quoting of their keys is done once per shape, not per object. Bounded; a miss
// costs a scan of a few short arrays.
const LAYOUTS: Layout[] = [];
const LAYOUT_CACHE = 16;
const LAYOUT_KEYS = 32;

function layoutOf(keys: string[]): Layout {
  for (const layout of LAYOUTS) if (sameKeys(layout.keys, keys)) return layout;
  const sorted = [...keys];
  // without a surrogate in any key, UTF-16 order (the native sort) is code point order
  if (sorted.some(hasSurrogate)) sorted.sort(byCodePoint);
  else sorted.sort();
  const named = sorted.map((k) => `${quote(k)}:`);
  const names = [...named, ...named.map((n) => `${n}"`)];
  // a key's place by a map, not `indexOf`: a wide object (over LAYOUT_KEYS, never cached) is laid out on each write
  const at = new Map(keys.map((k, i) => [k, i]));
  const layout = { keys, sorted, order: sorted.map((k) => at.get(k)!), names, later: names.map((n) => `,${n}`) };
  if (keys.length <= LAYOUT_KEYS) {
    if (LAYOUTS.length >= LAYOUT_CACHE) LAYOUTS.pop();
    LAYOUTS.unshift(layout);
  }
  return layout;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// What JSON.stringify escapes in a string ("\\, control characters, lone surrogates); any
// surrogate sends the text there, so only text it would copy unchanged is quoted here.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string's JSON text, as JSON.stringify writes it; without anything to escape, just quoted. */
function quote(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

function hasSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdfff) return true;
  }
  return false;
}

/**
 * SHA-256 of UTF-8 text, hex. Node's own (OpenSSL) when the platform hands it over without an
 * import (`process.getBuiltinModule`, Node 20.16 on): several times faster than pure JS, and
 * nothing for a bundler to follow. Elsewhere (browsers, edge runtimes) @noble/hashes. Same digest.
 * Looked up on the first hash, not at import: OpenSSL's set-up costs milliseconds that a process
 * which never hashes (a plain `check`) should not pay.
 */
export function sha256Hex(text: string): string {
  if (platformSha256Hex === undefined) platformSha256Hex = findPlatformSha256();
  return platformSha256Hex ? platformSha256Hex(text) : bytesToHex(sha256(utf8ToBytes(text)));
}

// a capability found once per process (null: none), never a value that changes
let platformSha256Hex: ((text: string) => string) | null | undefined;

type PlatformCrypto = {
  hash?: (alg: string, data: string, encoding: string) => string;
  createHash?: (alg: string) => { update(t: string, enc: string): { digest(enc: string): string } };
};

function findPlatformSha256(): ((text: string) => string) | null {
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const crypto = proc?.getBuiltinModule?.('node:crypto') as PlatformCrypto | undefined;
    // crypto.hash (Node 20.12 / 21.7 on): one call, no Hash object; several times faster for the
    // short texts hashed per call (a receipt, a call's arguments). Else createHash.
    const { hash, createHash } = crypto ?? {};
    const candidates = [
      typeof hash === 'function' ? (text: string) => hash('sha256', text, 'hex') : null,
      typeof createHash === 'function' ? (text: string) => createHash('sha256').update(text, 'utf8').digest('hex') : null,
    ];
    // trusted only if it answers the known digests of "abc" and of a non-ASCII text (UTF-8 in)
    for (const hex of candidates) if (hex && SHA256_PROBES.every(([text, digest]) => hex(text) === digest)) return hex;
    return null;
  } catch {
    return null;
  }
}

/**
 * Texts and their SHA-256 (hex) that the platform's hash must answer before it is trusted: "abc"
 * (FIPS 180-2's example) and a non-ASCII text (UTF-8 in). Constants, not @noble/hashes' answer
 * computed on each start: that compiled and ran its SHA-256 in every process, ~2 ms of a check
 * (issue 40, item 8); a test holds them to @noble/hashes' digests.
 */
export const SHA256_PROBES: ReadonlyArray<readonly [string, string]> = [
  ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  ['\u00e9\u{1F600}', '1184d1f608158eea09d297565575892231550c403aaa913008d867a97cfd5c76'],
];

/** SHA-256 (hex) of the canonical JSON of a value. */
export function canonicalHash(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

/** Python's string order: by code point (JavaScript's default sort is by UTF-16 code unit). */
export function byCodePoint(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    // At the first differing unit, surrogates (0xD800-0xDFFF: code points above 0xFFFF) sort after 0xE000-0xFFFF.
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

function codePointRank(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800) return unit + 0x2000;
  return unit;
}
