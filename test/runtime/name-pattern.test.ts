import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesNamePattern } from '../../src/runtime/name-pattern.js';

// Issue 40, item 5: the `names` of a computed-name entry, matched exactly (against brute force).
/** The plain definition: `*` matches any run of characters, by trying every split. */
function brute(pattern: string, name: string): boolean {
  if (pattern === '') return name === '';
  if (pattern[0] === '*') {
    for (let i = 0; i <= name.length; i++) if (brute(pattern.slice(1), name.slice(i))) return true;
    return false;
  }
  return name.length > 0 && name[0] === pattern[0] && brute(pattern.slice(1), name.slice(1));
}

describe('matchesNamePattern', () => {
  it('agrees with the plain definition on small alphabets', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', '*'), maxLength: 6 }), fc.string({ unit: fc.constantFrom('a', 'b'), maxLength: 7 }), (p, n) => {
        expect(matchesNamePattern(p, n)).toBe(brute(p, n));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads as written', () => {
    expect(matchesNamePattern('flow_*', 'flow_sales')).toBe(true);
    expect(matchesNamePattern('flow_*', 'flow')).toBe(false);
    expect(matchesNamePattern('*_report', 'sales_report')).toBe(true);
    expect(matchesNamePattern('a*b*a', 'aba')).toBe(true);
    expect(matchesNamePattern('a*a', 'a')).toBe(false);
    expect(matchesNamePattern('exact', 'exact')).toBe(true);
  });
});
