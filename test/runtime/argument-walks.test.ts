import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkArguments } from '../../src/runtime/arguments.js';
import { sameArgs, sameParseInput, withoutNegativeZero } from '../../src/runtime/core/arguments.js';

// The argument walks run on every stage of every call, so they read an object's own keys with a
// for-in (no key list copied) and write a member's path only where it has a problem (issue 39).
// Each is held here to the plain reading it replaced: Object.keys, and a path for every member.

const LONE_SURROGATE = /\p{Cs}/u;

/** checkArguments' problem as the walk wrote it before: Object.keys, every member's path built. */
function referenceProblem(value: unknown, path: string, depth: number): string | null {
  if (depth > 512) return `${path} nests too deeply`;
  switch (typeof value) {
    case 'string':
      return !LONE_SURROGATE.test(value) ? null : `${path} holds a string UTF-8 cannot encode (a lone surrogate)`;
    case 'boolean':
    case 'bigint':
      return null;
    case 'number':
      return Number.isSafeInteger(value) ? null : `a float is not an allowed argument (${path} is ${String(value)}); integers only (count the smallest unit)`;
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const p = referenceProblem(value[i], `${path}[${i}]`, depth + 1);
          if (p !== null) return p;
        }
        return null;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return `${path} is not a JSON value`;
      for (const key of Object.keys(value)) {
        if (LONE_SURROGATE.test(key)) return `${path} has a key UTF-8 cannot encode (a lone surrogate)`;
        const p = referenceProblem((value as Record<string, unknown>)[key], `${path}.${key}`, depth + 1);
        if (p !== null) return p;
      }
      return null;
    }
    default:
      return `${path} is not a JSON value (${typeof value})`;
  }
}

/** sameParseInput as it compared objects before: both key lists, member by member in order. */
function referenceSameInput(a: unknown, b: unknown, depth: number): boolean {
  if (Object.is(a, b)) return true;
  if (depth > 512 || typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const prototype = Object.getPrototypeOf(a);
  if (prototype !== Object.getPrototypeOf(b) || (prototype !== Object.prototype && prototype !== Array.prototype && prototype !== null)) return false;
  if (Array.isArray(a)) {
    const c = b as unknown[];
    if (a.length !== c.length) return false;
    for (let i = 0; i < a.length; i++) if (i in a !== i in c || !referenceSameInput(a[i], c[i], depth + 1)) return false;
    return true;
  }
  const keys = Object.keys(a);
  const others = Object.keys(b);
  if (keys.length !== others.length) return false;
  return keys.every((k, i) => k === others[i] && referenceSameInput((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], depth + 1));
}

const keys = fc.constantFrom('a', 'b', '__proto__', '1', '0', 'x y', '\ud800', 'constructor');
const scalar = fc.oneof(
  fc.constantFrom(null, true, false, 0, -0, 1, -7, 2 ** 53, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 10n ** 20n, 'ok', '\ud800', 'é\u{1F600}', '', undefined),
  fc.integer(),
);
/** Values of every kind the walks meet, objects built key by key (a `__proto__` key stays a member, as JSON.parse makes it). */
const value = fc.letrec<{ v: unknown; o: Record<string, unknown>; a: unknown[] }>((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, scalar, tie('o'), tie('a')),
  a: fc.array(tie('v'), { maxLength: 4 }),
  o: fc.tuple(fc.array(fc.tuple(keys, tie('v')), { maxLength: 5 }), fc.boolean()).map(([pairs, bare]) => {
    const out: Record<string, unknown> = bare ? Object.create(null) : {};
    for (const [k, v] of pairs) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    return out;
  }),
}));

/** Nested `depth` levels deep in objects, a float at the bottom. */
function nested(depth: number, leaf: unknown): Record<string, unknown> {
  let out: unknown = leaf;
  for (let i = 0; i < depth; i++) out = { k: out };
  return out as Record<string, unknown>;
}

describe('the argument walks read what the plain walks read', () => {
  it('checkArguments: the same refusal, at the same path, for any value', () => {
    fc.assert(
      fc.property(value.o, (v) => {
        const check = checkArguments(v);
        const problem = referenceProblem(v, 'arguments', 0);
        expect(check.ok ? null : check.detail).toBe(problem);
      }),
      { numRuns: 3000 },
    );
  });

  it('checkArguments: a member just inside the depth limit is read, one beyond it refused as too deep', () => {
    for (const depth of [510, 511, 512, 513]) {
      for (const leaf of [1, 1.5, 'ok', '\ud800']) {
        const v = nested(depth, leaf);
        const check = checkArguments(v);
        expect(check.ok ? null : check.detail, `${depth} ${String(leaf)}`).toBe(referenceProblem(v, 'arguments', 0));
      }
    }
  });

  it('sameParseInput, sameArgs and withoutNegativeZero agree with their plain readings on pairs of values', () => {
    fc.assert(
      fc.property(value.v, value.v, (a, b) => {
        expect(sameParseInput(a, b, 0)).toBe(referenceSameInput(a, b, 0));
        expect(sameParseInput(a, a, 0)).toBe(true);
        // sameArgs: equal JSON members (an undefined member is none), whatever their order
        if (referenceSameInput(a, b, 0)) expect(sameArgs(a, b)).toBe(true);
        const zeroed = withoutNegativeZero(a);
        expect(JSON.stringify(zeroed, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x))).toBe(
          JSON.stringify(a, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x)),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('sameParseInput: the same members in another order, one more, one fewer, are other inputs', () => {
    expect(sameParseInput({ a: 1, b: 2 }, { b: 2, a: 1 }, 0)).toBe(false);
    expect(sameParseInput({ a: 1 }, { a: 1, b: 2 }, 0)).toBe(false);
    expect(sameParseInput({ a: 1, b: 2 }, { a: 1 }, 0)).toBe(false);
    expect(sameArgs({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(sameArgs({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameArgs({ a: 1, b: 2 }, { a: 1 })).toBe(false);
  });

  // (the array walks are loops and functions of their own, not closures in the walk: issue 39, session 22)
  it('sameArgs compares arrays item by item, at any depth, a hole of the first skipped as `every` skipped it', () => {
    expect(sameArgs({ a: [1, [2, { b: 3 }]] }, { a: [1, [2, { b: 3 }]] })).toBe(true);
    expect(sameArgs({ a: [1, [2, { b: 3 }]] }, { a: [1, [2, { b: 4 }]] })).toBe(false);
    expect(sameArgs([1, 2], [1, 2, 3])).toBe(false);
    expect(sameArgs([1, 2], [1, 3])).toBe(false);
    // biome-ignore lint/suspicious/noSparseArray: a hole, as `every` read it
    expect(sameArgs([, 1], [2, 1])).toBe(true);
    expect(sameArgs([1, 1], [2, 1])).toBe(false);
  });

  it('withoutNegativeZero makes each -0 in an array 0, and leaves an array without one as it is', () => {
    const clean = [1, [2, { a: 0 }]];
    expect(withoutNegativeZero(clean)).toBe(clean);
    const zeroed = withoutNegativeZero([1, [-0, { a: -0 }]]) as [number, [number, { a: number }]];
    expect(Object.is(zeroed[1][0], 0) && Object.is(zeroed[1][1].a, 0)).toBe(true);
  });
});
