import { afterEach, describe, expect, it } from 'vitest';
import { AmbiguousEffect, generateReceiptKey, httpStore, run, verifyReceipts } from '../../src/runtime/index.js';
import { addOperator, emptyOperators, writeOperators } from '../../src/serve/operators.js';
import { agentWith, assistantMessage, refundCall, refundTool, scripted, setup } from '../runtime/helpers.js';
import { api, type ServeFixture, startFixture } from './helpers.js';

/**
 * Issue 24 item 2: two tenants' agents share one serve (one SQLite store) with runtime tokens
 * (`operators add NAME --runtime --tenant T`). Each acts only on its own calls, approvals and
 * effect keys, through the SDK's real Runner on httpStore; operators see both.
 */
let fx: ServeFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

async function twoTenants() {
  fx = await startFixture({ bob: ['payments-approver'] });
  let data = emptyOperators();
  const tokens: Record<string, string> = {};
  for (const [name, tenant] of [
    ['acme-agent', 'acme'],
    ['globex-agent', 'globex'],
    ['legacy-agent', undefined],
  ] as const) {
    const added = addOperator(data, { name, kind: 'runtime', roles: [], ...(tenant ? { tenant } : {}), now: 0 });
    data = added.data;
    tokens[name] = added.token;
  }
  const bob = addOperator(data, { name: 'bob', kind: 'operator', roles: ['payments-approver'], now: 0 });
  tokens.bob = bob.token;
  writeOperators(fx.operatorsFile, bob.data);
  const store = (name: string) => httpStore({ url: fx!.serve.url, token: tokens[name]! });
  return { tokens, acme: store('acme-agent'), globex: store('globex-agent'), legacy: store('legacy-agent') };
}

const BIG = { payment_id: 'pay_1', amount: 512_345 };
const SMALL = { payment_id: 'pay_1', amount: 500 };

