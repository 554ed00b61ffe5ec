import { RunState } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { GENESIS_HASH, receiptHash, run, verifyReceiptChain, verifyReceipts, type Receipt, type Store } from '../../src/runtime/index.js';
import { agentWith, assistantMessage, refundCall, refundTool, scripted, setup } from './helpers.js';

describe('observe mode', () => {
  it('nothing is blocked, paused or asked; receipts record what enforce would have done', async () => {
    const s = setup({ mode: 'observe' });
    const { tool, calls } = refundTool(s);
    const model = scripted(
      [
        refundCall({ payment_id: 'pay_1', amount: 500 }, 'c1'), // allow
        refundCall({ payment_id: 'pay_2', amount: 500_000 }, 'c2'), // approve
        refundCall({ payment_id: 'pay_3', amount: 9_000_000 }, 'c3'), // deny
      ],
      [refundCall({ payment_id: 'pay_1', amount: 500 }, 'c4')], // a duplicate effect
      [assistantMessage('done')],
    );
    const result = await run(agentWith(model, [tool]), 'refund all', { context: { user: null } });
    expect(result.interruptions).toEqual([]);
    expect(result.finalOutput).toBe('done');
    expect(calls.map((c) => c.payment_id)).toEqual(['pay_1', 'pay_2', 'pay_3', 'pay_1']);
    const receipts = await s.store.listReceipts();
    expect(receipts.every((r) => r.mode === 'observe' && r.result === 'executed')).toBe(true);
    const byCall = Object.fromEntries(receipts.map((r) => [r.call_id, [r.decision, r.reason]]));
    // no principal: enforce would have refused every call
    expect(byCall).toEqual({
      c1: ['allow', 'no_principal'],
      c2: ['approve', 'no_principal'],
      c3: ['deny', 'no_principal'],
      c4: ['allow', 'no_principal'],
    });
    expect(await s.store.listRequests()).toEqual([]);
    expect(await s.store.listEffects()).toEqual([]);
  });

  it('with a principal, the receipt carries the decision and the rule', async () => {
    const s = setup({ mode: 'observe' });
    const { tool, calls } = refundTool(s);
    const model = scripted([refundCall({ payment_id: 'pay_3', amount: 9_000_000 }, 'c1')], [assistantMessage('done')]);
    await run(agentWith(model, [tool]), 'refund', { context: { user: 'alice' } });
    expect(calls).toHaveLength(1);
    const [r] = await s.store.listReceipts();
    expect(r).toMatchObject({ decision: 'deny', reason: 'rule[2]', result: 'executed', mode: 'observe', principal: 'alice' });
  });
});

describe('receipts', () => {
  /** Allow, deny and an approval round trip: a realistic chain. */
  async function chain(): Promise<Store> {
    const s = setup();
    const { tool } = refundTool(s);
    const model = scripted(
      [refundCall({ payment_id: 'pay_1', amount: 500 }, 'c1')],
      [refundCall({ payment_id: 'pay_2', amount: 9_000_000 }, 'c2')],
      [refundCall({ payment_id: 'pay_3', amount: 500_000 }, 'c3')],
      [assistantMessage('done')],
    );
    const agent = agentWith(model, [tool]);
    const paused = await run(agent, 'go', { context: { user: 'alice' } });
    await s.control.approve(paused.state, paused.interruptions[0]!, { approver: 'bob' });
    await run(agent, await RunState.fromString(agent, paused.state.toString()));
    return s.store;
  }

  it('every decision and outcome appends one receipt; the chain verifies', async () => {
    const store = await chain();
    const receipts = await store.listReceipts();
    expect(receipts.map((r) => `${r.call_id}:${r.result}`)).toEqual([
      'c1:allowed',
      'c1:executed',
      'c2:denied',
      'c3:requested',
      'c3:approved',
      'c3:claimed',
      'c3:executed',
    ]);
    expect(receipts[0]!.prev_hash).toBe(GENESIS_HASH);
    expect(await verifyReceipts(store)).toEqual({ ok: true, count: 7 });
    expect(await verifyReceipts(store, { pageSize: 2 })).toEqual({ ok: true, count: 7 });
  });

  it('a tampered receipt is named: content_altered, link_broken (hash recomputed), missing', async () => {
    const receipts = await (await chain()).listReceipts();
    const copy = () => receipts.map((r) => ({ ...r }));

    const altered = copy();
    altered[2]!.principal = 'mallory';
    expect(verifyReceiptChain(altered)).toEqual({ ok: false, seq: 3, break: 'content_altered' });

    const rehashed = copy();
    rehashed[2]!.reason = 'rule[0]';
    const { hash: _h, ...rest } = rehashed[2]!;
    rehashed[2]!.hash = receiptHash(rest);
    expect(verifyReceiptChain(rehashed)).toEqual({ ok: false, seq: 4, break: 'link_broken' });

    const gap = copy().filter((r) => r.seq !== 5);
    expect(verifyReceiptChain(gap)).toEqual({ ok: false, seq: 5, break: 'missing' });
  });

  it('verifyReceipts reads the store: a store returning an altered receipt is caught', async () => {
    const store = await chain();
    const tampering: Store = {
      ...store,
      listReceipts: async (o) => (await store.listReceipts(o)).map((r: Receipt) => (r.seq === 6 ? { ...r, approvers: ['alice'] } : r)),
    };
    expect(await verifyReceipts(tampering)).toEqual({ ok: false, seq: 6, break: 'content_altered' });
  });
});
