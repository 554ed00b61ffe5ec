import { describe, expect, it } from 'vitest';
import { withoutNegativeZero } from '../../src/runtime/core/arguments.js';
import { run, verifyReceipts } from '../../src/runtime/index.js';
import { agentWith, assistantMessage, functionCall, refundCall, refundTool, scripted, setup, toolOutputSeen } from './helpers.js';

describe('allow and deny through the Runner', () => {
  it('allow: the body runs once and a receipt records the outcome', async () => {
    const s = setup();
    const { tool, calls } = refundTool(s);
    const model = scripted([refundCall({ payment_id: 'pay_1', amount: 500 }, 'c1')], [assistantMessage('done')]);
    const result = await run(agentWith(model, [tool]), 'refund pay_1', { context: { user: 'alice' } });
    expect(result.finalOutput).toBe('done');
    expect(calls).toEqual([{ payment_id: 'pay_1', amount: 500 }]);
    expect(toolOutputSeen(model, 1, 'c1')).toBe('refunded');
    const receipts = await s.store.listReceipts();
    expect(receipts.map((r) => r.result)).toEqual(['allowed', 'executed']);
    for (const r of receipts) {
      expect(r).toMatchObject({
        action: 'stripe.refund',
        call_id: 'c1',
        principal: 'alice',
        decision: 'allow',
        effect_key: 'refund:pay_1',
        reason: 'rule[0]',
        mode: 'enforce',
        environment: 'test',
      });
    }
    expect((await s.store.getEffect('refund:pay_1'))?.state).toBe('committed');
    expect(await verifyReceipts(s.store)).toEqual({ ok: true, count: 2 });
  });

  it('deny: the body never runs, the model gets a refusal naming the action and reason (not "try again"), the run goes on', async () => {
    const s = setup();
    const { tool, calls } = refundTool(s);
    const model = scripted([refundCall({ payment_id: 'pay_1', amount: 5_000_000 }, 'c1')], [assistantMessage('I could not refund that')]);
    const result = await run(agentWith(model, [tool]), 'refund pay_1', { context: { user: 'alice' } });
    expect(calls).toEqual([]);
    expect(result.finalOutput).toBe('I could not refund that');
    const seen = toolOutputSeen(model, 1, 'c1');
    expect(seen).toContain('stripe.refund');
    expect(seen).toContain('denied by policy: rule[2]');
    expect(seen).toContain('did not run and must not be retried');
    expect(seen?.toLowerCase()).not.toContain('try again');
    const receipts = await s.store.listReceipts();
    expect(receipts.map((r) => [r.decision, r.result, r.reason])).toEqual([['deny', 'denied', 'rule[2]']]);
    expect(await s.store.getEffect('refund:pay_1')).toBe(null);
  });

  it("a float anywhere in the model's JSON refuses the call (invalid_argument), even `500.0` the SDK reads as 500 and a field no rule reads", async () => {
    const s = setup();
    const { tool, calls } = refundTool(s);
    const model = scripted(
      [refundCall('{"payment_id": "pay_1", "amount": 500.0}', 'c1'), refundCall('{"payment_id": "pay_2", "amount": 500, "fee": 0.5}', 'c2')],
      [assistantMessage('could not')],
    );
    await run(agentWith(model, [tool]), 'refund', { context: { user: 'alice' } });
    expect(calls).toEqual([]);
    expect(toolOutputSeen(model, 1, 'c1')).toContain('a float is not an allowed argument');
    expect(toolOutputSeen(model, 1, 'c2')).toContain('a float is not an allowed argument');
    const receipts = await s.store.listReceipts();
    expect(receipts.map((r) => [r.call_id, r.decision, r.result, r.reason])).toEqual([
      ['c1', 'deny', 'refused', 'invalid_argument'],
      ['c2', 'deny', 'refused', 'invalid_argument'],
    ]);
  });

  it('an action the policy does not list is denied with reason unknown_action', async () => {
    // offerAllTools: by default such a tool is not offered at all (least exposure, exposure-doors.test.ts)
    const s = setup({ offerAllTools: true });
    const calls: unknown[] = [];
    const t = s.protectedTool('stripe.unknown' as 'stripe.refund', {
      name: 'refund_unlisted',
      description: 'x',
      parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
      execute: async () => void calls.push(1),
    });
    const model = scripted([functionCall('refund_unlisted', {}, { callId: 'c1' })], [assistantMessage('ok')]);
    await run(agentWith(model, [t]), 'go', { context: { user: 'alice' } });
    expect(calls).toEqual([]);
    expect(toolOutputSeen(model, 1, 'c1')).toContain('unknown_action');
  });
});

describe('a structured tool (outputSchema) without an errorFunction', () => {
  it('deny cannot be schema-valid text: run() throws ActionDenied, the body never runs', async () => {
    const { z } = await import('zod');
    const { ActionDenied } = await import('../../src/runtime/index.js');
    const s = setup();
    const calls: unknown[] = [];
    const t = s.protectedTool('stripe.refund', {
      name: 'refund',
      description: 'refund',
      parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
      outputSchema: z.object({ refundId: z.string() }),
      execute: async () => {
        calls.push(1);
        return { refundId: 're_1' };
      },
    });
    const model = scripted([refundCall({ payment_id: 'pay_1', amount: 9_999_999 }, 'c1')]);
    const error = await run(agentWith(model, [t]), 'refund', { context: { user: 'alice' } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ActionDenied);
    expect((error as InstanceType<typeof ActionDenied>).reason).toBe('rule[2]');
    expect(calls).toEqual([]);
  });
});

describe('-0 in the arguments (red team #13)', () => {
  it('decided as 0 and run with 0: the body sees the value the policy decided on, and the run goes on', async () => {
    const s = setup();
    const { tool, calls } = refundTool(s);
    const model = scripted([refundCall('{"payment_id": "pay_1", "amount": -0}', 'c1')], [assistantMessage('done')]);
    const result = await run(agentWith(model, [tool]), 'refund', { context: { user: 'alice' } });
    expect(result.finalOutput).toBe('done');
    expect(calls).toEqual([{ payment_id: 'pay_1', amount: 0 }]);
    expect(Object.is((calls[0] as { amount: number }).amount, 0)).toBe(true);
    expect((await s.store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([
      ['allowed', 'rule[0]'],
      ['executed', 'rule[0]'],
    ]);
  });

  it('withoutNegativeZero: every -0 at any depth becomes 0; a value with none is returned as it is', () => {
    const out = withoutNegativeZero({ a: [-0, { b: -0 }, 1], c: 'x', d: null }) as { a: [number, { b: number }, number] };
    expect([Object.is(out.a[0], 0), Object.is(out.a[1].b, 0), out.a[2]]).toEqual([true, true, 1]);
    const none = { a: [0, { b: 2 }], c: 'x' };
    expect(withoutNegativeZero(none)).toBe(none);
    expect(Object.is(withoutNegativeZero(-0), 0)).toBe(true);
  });
});
