import { describe, expect, it } from 'vitest';
import { decidedByParts, strictestOf } from '../../src/runtime/core/parts.js';
import type { CompiledAction, Decision, DecisionResult } from '../../src/runtime/types.js';

/** core/parts.ts: the strictest of the parts' decisions, checked against every list of up to three parts. */
const DECISIONS: Decision[] = ['allow', 'approve', 'deny'];
const result = (decision: Decision, rule: number): DecisionResult => ({ decision, rule, reason: `rule[${rule}]` });

describe('strictestOf', () => {
  it('is the strictest decision, the first part of it naming the rule, for every list of up to three parts', () => {
    const lists: Decision[][] = [[]];
    for (let n = 0; n < 3; n++) for (const l of lists.filter((x) => x.length === n)) for (const d of DECISIONS) lists.push([...l, d]);
    for (const list of lists.filter((l) => l.length > 0)) {
      const parts = list.map((d, i) => ({ d, i }));
      const got = strictestOf((p) => result((p as { d: Decision }).d, (p as { i: number }).i), parts);
      const top = list.map((d) => DECISIONS.indexOf(d)).reduce((a, b) => Math.max(a, b));
      expect(got).toEqual(
        result(
          DECISIONS[top]!,
          list.findIndex((d) => DECISIONS.indexOf(d) === top),
        ),
      );
    }
  });

  it('a decision function that throws on a part, or no part at all, denies', () => {
    const throws = (p: unknown) => {
      if (p === 'bad') throw new Error('boom');
      return result('allow', 0);
    };
    expect(strictestOf(throws, ['ok', 'bad']).decision).toBe('deny');
    expect(strictestOf(throws, []).decision).toBe('deny');
  });

  it('decidedByParts: one part (or none) is decided as the whole call', () => {
    const action = {
      id: 'a',
      decide: (args: unknown) => result((args as { d: Decision }).d, 0),
      controls: [],
      approvalsRequired: 1,
      maxAttempts: 1,
    } as unknown as CompiledAction;
    const decided = decidedByParts(action, (args) => (args as { parts?: unknown[] }).parts)!;
    expect(decided.decide({ d: 'approve' }).decision).toBe('approve');
    expect(decided.decide({ d: 'allow', parts: [{ d: 'allow' }, { d: 'deny' }] }).decision).toBe('deny');
    expect(decidedByParts(action, undefined)).toBe(action);
  });
});
