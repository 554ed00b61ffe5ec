import { describe, expect, it } from 'vitest';
import { parseArguments } from '../../src/runtime/arguments.js';

// parseArguments reads an integer literal of at most 15 characters as a plain number (no BigInt on
// the way): the values must be the ones the BigInt path gives, at the boundary and for `-0`.
describe('integer arguments, short and long', () => {
  it('gives a safe integer as a number, -0 as 0, and a larger one exactly as a bigint', () => {
    const r = parseArguments('{"z":-0,"max15":999999999999999,"neg":-99999999999999,"d16":1234567890123456,"big":9999999999999999,"huge":-90071992547409930}');
    expect(r.ok).toBe(true);
    const v = (r as { value: Record<string, unknown> }).value;
    expect(Object.is(v['z'], 0)).toBe(true);
    expect(v['max15']).toBe(999_999_999_999_999);
    expect(v['neg']).toBe(-99_999_999_999_999);
    expect(v['d16']).toBe(1_234_567_890_123_456);
    expect(v['big']).toBe(9_999_999_999_999_999n);
    expect(v['huge']).toBe(-90_071_992_547_409_930n);
  });

  it('still refuses a float of few characters', () => {
    expect(parseArguments('{"a":1.5}').ok).toBe(false);
    expect(parseArguments('{"a":1e3}').ok).toBe(false);
  });
});