describe('two tenants on one serve', () => {
  it('an ambiguous effect of one tenant: the other cannot list, settle, reserve or commit it; the refund never runs twice', async () => {
    const t = await twoTenants();
    const a = setup({ store: t.acme });
    const acme = refundTool(a, () => {
      throw new Error('connection reset after commit');
    });
    await expect(run(agentWith(scripted([refundCall(SMALL, 'c1')]), [acme.tool]), 'refund', { context: { user: 'alice' } })).rejects.toBeInstanceOf(
      AmbiguousEffect,
    );
    const held = await t.acme.getEffect('refund:pay_1');
    expect(held?.state).toBe('ambiguous');

    // globex sees none of it, and whatever it names is its own
    expect(await t.globex.listEffects()).toEqual([]);
    expect(await t.globex.getEffect('refund:pay_1')).toBeNull();
    expect(await t.globex.settleEffect('refund:pay_1', held!.attemptId, 'failed', Date.now())).toBe(false);
    expect((await api(fx!.serve.url, t.tokens['globex-agent'], 'GET', '/api/effects')).json).toEqual([]);
    // globex's own refund of pay_1 runs in its own key space and leaves acme's key ambiguous
    const g = setup({ store: t.globex });
    const globex = refundTool(g);
    await run(agentWith(scripted([refundCall(SMALL, 'g1')], [assistantMessage('done')]), [globex.tool]), 'refund', { context: { user: 'gina' } });
    expect(globex.calls).toHaveLength(1);
    expect((await t.acme.getEffect('refund:pay_1'))?.state).toBe('ambiguous');
    expect((await t.globex.getEffect('refund:pay_1'))?.state).toBe('committed');

    // the default tenant cannot spell a named tenant's record
    const spelled = await api(fx!.serve.url, t.tokens['legacy-agent'], 'POST', '/api/store/settleEffect', {
      args: ['@acme:refund:pay_1', held!.attemptId, 'failed', Date.now()],
    });
    expect(spelled.status).toBe(403);
    expect(await t.legacy.listEffects()).toEqual([]);

    // acme's retry is still refused: the body ran once
    await expect(run(agentWith(scripted([refundCall(SMALL, 'c2')]), [acme.tool]), 'refund', { context: { user: 'alice' } })).rejects.toBeInstanceOf(
      AmbiguousEffect,
    );
    expect(acme.calls).toHaveLength(1);
    // the operator sees both tenants' keys, by their stored names
    const keys = (await api(fx!.serve.url, t.tokens.bob, 'GET', '/api/effects')).json.map((e: { key: string }) => e.key).sort();
    expect(keys).toEqual(['@acme:refund:pay_1', '@globex:refund:pay_1']);
  });

  it('an approval of one tenant: the other cannot list or claim it; the genuine resume runs once', async () => {
    const t = await twoTenants();
    const a = setup({ store: t.acme });
    const acme = refundTool(a);
    const agent = agentWith(scripted([refundCall(BIG, 'call_big')], [assistantMessage('done')]), [acme.tool]);
    const paused = await run(agent, 'refund', { context: { user: 'alice' } });
    await a.control.request(paused.state);

    expect(await t.globex.listRequests()).toEqual([]);
    expect(await t.globex.getRequest('call_big')).toBeNull();
    expect((await api(fx!.serve.url, t.tokens['globex-agent'], 'GET', '/api/requests')).json).toEqual([]);
    expect((await api(fx!.serve.url, t.tokens['globex-agent'], 'GET', '/api/requests/call_big')).status).toBe(404);
    const answered = await api(fx!.serve.url, t.tokens.bob, 'POST', '/api/requests/@acme:call_big/answer', { decision: 'approve' });
    expect(answered.json.outcome).toBe('recorded');
    // globex claims the same call id: nothing of acme's is named, so nothing is burnt
    expect(await t.globex.claimApproval('call_big', a.clock.now())).toEqual({ outcome: 'unknown' });
    const reserved = await t.globex.reserveEffect({
      key: 'refund:pay_1',
      action: 'stripe.refund',
      attemptId: 'x',
      maxAttempts: 1,
      now: a.clock.now(),
      leaseMs: 1000,
      claim: { callId: 'call_big', binding: { action: 'stripe.refund', argsHash: null, policyHash: a.policy.hash, principal: 'alice' } },
    });
    expect(reserved.outcome).toBe('claim_refused');
    expect((await t.acme.getRequest('call_big'))?.state).toBe('approved');

    await a.control.resolve(paused.state);
    await run(agent, paused.state);
    expect(acme.calls).toEqual([BIG]);
    expect((await t.acme.getRequest('call_big'))?.state).toBe('consumed');
    // the receipts name the tenant's calls in the stored form
    const receipts = (await api(fx!.serve.url, t.tokens.bob, 'POST', '/api/store/listReceipts', { args: [] })).json.result as Array<{ call_id: string }>;
    expect(new Set(receipts.map((r) => r.call_id))).toEqual(new Set(['@acme:call_big']));
    // a named tenant reads only its own receipts
    expect(await t.globex.listReceipts()).toEqual([]);
  });

  it("a tenant's control that signs its receipts runs (found on a public app): each receipt, stored under the tenant's names, is signed", async () => {
    const t = await twoTenants();
    const key = generateReceiptKey();
    const a = setup({ store: t.acme, receiptKey: key.secret });
    const acme = refundTool(a);
    const result = await run(agentWith(scripted([refundCall(SMALL, 'c_signed')], [assistantMessage('done')]), [acme.tool]), 'refund', {
      context: { user: 'alice' },
    });
    expect(result.finalOutput).toBe('done');
    expect(acme.calls).toEqual([SMALL]);
    const stored = await fx!.store.listReceipts();
    expect(stored.filter((r) => r.action === 'ctrlrun.checkpoint')).toHaveLength(2);
    expect(stored.filter((r) => r.call_id === '@acme:c_signed').map((r) => r.result)).toEqual(['allowed', 'executed']);
    expect(await verifyReceipts(fx!.store, { publicKey: key.publicKey })).toMatchObject({ ok: true });
    // the default tenant (plain names, no `names` in the answer) signs as before
    const l = setup({ store: t.legacy, receiptKey: key.secret });
    const legacy = refundTool(l);
    await run(agentWith(scripted([refundCall(SMALL, 'l1')], [assistantMessage('done')]), [legacy.tool]), 'refund', { context: { user: 'lee' } });
    expect(legacy.calls).toHaveLength(1);
  });

  it('a tenant name is plain', () => {
    expect(() => addOperator(emptyOperators(), { name: 'a', kind: 'runtime', roles: [], tenant: 'Acme:x', now: 0 })).toThrow(/not a tenant name/);
  });
});
