import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluate, holds } from '../../src/policy/evaluate.js';
import { parsePolicy } from '../../src/policy/load.js';
import type { Policy } from '../../src/policy/types.js';

function policyOf(text: string): Policy {
  const r = parsePolicy(text, 'p.yaml');
  expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return r.value!;
}

const refund = policyOf(`schema: ctrlrun.policy/v6
actions:
  stripe.refund:
    rules:
      - when: { amount_gte: 0, amount_lte: 100000 }
        decision: allow
      - when: { amount_lte: 1000000 }
        decision: approve
      - decision: deny
  tag.set:
    rules:
      - when: { tag_in: [red, 7, true], flag_eq: true, name_neq: root }
        decision: allow
  read:
    decision: allow
`);

describe('evaluate: first match wins', () => {
  it('picks the first rule whose entries all hold', () => {
    expect(evaluate(refund, 'stripe.refund', { amount: 5000 })).toMatchObject({ decision: 'allow', rule: 0, reason: 'rule[0]' });
    expect(evaluate(refund, 'stripe.refund', { amount: 100001 })).toMatchObject({ decision: 'approve', rule: 1, reason: 'rule[1]' });
    expect(evaluate(refund, 'stripe.refund', { amount: 2000000 })).toMatchObject({ decision: 'deny', rule: 2, reason: 'rule[2]' });
    expect(evaluate(refund, 'stripe.refund', { amount: -1 })).toMatchObject({ decision: 'approve', rule: 1 });
  });

  it('bounds are inclusive for lte/gte and exclusive for lt/gt', () => {
    const p = policyOf(`schema: ctrlrun.policy/v1
actions:
  a:
    rules:
      - { when: { n_gt: 1, n_lt: 3 }, decision: allow }
`);
    expect(evaluate(p, 'a', { n: 2 }).decision).toBe('allow');
    expect(evaluate(p, 'a', { n: 1 })).toMatchObject({ decision: 'deny', reason: 'no_matching_rule', rule: null });
    expect(evaluate(p, 'a', { n: 3 }).reason).toBe('no_matching_rule');
    expect(evaluate(refund, 'stripe.refund', { amount: 100000 }).rule).toBe(0);
    expect(evaluate(refund, 'stripe.refund', { amount: 0 }).rule).toBe(0);
  });

  it('traces every entry of each evaluated rule with its actual value', () => {
    const e = evaluate(refund, 'stripe.refund', { amount: 200000 });
    expect(e.conditions).toEqual([
      { ruleIndex: 0, key: 'amount_gte', arg: 'amount', op: 'gte', expected: 0, actual: 200000, held: true },
      { ruleIndex: 0, key: 'amount_lte', arg: 'amount', op: 'lte', expected: 100000, actual: 200000, held: false },
      { ruleIndex: 1, key: 'amount_lte', arg: 'amount', op: 'lte', expected: 1000000, actual: 200000, held: true },
    ]);
    expect(e.ruleLoc).toEqual({ file: 'p.yaml', line: 7, column: 9 });
  });

  it('a rule without `when` always matches', () => {
    const p = policyOf('schema: ctrlrun.policy/v6\nactions:\n  b:\n    rules:\n      - decision: allow\n');
    for (const args of [{}, { x: 1 }]) expect(evaluate(p, 'b', args)).toMatchObject({ decision: 'allow', rule: 0, reason: 'rule[0]' });
  });

  it("a decision shorthand always matches, with CTRLRun's reason `decision`", () => {
    expect(evaluate(refund, 'read', { any: 'thing' })).toMatchObject({ decision: 'allow', rule: null, reason: 'decision', conditions: [] });
  });
});

