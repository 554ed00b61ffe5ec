import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import { describe, expect, it } from 'vitest';
import { byCodePoint, canonicalJson, SHA256_PROBES, sha256Hex } from '../../src/runtime/canonical.js';

describe('canonical JSON and its hash, on the fast paths', () => {
  it("SHA-256 is the same digest whichever implementation the platform gives (Node's here, @noble/hashes elsewhere)", () => {
    for (const text of ['', 'abc', 'ä€😀', '\n"\\', 'x'.repeat(1000), '{"a":1}']) {
      expect(sha256Hex(text)).toBe(bytesToHex(sha256(utf8ToBytes(text))));
    }
  });

  it("the platform's hash is trusted against digests that are @noble/hashes' (a non-ASCII text among them)", () => {
    for (const [text, digest] of SHA256_PROBES) expect(digest).toBe(bytesToHex(sha256(utf8ToBytes(text))));
    expect(SHA256_PROBES.some(([text]) => /[^\x00-\x7f]/.test(text))).toBe(true);
  });

  it('object keys in code point order, with and without surrogates in them', () => {
    const plain = { b: 1, a: 2, A: 3, é: 4, aa: 5, '10': 6, '2': 7 };
    expect(canonicalJson(plain)).toBe('{"10":6,"2":7,"A":3,"a":2,"aa":5,"b":1,"é":4}');
    // U+1F600 (a surrogate pair) sorts after U+E000 by code point, before it by UTF-16 unit
    const astral = { '\u{1F600}': 1, '\ue000': 2, a: 3 };
    expect(canonicalJson(astral)).toBe('{"a":3,"\ue000":2,"\u{1F600}":1}');
    expect(Object.keys(astral).sort(byCodePoint)).toEqual(['a', '\ue000', '\u{1F600}']);
  });

  it('objects of shapes seen before (the key orders kept per shape) are written as a fresh sort writes them, past the kept shapes too', () => {
    // reference: the keys sorted anew for every object (no surrogates here: UTF-16 order is code point order)
    const sorted = (o: Record<string, unknown>) =>
      `{${Object.keys(o)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${JSON.stringify(o[k])}`)
        .join(',')}}`;
    const names = ['call_id', 'at', 'z"q', 'seq', 'b\\n', 'hash', 'a', 'é', 'mode'];
    const shapes: Record<string, unknown>[] = [];
    for (let n = 1; n <= names.length; n++) {
      // each key list in two insertion orders, and each prefix a shape of its own: more shapes than are kept
      const keys = names.slice(0, n);
      shapes.push(Object.fromEntries(keys.map((k, i) => [k, i])), Object.fromEntries([...keys].reverse().map((k, i) => [k, `v${i}`])));
      shapes.push(Object.fromEntries(keys.map((k, i) => [`${k}${n}`, i])));
    }
    for (let round = 0; round < 3; round++) for (const o of round === 1 ? [...shapes].reverse() : shapes) expect(canonicalJson(o)).toBe(sorted(o));
  });

  it('undefined members are dropped, undefined array items are null, nesting is kept', () => {
    expect(canonicalJson({ z: undefined, y: [1, undefined, { b: null, a: 'x' }] })).toBe('{"y":[1,null,{"a":"x","b":null}]}');
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson({})).toBe('{}');
    expect(canonicalJson(12345678901234567890n)).toBe('12345678901234567890');
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(/non-finite/);
  });

  it('a member an accessor deletes while the object is written is left out, and no other value takes its place', () => {
    const o: Record<string, unknown> = {
      get x() {
        delete o.y;
        return 1;
      },
      y: 2,
      z: 3,
    };
    expect(canonicalJson(o)).toBe('{"x":1,"z":3}');
  });

  it('strings and numbers are written exactly as JSON.stringify writes them (the quick paths included)', () => {
    const strings = [
      '',
      'alice',
      'a"b',
      'a\\b',
      'tab\there',
      'nl\n',
      '\u0000\u001f\u007f',
      '\u2028\u2029',
      'é€',
      '\u{1F600}',
      '\ud800',
      'x\udfffy',
      '\udc00\ud800',
      'a'.repeat(300),
    ];
    for (const text of strings) {
      expect(canonicalJson(text)).toBe(JSON.stringify(text));
      expect(canonicalJson({ [text]: text })).toBe(`{${JSON.stringify(text)}:${JSON.stringify(text)}}`);
    }
    for (const n of [0, -0, 1, -1, 0.1, 1e21, 1e-7, 123456789.125, Number.MAX_SAFE_INTEGER, Number.MIN_VALUE, -Number.MAX_VALUE]) {
      expect(canonicalJson(n)).toBe(JSON.stringify(n));
    }
  });
});
