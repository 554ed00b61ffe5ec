import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServeFixture, signIn, startFixture } from './helpers.js';

let fx: ServeFixture;
beforeAll(async () => {
  fx = await startFixture({ bob: [], agent: 'runtime' });
});
afterAll(async () => fx.close());

async function post(route: string, session: { cookie: string; csrf: string }, form: Record<string, string>) {
  const res = await fetch(`${fx.serve.url}${route}`, {
    method: 'POST',
    headers: { Cookie: session.cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf: session.csrf, ...form }),
    redirect: 'manual',
  });
  return { status: res.status, text: await res.text() };
}

describe("the inbox's halts page", () => {
  it('halts and lifts with the step-up (the token again), recorded under the signed-in operator', async () => {
    const session = await signIn(fx.serve.url, fx.tokens.bob!);
    const page = await fetch(`${fx.serve.url}/halts`, { headers: { Cookie: session.cookie } });
    expect(await page.text()).toContain('0 in force');
    // the session alone never halts
    const bare = await post('/halts', session, { target: 'action', value: 'stripe.refund', reason: 'incident' });
    expect(bare.status).toBe(401);
    expect((await fx.store.readHalts!()).halts).toEqual([]);
    const set = await post('/halts', session, { target: 'action', value: 'stripe.refund', reason: 'incident', hard: 'true', token: fx.tokens.bob! });
    expect(set.status).toBe(200);
    expect(set.text).toContain('Halted action stripe.refund (hard: ends the run)');
    const [halt] = (await fx.store.readHalts!()).halts;
    expect(halt).toMatchObject({ target: 'action', value: 'stripe.refund', hard: true, by: 'bob', reason: 'incident' });
    const refused = await post('/halts', session, { target: 'run', value: '', reason: 'x', token: fx.tokens.bob! });
    expect(refused.status).toBe(400);
    expect((await post('/halts/lift', session, { id: halt!.id })).status).toBe(401);
    const lifted = await post('/halts/lift', session, { id: halt!.id, reason: 'fixed', token: fx.tokens.bob! });
    expect(lifted.status).toBe(200);
    expect((await fx.store.readHalts!()).halts).toEqual([]);
    const trail = (await fx.store.listReceipts()).filter((r) => r.action === 'ctrlrun.halt');
    expect(trail.map((r) => [r.result, r.approvers, r.reason])).toEqual([
      ['halted', ['bob'], 'action stripe.refund (hard: ends the run): incident'],
      ['lifted', ['bob'], 'action stripe.refund (hard: ends the run): fixed'],
    ]);
  });
});
