import { RunContext } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parsePolicy } from '../../src/policy/load.js';
import { compilePolicy } from '../../src/policy-test/decider.js';
import { ApprovalMismatch, run, type CompiledPolicy } from '../../src/runtime/index.js';
import { agentWith, assistantMessage, refundCall, scripted, setup, toolOutputSeen, type Ctx } from './helpers.js';

/**
 * `neverPauses` (issue 39): `generate` marks an action no rule of which decides `approve`, and the
 * SDK's `needsApproval` then answers false without reading the call's arguments (no JSON text, no
 * second schema parse). The schema below counts its parses, so the tests see the work done or not.
 */
function countingRefund(s: ReturnType<typeof setup>, mark: (policy: CompiledPolicy) => void) {
  mark(s.policy);
  const counted = { parses: 0 };
  const calls: unknown[] = [];
  const tool = s.protectedTool('stripe.refund', {
    name: 'refund',
    description: 'Refund a payment',
    parameters: z.object({ payment_id: z.string(), amount: z.number().int() }).refine(() => {
      counted.parses++;
      return true;
    }),
    execute: async (args) => {
      calls.push(args);
      return 'refunded';
    },
  });
  const needsApproval = (amount: number, callId: string) =>
    (tool as unknown as { needsApproval: (rc: RunContext<Ctx>, input: unknown, callId: string) => Promise<boolean> }).needsApproval(
      new RunContext<Ctx>({ user: 'alice' }),
      { payment_id: 'pay_1', amount },
      callId,
    );
  return { tool, calls, counted, needsApproval };
}

/** The refund action with its `approve` rule replaced: allow up to 100000, deny above. */
function withoutApproveRule(policy: CompiledPolicy) {
  const refund = policy.actions['stripe.refund']!;
  const decide = refund.decide;
  (policy.actions as Record<string, unknown>)['stripe.refund'] = {
    ...refund,
    decide: (args: unknown) => {
      const d = decide(args);
      return d.decision === 'approve' ? { decision: 'deny', rule: 2, reason: 'rule[2]' } : d;
    },
    neverPauses: true,
  };
}

describe('an action that can never pause', () => {
  it('answers needsApproval false without parsing its arguments; one that can pause still parses and pauses', async () => {
    const never = countingRefund(setup(), withoutApproveRule);
    expect(await never.needsApproval(500, 'c1')).toBe(false);
    expect(await never.needsApproval(500_000, 'c2')).toBe(false);
    expect(never.counted.parses).toBe(0);

    const may = countingRefund(setup(), () => {});
    expect(await may.needsApproval(500, 'c1')).toBe(false);
    expect(may.counted.parses).toBeGreaterThan(0); // the argument work the flag skips
    expect(await may.needsApproval(500_000, 'c2')).toBe(true);
  });

  it('through the Runner: allowed calls run once and denied ones are refused, as without the flag', async () => {
    const s = setup();
    const { tool, calls } = countingRefund(s, withoutApproveRule);
    const model = scripted(
      [refundCall({ payment_id: 'pay_1', amount: 500 }, 'c1'), refundCall({ payment_id: 'pay_2', amount: 500_000 }, 'c2')],
      [assistantMessage('done')],
    );
    const result = await run(agentWith(model, [tool]), 'refund', { context: { user: 'alice' } });
    expect(result.interruptions).toEqual([]);
    expect(calls).toEqual([{ payment_id: 'pay_1', amount: 500 }]);
    expect(toolOutputSeen(model, 1, 'c2')).toContain('denied by policy: rule[2]');
    const receipts = await s.store.listReceipts();
    expect(receipts.map((r) => [r.call_id, r.result])).toEqual([
      ['c2', 'denied'],
      ['c1', 'allowed'],
      ['c1', 'executed'],
    ]);
  });

  it('a policy that can pause still pauses through the Runner', async () => {
    const s = setup();
    const { tool, calls } = countingRefund(s, () => {});
    const model = scripted([refundCall({ payment_id: 'pay_1', amount: 500_000 }, 'c1')], [assistantMessage('done')]);
    const result = await run(agentWith(model, [tool]), 'refund', { context: { user: 'alice' } });
    expect(result.interruptions.map((i) => i.rawItem)).toMatchObject([{ callId: 'c1' }]);
    expect(calls).toEqual([]);
    expect((await s.store.getRequest('c1'))?.state).toBe('pending');
  });

  it('fails closed when the flag is wrong: an approve call stops unrun, never runs unasked', async () => {
    const s = setup();
    const { tool, calls } = countingRefund(s, (policy) => {
      (policy.actions as Record<string, unknown>)['stripe.refund'] = { ...policy.actions['stripe.refund'], neverPauses: true };
    });
    const model = scripted([refundCall({ payment_id: 'pay_1', amount: 500_000 }, 'c1')], [assistantMessage('done')]);
    // no approval is on record for it: the body's authorization stops the run, as for an approval the SDK alone holds
    await expect(run(agentWith(model, [tool]), 'refund', { context: { user: 'alice' } })).rejects.toThrow(ApprovalMismatch);
    expect(calls).toEqual([]);
    expect((await s.store.listReceipts()).map((r) => [r.decision, r.result])).toEqual([['approve', 'refused']]);
  });

  it('is written by generate on exactly the actions no rule of which decides approve (written as rules or bare)', () => {
    const text = [
      'schema: ctrlrun.policy/v6',
      'actions:',
      '  ruled.never:',
      '    rules:',
      '      - when: { amount_lte: 100 }',
      '        decision: allow',
      '      - decision: deny',
      '  ruled.pauses:',
      '    rules:',
      '      - when: { amount_lte: 100 }',
      '        decision: allow',
      '      - when: { amount_lte: 1000 }',
      '        decision: approve',
      '  bare.allow:',
      '    decision: allow',
      '  bare.approve:',
      '    decision: approve',
      '',
    ].join('\n');
    const loaded = parsePolicy(text, 'ctrlrun.yaml');
    expect(loaded.value).toBeDefined();
    const { actions } = compilePolicy(loaded.value!);
    expect(Object.fromEntries(Object.entries(actions).map(([id, a]) => [id, a.neverPauses === true]))).toEqual({
      'ruled.never': true,
      'ruled.pauses': false,
      'bare.allow': true,
      'bare.approve': false,
    });
    // the flag and the decision function come from the same rules: a marked action never decides approve
    for (const amount of [0, 100, 101, 1000, 1001]) expect(actions['ruled.never']!.decide({ amount }).decision).not.toBe('approve');
    expect(actions['ruled.pauses']!.decide({ amount: 500 }).decision).toBe('approve');
  });
});
