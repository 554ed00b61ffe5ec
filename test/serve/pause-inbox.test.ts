import { run as sdkRun } from '@openai/agents';
import { afterEach, describe, expect, it } from 'vitest';
import { httpStore } from '../../src/runtime/index.js';
import { agentWith, assistantMessage, refundCall, refundTool, scripted, setup } from '../runtime/helpers.js';
import { api, type ServeFixture, startFixture } from './helpers.js';

/**
 * Issue 21 item 5 through serve: an agent whose control keeps its ledger on serve (`httpStore`,
 * a runtime token) and whose run is driven by the SDK's own `run()` leaves its paused call in
 * serve's inbox with no `control.request` call; an operator answers there and the resumed call
 * runs once.
 */
let fx: ServeFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

describe("a paused call reaches serve's inbox as it pauses", () => {
  it("the SDK's own run() over httpStore: the inbox lists the call; bob approves there; the resume runs it once", async () => {
    fx = await startFixture({ bob: ['payments-approver'], agent: 'runtime' });
    const s = setup({ store: httpStore({ url: fx.serve.url, token: fx.tokens.agent! }) });
    const { tool, calls } = refundTool(s);
    const agent = agentWith(scripted([refundCall({ payment_id: 'pay_1', amount: 512_345 }, 'c1')], [assistantMessage('done')]), [tool]);
    const paused = await sdkRun(agent, 'refund pay_1', { context: { user: 'alice' } });
    expect(paused.interruptions).toHaveLength(1);

    const inbox = await api(fx.serve.url, fx.tokens.bob, 'GET', '/api/requests');
    expect(inbox.status).toBe(200);
    expect(
      (inbox.json as Array<{ callId: string; state: string; principal: string; action: string }>).map((r) => [r.callId, r.state, r.principal, r.action]),
    ).toEqual([['c1', 'pending', 'alice', 'stripe.refund']]);
    const answered = await api(fx.serve.url, fx.tokens.bob, 'POST', '/api/requests/c1/answer', { decision: 'approve' });
    expect(answered.json.outcome).toBe('recorded');

    await s.control.resolve(paused.state);
    const resumed = await sdkRun(agent, paused.state, { context: { user: 'alice' } });
    expect(resumed.finalOutput).toBe('done');
    expect(calls).toEqual([{ payment_id: 'pay_1', amount: 512_345 }]);
    expect((await fx.store.listReceipts()).map((r) => r.result)).toEqual(['requested', 'approved', 'claimed', 'executed']);
  });
});
