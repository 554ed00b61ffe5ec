import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { patternProblem } from '../../src/policy/authority.js';
import { PatternFamily, patternAutomaton } from '../../src/policy/exact/patterns.js';
import { patternMatches } from '../../src/runtime/authority.js';

// The grant patterns as automata (src/policy/exact/patterns.ts) against the runtime's own matching,
// and the strings the decision procedure stands for all strings with: every class of strings the
// patterns tell apart (free, or pasted into a rendered resource) has one of them.

const ALPHABET = ['a', 'b', 'x', ':', '.'];
const text = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 7 }).map((cs) => cs.join(''));
const segment = fc.oneof(
  fc.array(fc.constantFrom('a', 'b', 'x'), { minLength: 1, maxLength: 2 }).map((cs) => cs.join('')),
  fc.array(fc.constantFrom('a', 'b'), { maxLength: 2 }).map((cs) => `${cs.join('')}*`),
);
const resourcePattern = fc
  .tuple(fc.array(segment, { minLength: 1, maxLength: 3 }), fc.boolean())
  .map(([segs, deep]) => (deep ? [...segs.map((s) => s.replace('*', '')).filter((s) => s !== ''), '**'] : segs).join(':'))
  .filter((p) => patternProblem(p, ':') === null);
const subjectPattern = segment.filter((p) => patternProblem(p, null) === null);

const family = (patterns: string[], separator: ':' | null) =>
  new PatternFamily(
    patterns.map((p) => patternAutomaton(p, separator)),
    patterns,
    separator,
  );

describe('grant patterns as automata', () => {
  it('accept exactly what the runtime matches (resource and subject patterns)', () => {
    fc.assert(
      fc.property(resourcePattern, subjectPattern, text, (r, s, t) => {
        expect(family([r], ':').matches(t)[0], `${r} on ${JSON.stringify(t)}`).toBe(patternMatches(r, t, ':'));
        expect(family([s], null).matches(t)[0], `${s} on ${JSON.stringify(t)}`).toBe(patternMatches(s, t, null));
      }),
      { numRuns: 3000 },
    );
  });

  it('free strings: every set of patterns a string matches together is matched by one of them', () => {
    fc.assert(
      fc.property(fc.uniqueArray(resourcePattern, { minLength: 1, maxLength: 3 }), fc.array(text, { maxLength: 20 }), (patterns, texts) => {
        const f = family(patterns, ':');
        const seen = new Set(f.freeStrings().map((s) => f.matches(s).join()));
        for (const t of texts) expect(seen, `${JSON.stringify(t)} under ${patterns.join(' ')}`).toContain(f.matches(t).join());
      }),
      { numRuns: 300 },
    );
  });

  it('pasted strings: one for every transition function a string has, and for every constant it equals or none', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(resourcePattern, { minLength: 1, maxLength: 2 }),
        fc.array(text, { maxLength: 3 }),
        fc.array(text, { maxLength: 20 }),
        (patterns, constants, texts) => {
          const f = family(patterns, ':');
          const classOf = (s: string) => `${f.functionOf(s)}#${constants.indexOf(s)}`;
          const seen = new Set(f.pastedStrings(constants).map(classOf));
          for (const t of texts) expect(seen, `${JSON.stringify(t)} under ${patterns.join(' ')}`).toContain(classOf(t));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('pasted integers: one in each interval for every transition function an integer of it has', () => {
    const digitPattern = fc
      .array(fc.oneof(fc.constantFrom('1', '2', '-1', '12'), fc.constantFrom('1*', '-*', '2*', '*')), { minLength: 1, maxLength: 2 })
      .map((segs) => ['n', ...segs].join(':'))
      .filter((p) => patternProblem(p, ':') === null);
    fc.assert(
      fc.property(
        fc.uniqueArray(digitPattern, { minLength: 1, maxLength: 2 }),
        fc.integer({ min: -300, max: 300 }),
        fc.integer({ min: 0, max: 400 }),
        fc.array(fc.integer({ min: -1000, max: 1000 }), { maxLength: 20 }),
        (patterns, lo, width, values) => {
          const f = family(patterns, ':');
          const hi = lo + width;
          const reps = f.pastedIntegers([[BigInt(lo), BigInt(hi)]]);
          for (const r of reps) expect(r >= BigInt(lo) && r <= BigInt(hi)).toBe(true);
          const seen = new Set(reps.map((r) => f.functionOf(`n:${r}`)));
          for (const v of values.filter((x) => x >= lo && x <= hi))
            expect(seen, `${v} in ${lo}..${hi} under ${patterns.join(' ')}`).toContain(f.functionOf(`n:${v}`));
          // unbounded above and below: the classes of every length, found by their period
          const up = new Set(f.pastedIntegers([[BigInt(lo), null]]).map((r) => f.functionOf(`n:${r}`)));
          for (const v of values.filter((x) => x >= lo)) expect(up).toContain(f.functionOf(`n:${v}`));
          const down = new Set(f.pastedIntegers([[null, BigInt(hi)]]).map((r) => f.functionOf(`n:${r}`)));
          for (const v of values.filter((x) => x <= hi)) expect(down).toContain(f.functionOf(`n:${v}`));
        },
      ),
      { numRuns: 200 },
    );
  });
});
