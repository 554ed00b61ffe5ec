import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseArguments, parseArgumentsLosslessly } from '../../src/runtime/arguments.js';

// parseArguments takes JSON.parse where a scan of the text shows it reads the text as the lossless
// parse does. Whatever the text, its answer must be the lossless parse's: the same refusal and
// detail, the same values (a bigint stays a bigint, -0 becomes 0), the same keys in the same order.

/** A value's full shape: types, key order and prototypes, which isDeepStrictEqual alone leaves out. */
function shape(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? String(value);
  if (Array.isArray(value)) return `[${value.map(shape).join(',')}]`;
  const proto = Object.getPrototypeOf(value) === Object.prototype ? '' : `<${Object.getPrototypeOf(value)?.constructor?.name ?? 'null'}>`;
  return `${proto}{${Object.keys(value)
    .map((k) => `${JSON.stringify(k)}:${shape((value as Record<string, unknown>)[k])}`)
    .join(',')}}`;
}

function expectSameAnswer(text: string): void {
  const fast = parseArguments(text);
  const lossless = parseArgumentsLosslessly(text);
  expect(shape(fast), text).toBe(shape(lossless));
  expect(isDeepStrictEqual(fast, lossless), text).toBe(true);
}

// numbers the two parsers read alike, and every kind they do not
const alike = ['0', '7', '-1', '10', '-10', '999999999999999', '-99999999999999'];
const unlike = [
  '1234567890123456',
  '-999999999999999',
  '9007199254740993',
  '-0',
  '-00',
  '00',
  '-01',
  '1.5',
  '1.0',
  '-0.0',
  '1e3',
  '2E+2',
  '01',
  '-',
  '--1',
  '1-',
  '1.',
  '.5',
];
const numbers = [...alike, ...unlike];
const strings = ['"a"', '"a:1"', '"\\":"', '"\\ud800"', '"\\u005f_proto__"', '"__proto__"', '"12"', '"x\\"y"', '"é"'];
const keyTokens = ['"a"', '"b"', '"__proto__"', '"\\u0061"', '"1"', '"a b"'];
const space = fc.constantFrom('', ' ', '\n', '\t ', '\r\n');

const scalar = fc.constantFrom(...numbers, ...strings, 'true', 'false', 'null');
const jsonText = fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('object'), tie('array')),
  array: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
  object: fc
    .array(fc.tuple(fc.constantFrom(...keyTokens), space, tie('value')), { maxLength: 5 })
    .map((pairs) => `{${pairs.map(([k, s, v]) => `${s}${k}${s}:${s}${v}${s}`).join(',')}}`),
}));

// texts the grammar above would not make: pieces of JSON spliced, cut and joined
const brokenText = fc
  .array(fc.oneof(fc.constantFrom('{', '}', '[', ']', ',', ':', ' ', ...keyTokens, ...numbers, ...strings, 'true', 'nul')), { maxLength: 12 })
  .map((pieces) => pieces.join(''));

describe('the JSON.parse path gives the lossless parse’s answer', () => {
  it('on objects of every kind of number, string and key, duplicates among them', () => {
    fc.assert(fc.property(jsonText.object, expectSameAnswer), { numRuns: 2000 });
  });

  it('on texts that are not JSON objects, or not JSON', () => {
    fc.assert(fc.property(fc.oneof(jsonText.value, brokenText), expectSameAnswer), { numRuns: 2000 });
  });

  it('on arbitrary JSON text', () => {
    fc.assert(fc.property(fc.json({ depthSize: 'small' }), expectSameAnswer), { numRuns: 500 });
  });

  it('on the cases JSON.parse alone would get wrong', () => {
    for (const text of [
      '{"a":1,"a":2}',
      '{"a":{"b":1},"a":{"b":1}}',
      '{"a":[{"b":1,"b":2}]}',
      '{"z":-0}',
      '{"n":9007199254740993}',
      '{"f":1.0}',
      '{"__proto__":{"x":1}}',
      '{"s":"\\ud800"}',
      '{"k" : 1 , "k":1}',
    ])
      expectSameAnswer(text);
  });

  it('refuses a duplicate key with another value, and keeps one with an equal value', () => {
    const refused = parseArguments('{"a":1,"a":2}');
    expect(refused).toMatchObject({ ok: false, detail: expect.stringContaining("Duplicate key 'a'") });
    expect(parseArguments('{"a":[1],"b":2,"a":[1]}')).toEqual({ ok: true, value: { a: [1], b: 2 } });
  });
});