describe('evaluate: fail closed on odd arguments', () => {
  it('an unknown action is denied with unknown_action (prototype names too)', () => {
    for (const name of ['nope', '__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(evaluate(refund, name, { amount: 1 })).toEqual({
        action: name,
        decision: 'deny',
        rule: null,
        reason: 'unknown_action',
        conditions: [],
        effectKey: null,
        resource: null,
      });
    }
  });

  it('missing and wrongly typed arguments make the entry false', () => {
    for (const amount of [undefined, '5000', true, null, [5000], { v: 5000 }]) {
      const e = evaluate(refund, 'stripe.refund', amount === undefined ? {} : { amount });
      expect(e.decision, String(amount)).toBe('deny');
      expect(e.rule).toBe(2);
      expect(e.conditions.every((c) => !c.held)).toBe(true);
    }
  });

  it('a float, NaN or an unsafe number anywhere in the arguments refuses the call (invalid_argument)', () => {
    for (const args of [
      { amount: 1.5 },
      { amount: 5, fee: 0.5 },
      { amount: NaN },
      { amount: Infinity },
      { amount: 2 ** 53 },
      { amount: 5, deep: [{ x: 0.1 }] },
    ]) {
      expect(evaluate(refund, 'stripe.refund', args)).toMatchObject({ decision: 'deny', rule: null, reason: 'invalid_argument', conditions: [] });
    }
  });

  it('integers beyond 2^53 as bigints compare exactly', () => {
    expect(evaluate(refund, 'stripe.refund', { amount: 5000n }).rule).toBe(0);
    expect(evaluate(refund, 'stripe.refund', { amount: 2n ** 64n }).rule).toBe(2);
    expect(holds({ op: 'lte', value: 2n ** 64n }, 2n ** 64n)).toBe(true);
    expect(holds({ op: 'lt', value: 2n ** 64n }, 2n ** 64n)).toBe(false);
    expect(holds({ op: 'gt', value: 5 }, 2n ** 64n)).toBe(true);
  });

  it('non-object args are refused (invalid_argument)', () => {
    for (const args of [null, undefined, 5000, 'x', [5000], true]) {
      expect(evaluate(refund, 'stripe.refund', args)).toMatchObject({ decision: 'deny', rule: null, reason: 'invalid_argument' });
    }
  });

  it('neq is false for a missing argument and true for a present one of another type', () => {
    expect(holds({ op: 'neq', value: 'root' }, undefined)).toBe(false);
    expect(holds({ op: 'neq', value: 'root' }, 5)).toBe(true);
    expect(holds({ op: 'neq', value: 'root' }, null)).toBe(true);
    expect(holds({ op: 'neq', value: 'root' }, 'admin')).toBe(true);
    expect(holds({ op: 'neq', value: 'root' }, 'root')).toBe(false);
  });

  it('eq and in compare strictly, same type only', () => {
    expect(holds({ op: 'eq', value: 1 }, '1')).toBe(false);
    expect(holds({ op: 'eq', value: true }, 1)).toBe(false);
    expect(holds({ op: 'eq', value: 'a' }, 'a')).toBe(true);
    expect(holds({ op: 'in', value: ['red', 7, true] }, 7)).toBe(true);
    expect(holds({ op: 'in', value: ['red', 7, true] }, '7')).toBe(false);
    expect(holds({ op: 'in', value: ['red', 7, true] }, 1)).toBe(false);
    expect(holds({ op: 'in', value: ['red', 7, true] }, true)).toBe(true);
    expect(evaluate(refund, 'tag.set', { tag: 'red', flag: true, name: 'ann' }).decision).toBe('allow');
    expect(evaluate(refund, 'tag.set', { tag: 'red', flag: 'true', name: 'ann' }).decision).toBe('deny');
  });

  it('inherited properties count as missing; a class instance is refused', () => {
    const inherited = Object.create({ amount: 5 });
    expect(evaluate(refund, 'stripe.refund', inherited).reason).toBe('invalid_argument');
    expect(evaluate(refund, 'stripe.refund', Object.assign(Object.create(null), { other: 1 })).rule).toBe(2);
  });
});

describe('evaluate is total', () => {
  it('never throws, always returns a well-formed decision', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom('stripe.refund', 'tag.set', 'read'), fc.string()),
        fc.anything({
          withBigInt: true,
          withNullPrototype: true,
          withTypedArray: true,
          withSparseArray: true,
          withBoxedValues: true,
          withMap: true,
          withSet: true,
          withDate: true,
        }),
        (action, args) => {
          const e = evaluate(refund, action, args);
          expect(['allow', 'approve', 'deny']).toContain(e.decision);
          expect(e.reason).toMatch(/^(rule\[\d+\]|decision|no_matching_rule|unknown_action|invalid_argument|effect_key_error)$/);
          if (e.reason.startsWith('rule[')) expect(e.reason).toBe(`rule[${e.rule}]`);
          else expect(e.rule).toBeNull();
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('agrees with a direct reading of the refund rules on random amounts', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -2_000_000, max: 3_000_000 }), fc.string()), (amount) => {
        const isInt = Number.isSafeInteger(amount);
        const expected =
          isInt && (amount as number) >= 0 && (amount as number) <= 100000 ? 'allow' : isInt && (amount as number) <= 1000000 ? 'approve' : 'deny';
        expect(evaluate(refund, 'stripe.refund', { amount }).decision).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });
});
