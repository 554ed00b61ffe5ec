// @noble/hashes: an audited, dependency-free, synchronous SHA-256 that runs unchanged in Node,
// browsers and edge runtimes (node:crypto does not bundle for browsers; Web Crypto is async only).
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
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('canonicalJson: non-finite number');
      return JSON.stringify(value);
    case 'bigint':
      return value.toString();
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : write(v))).join(',')}]`;
      const entries = Object.keys(value as object)
        .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
        .sort(byCodePoint)
        .map((k) => `${JSON.stringify(k)}:${write((value as Record<string, unknown>)[k])}`);
      return `{${entries.join(',')}}`;
    }
    default:
      throw new TypeError(`canonicalJson: cannot encode ${typeof value}`);
  }
}

export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

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
