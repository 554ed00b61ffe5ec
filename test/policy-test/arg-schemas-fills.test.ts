import { describe, expect, it } from 'vitest';
import type { ParamSchema } from '../../src/generate/tool-schemas.js';
import { ABSENT } from '../../src/policy/exact/values.js';
import { argSchemas } from '../../src/policy-test/arg-schemas.js';

const loc = { file: 'src/tools.ts', line: 1, column: 1 };
const limit = (fill: ParamSchema['fill']): ParamSchema => ({
  name: 'limit',
  type: 'integer',
  required: true,
  nullable: false,
  lo: 1n,
  hi: 500n,
  loc,
  ...(fill ? { fill } : {}),
});
const domain = (fill: ParamSchema['fill']) => argSchemas(new Map([['limit', limit(fill)]]))!.get('limit')!;

/**
 * Issue 40: the diff's domain of an argument is what the policy may be handed: a value the schema
 * accepts as sent, and each value a fill-in hands the body unchecked: a default's for a field left
 * out, a catch's for any value refused (`.min(1).max(500).catch(0)` hands 0 for a sent 9999).
 */
describe("the diff's domain under fill-ins", () => {
  it("a catch's value outside the range is decided on, and cut at", () => {
    const d = domain({ invalid: { value: 0 } });
    expect(d.accepts(0)).toBe(true);
    expect(d.accepts(-1)).toBe(false);
    expect(d.edges).toContainEqual(0);
  });

  it("a default's and a catch's value both, never the field left out", () => {
    const d = domain({ absent: { value: 0, from: 'default' }, invalid: { value: 600 } });
    expect([d.accepts(0), d.accepts(600), d.accepts(601), d.accepts(ABSENT)]).toEqual([true, true, false, false]);
    expect(d.edges).toEqual(expect.arrayContaining([0, 600]));
  });

  it("a prefault's value is parsed as sent: not handed unchecked", () => {
    const d = domain({ absent: { value: 0, from: 'prefault' } });
    expect([d.accepts(0), d.accepts(ABSENT)]).toEqual([false, false]);
  });
});
