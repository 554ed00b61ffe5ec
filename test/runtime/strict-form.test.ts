import { describe, expect, it } from 'vitest';
import { filedForm, nullsFrom, strictCompleted } from '../../src/runtime/args-binding.js';
import { withoutOptionalNulls } from '../../src/runtime/core/arguments.js';
import { pausedArguments } from '../../src/runtime/core/pause.js';
import { argsHashOf } from '../../src/runtime/internals.js';

/** The pure parts of filing a paused call as strict mode writes it (core/pause.ts, args-binding.ts, core/arguments.ts). */

const nullable = (s: object) => ({ anyOf: [s, { type: 'null' }] });
const strict = (properties: Record<string, unknown>) => ({ type: 'object', properties, required: Object.keys(properties), additionalProperties: false });

describe('strictCompleted: the nulls the SDK dropped, put back', () => {
  const schema = strict({
    id: { type: 'string' },
    note: nullable({ type: 'string' }),
    lines: { type: 'array', items: strict({ sku: { type: 'string' }, memo: nullable({ type: 'string' }) }) },
    ship: nullable(strict({ city: { type: 'string' }, floor: nullable({ type: 'integer' }) })),
  });

  it('at every depth the schema names, leaving what is there as it is', () => {
    const value = { id: 'a', lines: [{ sku: 'x' }, { sku: 'y', memo: 'm' }], ship: { city: 'Oslo' } };
    expect(strictCompleted(schema, value)).toEqual({
      complete: true,
      value: {
        id: 'a',
        note: null,
        lines: [
          { sku: 'x', memo: null },
          { sku: 'y', memo: 'm' },
        ],
        ship: { city: 'Oslo', floor: null },
      },
    });
    expect(value).toEqual({ id: 'a', lines: [{ sku: 'x' }, { sku: 'y', memo: 'm' }], ship: { city: 'Oslo' } });
  });

  it('the same value when nothing is missing; a property the schema does not require is not put back', () => {
    const whole = { id: 'a', note: 'n', lines: [], ship: null };
    expect(strictCompleted(schema, whole).value).toBe(whole);
    const loose = { type: 'object', properties: { id: { type: 'string' }, note: { type: 'string' } }, required: ['id'] };
    const value = { id: 'a' };
    expect(strictCompleted(loose, value)).toEqual({ value, complete: true });
  });

  it('follows a local $ref; one it cannot follow, or several object shapes, leave a missing property unknown', () => {
    const referenced = { ...strict({ item: { $ref: '#/$defs/item' } }), $defs: { item: strict({ a: { type: 'string' }, b: nullable({ type: 'string' }) }) } };
    expect(strictCompleted(referenced, { item: { a: 'x' } })).toEqual({ complete: true, value: { item: { a: 'x', b: null } } });
    expect(strictCompleted(strict({ item: { $ref: 'https://example.test/s' } }), { item: { a: 'x' } }).complete).toBe(false);
    const union = strict({ pay: { anyOf: [strict({ card: { type: 'string' } }), strict({ iban: { type: 'string' }, bic: nullable({ type: 'string' }) })] } });
    expect(strictCompleted(union, { pay: { iban: 'DE' } }).complete).toBe(false);
    const whole = { pay: { card: '4242' } };
    expect(strictCompleted(union, whole)).toEqual({ complete: true, value: whole });
  });

  it('a key named __proto__ stays a data member', () => {
    const value = JSON.parse('{"__proto__":{"x":1}}') as Record<string, unknown>;
    const completed = strictCompleted(strict({ ['__proto__']: strict({ x: { type: 'integer' }, y: nullable({ type: 'integer' }) }) }), value).value as object;
    expect(Object.getPrototypeOf(completed)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(completed, '__proto__')?.value).toEqual({ x: 1, y: null });
  });

  it('pausedArguments: undefined for what cannot be known (a missing property in an unknown place, a rounded integer)', () => {
    const union = strict({ pay: { anyOf: [strict({ card: { type: 'string' } }), strict({ iban: { type: 'string' }, bic: nullable({ type: 'string' }) })] } });
    expect(pausedArguments({ strictSchema: union }, { pay: { iban: 'DE' } })).toBeUndefined();
    expect(pausedArguments({ strictSchema: schema }, { id: 'a', n: JSON.parse('9007199254740993') as number })).toBeUndefined();
    expect(pausedArguments({}, { id: 'a' })).toEqual({ id: 'a' });
  });
});

describe('nullsFrom and filedForm: the call in the form its filed request wrote it', () => {
  it("puts back only the template's nulls the value lacks", () => {
    expect(nullsFrom({ a: 1, n: { b: 2 } }, { a: 1, z: null, n: { b: 2, c: null }, d: 5 })).toEqual({ a: 1, z: null, n: { b: 2, c: null } });
    const v = { a: 1, z: 'kept' };
    expect(nullsFrom(v, { a: 1, z: null })).toBe(v);
    expect(nullsFrom([{ a: 1 }], [{ a: 1, b: null }])).toEqual([{ a: 1, b: null }]);
    expect(nullsFrom([{ a: 1 }], [{ a: 1, b: null }, {}])).toEqual([{ a: 1 }]);
  });

  it('filedForm: the form only when the request hashes it and it differs from the call', () => {
    const request = { args: '{"amount":5,"note":null}', argsHash: argsHashOf('{"amount":5,"note":null}', undefined)! };
    expect(filedForm({ amount: 5 }, request)).toEqual({ amount: 5, note: null });
    expect(filedForm({ amount: 5, note: null }, request)).toBeUndefined();
    expect(filedForm({ amount: 6 }, request)).toBeUndefined();
    expect(filedForm({ amount: 5 }, { ...request, argsHash: argsHashOf('{"amount":5}', undefined)! })).toBeUndefined();
    expect(filedForm({ amount: 5 }, { ...request, args: 'not json' })).toBeUndefined();
  });
});

describe("withoutOptionalNulls: a strict JSON-schema tool's arguments as the SDK hands them over", () => {
  const schema = {
    type: 'object',
    properties: {
      id: { type: 'string' },
      note: { type: 'string' },
      maybe: { type: ['string', 'null'] },
      tags: { type: 'array', items: { type: 'object', properties: { t: { type: 'string' } } } },
    },
    required: ['id'],
  };

  it("drops a null the property's schema does not admit, where it is not required, at any depth", () => {
    expect(withoutOptionalNulls(schema, { id: 'a', note: null, maybe: null, tags: [{ t: null }] })).toEqual({ id: 'a', maybe: null, tags: [{}] });
  });

  it("keeps a required property's null (the schema check refuses it) and returns the same value when nothing is dropped", () => {
    expect(withoutOptionalNulls(schema, { id: null })).toEqual({ id: null });
    const v = { id: 'a', maybe: null };
    expect(withoutOptionalNulls(schema, v)).toBe(v);
  });
});
