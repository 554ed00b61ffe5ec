import { RunState } from '@openai/agents';
import { afterEach, describe, expect, it } from 'vitest';
import { httpStore, run } from '../../src/runtime/index.js';
import { agentWith, assistantMessage, refundCall, refundTool, scripted, setup } from '../runtime/helpers.js';
import { api, pendingRequest, type ServeFixture, startFixture } from './helpers.js';

/**
 * Issue 24 item 5: answers leave evidence. serve sets every time (a client's `at` is ignored), and
 * every answer, refused answer and replayed approval is one receipt.
 */
let fx: ServeFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

const YEAR = 365 * 24 * 3600_000;

describe('answers leave evidence', () => {
  it("POST /api/store/addAnswer: serve's clock, never the client's `at`; one receipt per answer and per refusal", async () => {
    fx = await startFixture({ bob: ['payments-approver'], carol: ['payments-approver'], dave: [], agent: 'runtime' });
    const base = fx.serve.url;
    await fx.store.putRequest(pendingRequest('call_t', { approvalsRequired: 1 }));
    const before = Date.now();
    const ahead = await api(base, fx.tokens.bob, 'POST', '/api/store/addAnswer', {
      args: ['call_t', { approver: 'bob', decision: 'approve', at: before + YEAR }],
    });
    expect(ahead.json.result.outcome).toBe('recorded');
    const stored = await fx.store.getRequest('call_t');
    expect(stored!.answers[0]!.at).toBeLessThan(before + 60_000);
    expect(stored!.decidedAt).toBeLessThan(before + 60_000);
    expect((await fx.store.listReceipts()).map((r) => [r.result, r.approvers])).toEqual([['approved', ['bob']]]);
    // refusals: a second answer to a decided request, one without the role
    const late = await api(base, fx.tokens.carol, 'POST', '/api/store/addAnswer', { args: ['call_t', { approver: 'carol', decision: 'approve', at: 1 }] });
    expect(late.json.result.outcome).toBe('not_pending');
    const role = await api(base, fx.tokens.dave, 'POST', '/api/store/addAnswer', { args: ['call_t', { approver: 'dave', decision: 'approve', at: 1 }] });
    expect(role.status).toBe(403);
    await fx.store.putRequest(pendingRequest('call_u', { action: 'wire.send', approvalsRequired: 2 }));
    await api(base, fx.tokens.bob, 'POST', '/api/store/addAnswer', { args: ['call_u', { approver: 'bob', decision: 'approve', at: 1 }] });
    const twice = await api(base, fx.tokens.bob, 'POST', '/api/store/addAnswer', { args: ['call_u', { approver: 'bob', decision: 'approve', at: 1 }] });
    expect(twice.json.result.outcome).toBe('duplicate');
    const own = await api(base, fx.tokens.bob, 'POST', '/api/requests/call_u/answer', { decision: 'reject', reason: 'again' });
    expect(own.status).toBe(409);
    const receipts = (await fx.store.listReceipts()).map((r) => [r.call_id, r.result, r.reason, r.approvers]);
    expect(receipts).toEqual([
      ['call_t', 'approved', '1 of 1 approvals', ['bob']],
      ['call_t', 'refused', 'not_pending', ['carol']],
      ['call_t', 'refused', 'role_missing', ['dave']],
      ['call_u', 'answered', '1 of 2 approvals', ['bob']],
      ['call_u', 'refused', 'duplicate', ['bob']],
      ['call_u', 'refused', 'reject_duplicate', ['bob']],
    ]);
    for (const r of await fx.store.listReceipts()) expect(r.at).toBeLessThan(before + 60_000);
  });

  it("an answer in another approver's name is refused (403) and is one refused receipt naming who tried", async () => {
    fx = await startFixture({ bob: ['payments-approver'] });
    await fx.store.putRequest(pendingRequest('call_n', { approvalsRequired: 1 }));
    const as = await api(fx.serve.url, fx.tokens.bob, 'POST', '/api/store/addAnswer', { args: ['call_n', { approver: 'cfo', decision: 'approve' }] });
    expect(as.status).toBe(403);
    const asReject = await api(fx.serve.url, fx.tokens.bob, 'POST', '/api/store/addAnswer', {
      args: ['call_n', { approver: 'cfo', decision: 'reject', reason: 'no' }],
    });
    expect(asReject.status).toBe(403);
    expect((await fx.store.getRequest('call_n'))!.answers).toEqual([]);
    expect((await fx.store.listReceipts()).map((r) => [r.call_id, r.result, r.reason, r.approvers])).toEqual([
      ['call_n', 'refused', 'approver_not_authenticated', ['bob']],
      ['call_n', 'refused', 'reject_approver_not_authenticated', ['bob']],
    ]);
    // no request, nothing to refer to: refused, no receipt
    const none = await api(fx.serve.url, fx.tokens.bob, 'POST', '/api/store/addAnswer', { args: ['call_none', { approver: 'cfo', decision: 'approve' }] });
    expect(none.status).toBe(403);
    expect(await fx.store.listReceipts()).toHaveLength(2);
  });

  it('resuming an already-used approval is refused and leaves an approval_consumed receipt (real Runner)', async () => {
    const s = setup();
    const { tool, calls } = refundTool(s);
    const agent = agentWith(scripted([refundCall({ payment_id: 'pay_1', amount: 512_345 }, 'c1')], [assistantMessage('done')], [assistantMessage('again')]), [
      tool,
    ]);
    const paused = await run(agent, 'refund', { context: { user: 'alice' } });
    const saved = paused.state.toString();
    await s.control.request(paused.state);
    await s.store.addAnswer('c1', { approver: 'bob', decision: 'approve', at: s.clock.now() });
    await s.control.resolve(paused.state);
    await run(agent, paused.state);
    expect(calls).toHaveLength(1);
    const replay = await RunState.fromString(agent, saved);
    await s.control.resolve(replay);
    await run(agent, replay);
    expect(calls).toHaveLength(1);
    expect((await s.store.listReceipts()).at(-1)).toMatchObject({ call_id: 'c1', result: 'refused', reason: 'approval_consumed', approvers: ['bob'] });
  });

  it("httpStore says the store records answers (a Control then writes none): serve's receipt is the only one", async () => {
    fx = await startFixture({ bob: ['payments-approver'] });
    await fx.store.putRequest(pendingRequest('call_h'));
    const store = httpStore({ url: fx.serve.url, token: fx.tokens.bob! });
    expect(store.recordsAnswers).toBe(true);
    await store.addAnswer('call_h', { approver: 'bob', decision: 'approve', at: 0 });
    expect((await fx.store.listReceipts()).map((r) => r.result)).toEqual(['approved']);
  });
});
