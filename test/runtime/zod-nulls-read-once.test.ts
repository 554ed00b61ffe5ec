import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { argumentsStage } from '../../src/runtime/core/arguments.js';

/**
 * A zod tool's arguments: strict mode's nulls are read once (issue 40). A value that holds no null
 * has nothing for the SDK's strict mode or the older fallbacks to drop, so a refused value is parsed
 * once, not again as a null-free copy of itself; a value with nulls still goes through the SDK's
 * mirror, then the fallbacks, as before.
 */
function counted<T extends z.ZodTypeAny>(schema: T): { schema: T; parses: () => number } {
  let n = 0;
  const safeParse = schema.safeParse.bind(schema);
  Object.defineProperty(schema, 'safeParse', {
    value: (v: unknown) => {
      n++;
      return safeParse(v);
    },
  });
  return { schema, parses: () => n };
}

describe("a zod tool's arguments, strict mode's nulls read once", () => {
  for (const strict of [false, true]) {
    it(`a refused value with no null is parsed once (strict: ${strict})`, () => {
      const { schema, parses } = counted(z.object({ id: z.string(), note: z.string().optional() }));
      const stage = argumentsStage(schema as never, 'a', strict);
      expect(stage.policyArgs('{"id":5,"note":"x"}')).toEqual({ ok: false, problem: expect.stringMatching(/^\/id: /) });
      expect(parses()).toBe(1);
    });
  }

  it('a value with nulls still goes through the mirror, then the fallbacks (the same outcomes)', () => {
    const schema = z.object({ id: z.string(), note: z.string().optional(), tag: z.string().default('t') });
    const strict = argumentsStage(schema as never, 'a', true);
    const loose = argumentsStage(schema as never, 'a', false);
    // the optional's null dropped by the SDK's mirror; the default's by the fallback (a pause's completion)
    expect(strict.policyArgs('{"id":"x","note":null}')).toEqual({ ok: true, value: { id: 'x', tag: 't' } });
    expect(strict.policyArgs('{"id":"x","note":null,"tag":null}')).toEqual({ ok: true, value: { id: 'x', tag: 't' } });
    expect(loose.policyArgs('{"id":"x","note":null,"tag":null}')).toEqual({ ok: true, value: { id: 'x', tag: 't' } });
    expect(strict.policyArgs('{"id":null}')).toEqual({ ok: false, problem: expect.stringMatching(/^\/id: /) });
  });
});
