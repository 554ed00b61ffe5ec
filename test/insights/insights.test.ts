import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answersOf, fatigueFindings, fatigueOfAnswer, parseDuration } from '../../src/insights/fatigue.js';
import { fatigueOf, periodOf } from '../../src/insights/period.js';
import { insightsOf, quantile } from '../../src/insights/stats.js';
import { eventOfReceipt } from '../../src/runtime/observe/event.js';
import type { ApprovalRequest, Receipt } from '../../src/runtime/types.js';
import { metricsText, reasonLabel } from '../../src/serve/metrics.js';

const RULES = { maxAnswers: 2, windowMs: 60_000, minDecideMs: 5_000 };

describe('the exact figures', () => {
  it('quantile is the nearest rank: the smallest value with at least q of them at or below it (brute force on small lists)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 9 }), fc.constantFrom(0.5, 0.9), (values, q) => {
        const brute = [...new Set(values)].sort((a, b) => a - b).find((v) => values.filter((x) => x <= v).length >= q * values.length);
        expect(quantile(values, q)).toBe(brute);
      }),
    );
    expect(quantile([], 0.5)).toBeNull();
  });

  it('fatigue by volume: the answer that takes an approver past the limit within the window, once a burst (brute force)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 300_000 }), { maxLength: 8 }), (times) => {
        const answers = [...times]
          .sort((a, b) => a - b)
          .map((at, i) => ({ approver: 'bob', decision: 'reject' as const, at, callId: `c${i}`, action: 'a', filedAt: 0 }));
        const found = fatigueFindings(answers, RULES).filter((f) => f.kind === 'volume');
        const brute = answers.filter((a, i) => answers.slice(0, i + 1).filter((b) => b.at > a.at - RULES.windowMs).length === RULES.maxAnswers + 1);
        expect(found.map((f) => f.callId)).toEqual(brute.map((a) => a.callId));
      }),
    );
  });

  it('fatigue by speed: an approval (not a rejection) under the minimum time after the pause', () => {
    const fast = { approver: 'bob', decision: 'approve' as const, at: 4_000, callId: 'c1', action: 'a', filedAt: 0 };
    expect(fatigueOfAnswer(fast, [], RULES).map((f) => [f.kind, f.value])).toEqual([['speed', 4_000]]);
    expect(fatigueOfAnswer({ ...fast, decision: 'reject' }, [], RULES)).toEqual([]);
    expect(fatigueOfAnswer({ ...fast, at: 5_000 }, [], RULES)).toEqual([]);
  });

  it('reads periods and rules, and refuses what is not one', () => {
    expect(parseDuration('15m')).toBe(900_000);
    expect(parseDuration('soon')).toBeUndefined();
    expect(periodOf({ period: '1h' }, 10_000_000)).toEqual({ ok: true, value: { since: 10_000_000 - 3_600_000, until: 10_000_000 } });
    expect(periodOf({ since: '2026-01-02T00:00:00Z', until: '2026-01-01T00:00:00Z' }, 0).ok).toBe(false);
    expect(fatigueOf({ fatigueAnswers: '0' }).ok).toBe(false);
    expect(fatigueOf({ fatigueWindow: '0s' }).ok).toBe(false);
    expect(fatigueOf({})).toMatchObject({ ok: true, value: { given: false } });
  });
});

const receipt = (over: Partial<Receipt>): Receipt => ({
  seq: 1,
  prev_hash: '',
  hash: '',
  at: 0,
  action: 'stripe.refund',
  call_id: 'c1',
  args_hash: null,
  principal: 'alice',
  decision: 'deny',
  reason: 'rule[2]',
  approvers: [],
  effect_key: null,
  result: 'denied',
  policy_hash: 'p',
  mode: 'enforce',
  environment: null,
  ...over,
});

