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
    expect(evaluate(refund, 'stripe.refund', { amount: 5000 })).toMatchObject({ decision: 'allow', rule: 0, reason: 'rule_matched' });
    expect(evaluate(refund, 'stripe.refund', { amount: 100001 })).toMatchObject({ decision: 'approve', rule: 1, reason: 'rule_matched' });
    expect(evaluate(refund, 'stripe.refund', { amount: 2000000 })).toMatchObject({ decision: 'deny', rule: 2, reason: 'rule_matched' });
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
    expect(evaluate(p, 'a', { n: 1 })).toMatchObject({ decision: 'deny', reason: 'no_rule_matched', rule: null });
    expect(evaluate(p, 'a', { n: 3 }).reason).toBe('no_rule_matched');
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

  it('`when: {}` and a rule without `when` always match', () => {
    const p = policyOf('schema: ctrlrun.policy/v6\nactions:\n  a:\n    rules:\n      - when: {}\n        decision: approve\n  b:\n    rules:\n      - decision: allow\n');
    for (const args of [{}, null, 7, { x: 1 }]) {
      expect(evaluate(p, 'a', args)).toMatchObject({ decision: 'approve', rule: 0, reason: 'rule_matched', conditions: [] });
      expect(evaluate(p, 'b', args)).toMatchObject({ decision: 'allow', rule: 0 });
    }
  });

  it('a decision shorthand always matches', () => {
    expect(evaluate(refund, 'read', 'anything')).toMatchObject({ decision: 'allow', rule: 0, reason: 'rule_matched', conditions: [] });
  });
});

describe('evaluate: fail closed on odd arguments', () => {
  it('an unknown action is denied with unknown_action (prototype names too)', () => {
    for (const name of ['nope', '__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(evaluate(refund, name, { amount: 1 })).toEqual({ action: name, decision: 'deny', rule: null, reason: 'unknown_action', conditions: [] });
    }
  });

  it('missing, float, NaN, huge and wrongly typed arguments make the entry false', () => {
    for (const amount of [undefined, 1.5, NaN, Infinity, -Infinity, 2 ** 53, '5000', true, null, [5000], { v: 5000 }, 5000n]) {
      const e = evaluate(refund, 'stripe.refund', amount === undefined ? {} : { amount });
      expect(e.decision, String(amount)).toBe('deny');
      expect(e.rule).toBe(2);
      expect(e.conditions.every((c) => !c.held)).toBe(true);
    }
  });

  it('non-object args make every entry false', () => {
    for (const args of [null, undefined, 5000, 'x', [5000], true]) {
      const e = evaluate(refund, 'stripe.refund', args);
      expect(e.rule).toBe(2);
      expect(e.conditions.some((c) => c.held)).toBe(false);
    }
  });

  it('neq is false for a missing or wrongly typed argument', () => {
    expect(holds({ op: 'neq', value: 'root' }, undefined)).toBe(false);
    expect(holds({ op: 'neq', value: 'root' }, 5)).toBe(false);
    expect(holds({ op: 'neq', value: 'root' }, 'admin')).toBe(true);
    expect(holds({ op: 'neq', value: 'root' }, 'root')).toBe(false);
    expect(holds({ op: 'neq', value: 1 }, 1.5)).toBe(false);
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

  it('inherited and accessor properties count as missing', () => {
    const inherited = Object.create({ amount: 5 });
    expect(evaluate(refund, 'stripe.refund', inherited).rule).toBe(2);
    const accessor = Object.defineProperty({}, 'amount', { get: () => { throw new Error('boom'); }, enumerable: true });
    expect(evaluate(refund, 'stripe.refund', accessor).rule).toBe(2);
  });
});

describe('evaluate is total', () => {
  it('never throws, always returns a well-formed decision', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom('stripe.refund', 'tag.set', 'read'), fc.string()), fc.anything({ withBigInt: true, withNullPrototype: true, withTypedArray: true, withSparseArray: true, withBoxedValues: true, withMap: true, withSet: true, withDate: true }), (action, args) => {
        const e = evaluate(refund, action, args);
        expect(['allow', 'approve', 'deny']).toContain(e.decision);
        expect(['rule_matched', 'no_rule_matched', 'unknown_action']).toContain(e.reason);
        if (e.reason === 'rule_matched') expect(typeof e.rule).toBe('number');
        else expect(e.rule).toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with a direct reading of the refund rules on random amounts', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -2_000_000, max: 3_000_000 }), fc.double(), fc.string()), (amount) => {
        const isInt = Number.isSafeInteger(amount);
        const expected = isInt && (amount as number) >= 0 && (amount as number) <= 100000 ? 'allow' : isInt && (amount as number) <= 1000000 ? 'approve' : 'deny';
        expect(evaluate(refund, 'stripe.refund', { amount }).decision).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });
});
