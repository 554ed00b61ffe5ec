import Ajv2020 from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileJsonSchema } from '../../src/runtime/json-schema.js';

/** Schemas of the shape function tools use, built from the keywords the check supports. */
const leaf = fc.oneof(
  fc.record({ type: fc.constantFrom('string', 'integer', 'number', 'boolean', 'null') }),
  fc.record({ type: fc.constant('integer'), minimum: fc.integer({ min: -5, max: 5 }), maximum: fc.integer({ min: 5, max: 50 }) }),
  fc.record({ type: fc.constant('number'), exclusiveMinimum: fc.integer({ min: -5, max: 5 }), multipleOf: fc.constantFrom(1, 2, 0.5) }),
  fc.record({
    type: fc.constant('string'),
    minLength: fc.nat(3),
    maxLength: fc.integer({ min: 3, max: 8 }),
    pattern: fc.constantFrom('^[a-z_]+$', '^pay_', '\\d'),
  }),
  fc.record({ enum: fc.uniqueArray(fc.oneof(fc.string({ maxLength: 3 }), fc.integer({ min: 0, max: 3 }), fc.constant(null)), { minLength: 1, maxLength: 3 }) }),
  fc.record({ type: fc.constant(['string', 'null']) }),
);
const schema = fc.letrec((tie) => ({
  node: fc.oneof({ maxDepth: 3, depthIdentifier: 's' }, leaf, tie('object'), tie('array'), tie('anyOf')),
  object: fc.dictionary(fc.constantFrom('a', 'b', 'amount', 'payment_id'), tie('node'), { maxKeys: 3 }).chain((properties) =>
    fc.record({
      type: fc.constant('object'),
      properties: fc.constant(properties),
      required: fc.subarray(Object.keys(properties)),
      additionalProperties: fc.boolean(),
    }),
  ),
  array: fc.record({ type: fc.constant('array'), items: tie('node'), minItems: fc.nat(2), uniqueItems: fc.boolean() }),
  anyOf: fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
})).node;

/**
 * ajv tests multipleOf with `parseInt(x / m)`, which reads 1e21 as 1 and a subnormal such as
 * -5e-324 divided by 2 as 0 (the quotient underflows): quirks, not JSON Schema. Values that large
 * or that small (but not 0) are left out of the comparison; the check is exact on them.
 */
function hasAjvQuirk(value: unknown): boolean {
  if (typeof value === 'number') return Math.abs(value) >= 1e21 || (value !== 0 && Math.abs(value) < 1e-300);
  if (value && typeof value === 'object') return Object.values(value).some(hasAjvQuirk);
  return false;
}

describe('the runtime JSON-schema check agrees with ajv (differential property test)', () => {
  const ajv = new Ajv2020.default({ strict: false, allErrors: false, unicodeRegExp: true });
  it('same verdict as ajv on random schemas and values', () => {
    fc.assert(
      fc.property(schema, fc.jsonValue({ maxDepth: 3 }), (s, value) => {
        fc.pre(!hasAjvQuirk(value));
        const ours = compileJsonSchema(s, 'test')(value) === null;
        expect(ours).toBe(ajv.validate(s as object, value));
      }),
      { numRuns: 200, interruptAfterTimeLimit: 5_000 },
    );
  });
  it('same verdict on values shaped like the schema (so the valid side is exercised too)', () => {
    const tool = {
      type: 'object',
      properties: { payment_id: { type: 'string', pattern: '^pay_' }, amount: { type: 'integer', minimum: 1 } },
      required: ['payment_id', 'amount'],
      additionalProperties: false,
    };
    const check = compileJsonSchema(tool, 'test');
    fc.assert(
      fc.property(
        fc.record(
          {
            payment_id: fc.oneof(fc.constant('pay_1'), fc.string()),
            amount: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string()),
          },
          { requiredKeys: [] },
        ),
        (value) => {
          fc.pre(!hasAjvQuirk(value));
          expect(check(value) === null).toBe(ajv.validate(tool, value));
        },
      ),
      { numRuns: 200, interruptAfterTimeLimit: 5_000 },
    );
  });

  it('multipleOf is exact where ajv divides: a subnormal is no multiple of 2, 1e21 is one of 1', () => {
    const check = compileJsonSchema({ type: 'number', multipleOf: 2 }, 'test');
    expect(check(-5e-324)).toMatch(/must be a multiple of 2/);
    expect(check(5e-324)).toMatch(/must be a multiple of 2/);
    expect(check(-4)).toBeNull();
    expect(check(0)).toBeNull();
    expect(compileJsonSchema({ type: 'number', multipleOf: 1 }, 'test')(1e21)).toBeNull();
  });
});
