import { afterEach, describe, expect, it } from 'vitest';
import { addOperator, readOperators, removeOperator, writeOperators } from '../../src/serve/operators.js';
import { type RunningServe, startServe } from '../../src/serve/server.js';
import { type ServeFixture, signIn as signInForm, startFixture } from './helpers.js';

/**
 * Issue 24 item 4: a session belongs to the serve (the listening address) that issued it, under a
 * cookie named for its port, and ends when its operator's token is rotated or removed.
 */
let fx: ServeFixture | undefined;
let other: RunningServe | undefined;
afterEach(async () => {
  await other?.close();
  other = undefined;
  await fx?.close();
  fx = undefined;
});

async function signIn(base: string, token: string): Promise<string> {
  return (await signInForm(base, token)).cookie;
}

const inboxStatus = async (base: string, cookie: string) => (await fetch(`${base}/`, { headers: { cookie }, redirect: 'manual' })).status;

describe('sessions', () => {
  it("the cookie is named for the listener's port; another serve on the same host does not honour it", async () => {
    fx = await startFixture({ bob: ['payments-approver'] });
    other = await startServe({
      store: fx.store,
      policy: fx.policy,
      operatorsFile: fx.operatorsFile,
      host: '127.0.0.1',
      port: 0,
      approvalTtlMs: 900_000,
      log: () => {},
    });
    const cookie = await signIn(fx.serve.url, fx.tokens.bob!);
    expect(cookie.split('=')[0]).toBe(`crg_session_${new URL(fx.serve.url).port}`);
    expect(await inboxStatus(fx.serve.url, cookie)).toBe(200);
    // the same cookie value under the other listener's name: not a session there
    const value = cookie.split('=')[1]!;
    expect(await inboxStatus(other.url, `crg_session_${new URL(other.url).port}=${value}`)).toBe(303);
    expect(await inboxStatus(other.url, cookie)).toBe(303);
  });

  it('a rotated token (remove, then add again) and a removed operator end the session at once', async () => {
    fx = await startFixture({ bob: ['payments-approver'], carol: ['payments-approver'] });
    const bob = await signIn(fx.serve.url, fx.tokens.bob!);
    const carol = await signIn(fx.serve.url, fx.tokens.carol!);
    expect(await inboxStatus(fx.serve.url, bob)).toBe(200);
    // rotate bob's token: same name and roles, a new token
    const removed = removeOperator(readOperators(fx.operatorsFile), 'bob').data;
    const rotated = addOperator(removed, { name: 'bob', kind: 'operator', roles: ['payments-approver'], now: Date.now() });
    writeOperators(fx.operatorsFile, rotated.data);
    expect(await inboxStatus(fx.serve.url, bob)).toBe(303);
    expect(await inboxStatus(fx.serve.url, await signIn(fx.serve.url, rotated.token))).toBe(200);
    expect(await inboxStatus(fx.serve.url, carol)).toBe(200);
    writeOperators(fx.operatorsFile, removeOperator(readOperators(fx.operatorsFile), 'carol').data);
    expect(await inboxStatus(fx.serve.url, carol)).toBe(303);
  });
});
