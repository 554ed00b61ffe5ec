import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../../src/runtime/index.js';
import { agentWith, assistantMessage, refundCall, refundTool, scripted, setup, toolOutputSeen } from '../runtime/helpers.js';
import { api } from './helpers.js';
import { type TenantsFixture, twoTenants } from './tenant-fixture.js';

/**
 * Issue 38 through serve: answers with edits, responses and grants from the JSON API, by
 * authenticated operators, to agents on httpStore in two tenants (the real Runner), with serve's
 * clock deciding which grants are active and `--max-grant-hours` bounding them.
 */
let fx: TenantsFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

const refund = (amount: number, id = 'pay_1') => ({ payment_id: id, amount });

async function pausedOn(tenant: 'acme' | 'globex', callId: string, amount = 250_000) {
  const s = setup({ store: fx!.http(tenant) });
  const { tool, calls } = refundTool(s, (a) => `refunded ${a.amount}`);
  const model = scripted([refundCall(refund(amount), callId)], [assistantMessage('done')]);
  const agent = agentWith(model, [tool]);
  const result = await run(agent, 'refund', { context: { user: 'alice' } });
  expect(result.interruptions).toHaveLength(1);
  return { s, tool, calls, model, agent, result };
}

describe('edits, responses and grants through serve', () => {
  it("an operator approves acme's refund with a smaller amount and a grant: the edit runs once, the next call within the grant runs unpaused; globex's alice is not covered", async () => {
    fx = await twoTenants({ kind: 'sqlite' }, { maxGrantHours: 4 });
    const p = await pausedOn('acme', 'c1');
    const answered = await api(fx.serve.url, fx.tokens.ann, 'POST', '/api/requests/c1/answer', {
      decision: 'approve',
      arguments: refund(200_000),
      grant: { hours: 2, bounds: { amount_lte: 300_000 } },
    });
    expect(answered.status).toBe(200);
    expect(answered.json.message).toMatch(/with changes \(amount 250000 → 200000\)/);
    expect(answered.json.message).toMatch(/Granted the same \(rule\[1\], \{"amount_lte":300000\}\) to alice/);
    await p.s.control.resolve(p.result.state);
    await run(p.agent, p.result.state);
    expect(p.calls).toEqual([refund(200_000)]);
    expect(toolOutputSeen(p.model, 1, 'c1')).toContain('Approved with changes by ann: amount 250000 → 200000');

    // the next call of acme's alice within the bounds runs without a pause, naming the grant
    const next = await run(agentWith(scripted([refundCall(refund(150_000, 'pay_2'), 'c2')], [assistantMessage('done')]), [p.tool]), 'again', {
      context: { user: 'alice' },
    });
    expect(next.interruptions).toHaveLength(0);
    expect(p.calls).toEqual([refund(200_000), refund(150_000, 'pay_2')]);
    const grants = (await api(fx.serve.url, fx.tokens.ann, 'GET', '/api/grants')).json;
    expect(grants).toHaveLength(1);
    const receipts = await fx.http('acme').listReceipts();
    expect(receipts.filter((r) => r.call_id === 'c2').map((r) => [r.result, r.approval_grant])).toEqual([
      ['claimed', grants[0].id],
      ['executed', grants[0].id],
    ]);
    // globex's alice is another tenant's: not covered, and globex sees no grant
    const g = await pausedOn('globex', 'c3', 150_000);
    expect(g.calls).toEqual([]);
    expect(await fx.http('globex').listGrants!({})).toEqual([]);
    expect(await fx.http('globex').getGrant!(grants[0].id)).toBeNull();
    expect((await api(fx.serve.url, fx.tokens.globex, 'GET', '/api/grants')).json).toEqual([]);
  });

  it("a grant past serve's --max-grant-hours, an edit into deny, and a tenant's operator revoking another tenant's grant are refused", async () => {
    fx = await twoTenants({ kind: 'sqlite' }, { maxGrantHours: 4 });
    await pausedOn('acme', 'c1');
    const long = await api(fx.serve.url, fx.tokens.ann, 'POST', '/api/requests/c1/answer', { decision: 'approve', grant: { hours: 5 } });
    expect([long.status, long.json.error]).toEqual([409, 'grant_too_long']);
    const denied = await api(fx.serve.url, fx.tokens.ann, 'POST', '/api/requests/c1/answer', { decision: 'approve', arguments: refund(5_000_000) });
    expect([denied.status, denied.json.error]).toEqual([409, 'edit_denied']);
    expect((await fx.http('acme').getRequest('c1'))?.answers).toEqual([]);
    const refused = (await fx.http('acme').listReceipts()).filter((r) => r.result === 'refused').map((r) => [r.reason, r.approvers]);
    expect(refused).toEqual([
      ['grant_too_long', ['ann']],
      ['edit_denied', ['ann']],
    ]);

    // globex's grant (answered by bob, who acts on every tenant): ann (acme's) cannot see or revoke it
    await pausedOn('globex', 'g1');
    expect((await api(fx.serve.url, fx.tokens.bob, 'POST', '/api/requests/@globex:g1/answer', { decision: 'approve', grant: { hours: 1 } })).status).toBe(200);
    const [grant] = (await api(fx.serve.url, fx.tokens.bob, 'GET', '/api/grants')).json;
    expect((await api(fx.serve.url, fx.tokens.ann, 'POST', `/api/grants/${grant.id}/revoke`)).status).toBe(404);
    expect((await api(fx.serve.url, fx.tokens.globex, 'POST', `/api/grants/${grant.id}/revoke`)).status).toBe(403);
    const revoked = await api(fx.serve.url, fx.tokens.bob, 'POST', `/api/grants/${grant.id}/revoke`);
    expect([revoked.status, revoked.json.grant.revokedBy]).toEqual([200, 'bob']);
    expect((await api(fx.serve.url, fx.tokens.bob, 'POST', `/api/grants/${grant.id}/revoke`)).status).toBe(409);
  });

  it("a grant expires on serve's clock: an agent whose own clock is behind still pauses", async () => {
    fx = await twoTenants({ kind: 'sqlite' }, { maxGrantHours: 1 });
    const start = Date.now();
    fx.clock.now = start;
    const p = await pausedOn('acme', 'c1');
    await api(fx.serve.url, fx.tokens.ann, 'POST', '/api/requests/c1/answer', { decision: 'approve', grant: { hours: 1 } });
    await p.s.control.resolve(p.result.state);
    await run(p.agent, p.result.state);
    // serve's clock moves past the grant; the agent's own (the test's manual clock) stays where it was
    fx.clock.now = start + 3_600_001;
    const next = await run(agentWith(scripted([refundCall(refund(150_000, 'pay_2'), 'c2')], [assistantMessage('done')]), [p.tool]), 'again', {
      context: { user: 'alice' },
    });
    expect(next.interruptions).toHaveLength(1);
  });

  it('a response through the API: the tool does not run, the model reads it', async () => {
    fx = await twoTenants({ kind: 'sqlite' });
    const p = await pausedOn('acme', 'c1');
    const answered = await api(fx.serve.url, fx.tokens.ann, 'POST', '/api/requests/c1/answer', {
      decision: 'respond',
      result: 'Already refunded on 2 May (re_77).\nNothing to do.',
    });
    expect(answered.status).toBe(200);
    await p.s.control.resolve(p.result.state);
    await run(p.agent, p.result.state);
    expect(p.calls).toEqual([]);
    expect(toolOutputSeen(p.model, 1, 'c1')).toBe('Already refunded on 2 May (re_77).\nNothing to do.');
    const bad = await api(fx.serve.url, fx.tokens.ann, 'POST', '/api/requests/c1/answer', { decision: 'respond', result: 'x\u001b[31m' });
    expect(bad.status).toBe(400);
  });
});