describe('from receipts to events and series', () => {
  it('maps each result word to its stage, and a refusal by its reason', () => {
    const kind = (result: string, reason = '') => eventOfReceipt(receipt({ result, reason }))?.kind;
    expect([
      kind('requested'),
      kind('allowed'),
      kind('claimed'),
      kind('duplicate'),
      kind('executed'),
      kind('approved'),
      kind('resolved'),
      kind('fatigue'),
    ]).toEqual(['pause', 'decision', 'claim', 'reservation', 'settlement', 'answer', 'resolution', 'fatigue']);
    expect([
      kind('refused', 'approval_expired'),
      kind('refused', 'effect_ambiguous'),
      kind('refused', 'reject_not_pending'),
      kind('refused', 'halted'),
    ]).toEqual(['claim', 'reservation', 'answer', 'decision']);
    expect(eventOfReceipt(receipt({ action: 'ctrlrun.checkpoint' }))).toBeNull();
    expect([kind('refused', 'edit_denied'), kind('refused', 'grant_too_long'), kind('refused', 'respond_empty'), kind('refused', 'edit_mismatch')]).toEqual([
      'answer',
      'answer',
      'answer',
      'answer',
    ]);
    const edit = { proposed_args_hash: 'h1', approved_args_hash: 'h2', edited_by: 'bob' };
    expect(eventOfReceipt(receipt({ result: 'claimed', reason: 'rule[1]', approval_grant: 'g1', edit }))).toMatchObject({
      rule: 1,
      grantId: 'g1',
      editedBy: 'bob',
    });
  });

  it("an edit and a grant count once a call, though several of the call's receipts name them", () => {
    const edit = { proposed_args_hash: 'h1', approved_args_hash: 'h2', edited_by: 'bob' };
    const receipts = [
      receipt({ call_id: 'c1', result: 'approved', decision: 'approve', edit }),
      receipt({ call_id: 'c1', result: 'claimed', decision: 'approve', edit: { ...edit, ran_args_hash: 'h2' } }),
      receipt({ call_id: 'c1', result: 'executed', decision: 'approve', edit: { ...edit, ran_args_hash: 'h2' } }),
      receipt({ call_id: 'c1', result: 'granted', decision: 'approve', approval_grant: 'g1' }),
      receipt({ call_id: 'c2', result: 'allowed', decision: 'approve', approval_grant: 'g1' }),
      receipt({ call_id: 'c2', result: 'executed', decision: 'approve', approval_grant: 'g1' }),
      receipt({ call_id: 'c3', action: 'other', result: 'allowed', decision: 'approve', approval_grant: 'g2' }),
    ];
    const o = { since: -1, until: 10, approvalTtlMs: 1_000, fatigue: RULES };
    const insights = insightsOf([], receipts, o);
    expect(insights.actions.map((a) => [a.action, a.edits, a.grantsUsed])).toEqual([
      ['other', 0, 1],
      ['stripe.refund', 1, 1],
    ]);
    expect([insights.totals.edits, insights.totals.grantsUsed]).toEqual([1, 2]);
  });

  it('a refusal reason that is free text is labelled by its leading word, never its value', () => {
    expect(reasonLabel('rule[2]')).toBe('rule[2]');
    expect(reasonLabel('invalid_arguments:amount: expected an integer, got "pay_secret"')).toBe('invalid_arguments');
    expect(reasonLabel('Connection reset by pay_secret')).toBe('other');
    const text = metricsText(
      { receipts: [receipt({ result: 'refused', reason: 'invalid_arguments:amount is "pay_secret"' })], requests: [] as ApprovalRequest[], ambiguous: [] },
      { all: true },
    );
    expect(text).toContain('ctrlrun_refusals_total{action="stripe.refund",reason="invalid_arguments"} 1\n');
    expect(text).not.toContain('pay_secret');
  });

  it('a label value is escaped as the text format asks', () => {
    const text = metricsText({ receipts: [receipt({ action: 'a"b\\c\nd' })], requests: [], ambiguous: [] }, { all: true });
    expect(text).toContain('action="a\\"b\\\\c\\nd"');
  });

  it('every answer of every request, oldest first', () => {
    const r = (callId: string, ats: number[]) =>
      ({ callId, action: 'a', createdAt: 0, answers: ats.map((at) => ({ approver: 'x', decision: 'approve', at })) }) as unknown as ApprovalRequest;
    expect(answersOf([r('b', [3, 1]), r('a', [2])]).map((a) => [a.callId, a.at])).toEqual([
      ['b', 1],
      ['a', 2],
      ['b', 3],
    ]);
  });
});
