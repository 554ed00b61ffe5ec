import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { addOperator, readOperators, removeOperator, writeOperators } from '../../src/serve/operators.js';
import { type RunningServe, startServe } from '../../src/serve/server.js';
import { type ServeFixture, signIn as signInForm, startFixture } from './helpers.js';

/**
 * Issue 24 item 4, issue 37 item 3: a session belongs to the web origin of the serve that issued it
 * (its public URL, else its listening address), under a cookie named for that port, lives in the
 * store as the hash of its secret, and ends when its operator's token is rotated or removed, when
 * its operator signs out, or when a serve of that origin starts.
 */
let fx: ServeFixture | undefined;
let other: RunningServe | undefined;
afterEach(async () => {
  await other?.close();
  other = undefined;
  await fx?.close();
  fx = undefined;
});

async function signInCookie(base: string, token: string): Promise<string> {
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
    const cookie = await signInCookie(fx.serve.url, fx.tokens.bob!);
    expect(cookie.split('=')[0]).toBe(`crg_session_${new URL(fx.serve.url).port}`);
    expect(await inboxStatus(fx.serve.url, cookie)).toBe(200);
    // the same cookie value under the other listener's name: not a session there
    const value = cookie.split('=')[1]!;
    expect(await inboxStatus(other.url, `crg_session_${new URL(other.url).port}=${value}`)).toBe(303);
    expect(await inboxStatus(other.url, cookie)).toBe(303);
  });

  it('a rotated token (remove, then add again) and a removed operator end the session at once', async () => {
    fx = await startFixture({ bob: ['payments-approver'], carol: ['payments-approver'] });
    const bob = await signInCookie(fx.serve.url, fx.tokens.bob!);
    const carol = await signInCookie(fx.serve.url, fx.tokens.carol!);
    expect(await inboxStatus(fx.serve.url, bob)).toBe(200);
    // rotate bob's token: same name and roles, a new token
    const removed = removeOperator(readOperators(fx.operatorsFile), 'bob').data;
    const rotated = addOperator(removed, { name: 'bob', kind: 'operator', roles: ['payments-approver'], now: Date.now() });
    writeOperators(fx.operatorsFile, rotated.data);
    expect(await inboxStatus(fx.serve.url, bob)).toBe(303);
    expect(await inboxStatus(fx.serve.url, await signInCookie(fx.serve.url, rotated.token))).toBe(200);
    expect(await inboxStatus(fx.serve.url, carol)).toBe(200);
    writeOperators(fx.operatorsFile, removeOperator(readOperators(fx.operatorsFile), 'carol').data);
    expect(await inboxStatus(fx.serve.url, carol)).toBe(303);
  });
});

describe('sessions in the store (issue 37)', () => {
  it('behind TLS (an https public URL) the cookie is __Host- prefixed and Secure; only the hash of its secret is stored', async () => {
    fx = await startFixture({ bob: ['payments-approver'] }, { publicUrl: 'https://approvals.example.com' });
    const { setCookie, cookie } = await signInForm(fx.serve.url, fx.tokens.bob!);
    expect(setCookie).toMatch(/^__Host-crg_session_443=/);
    expect(setCookie).toMatch(/; Secure/);
    expect(setCookie).toMatch(/; Path=\//);
    expect(setCookie).not.toMatch(/Domain=/i);
    const secret = cookie.split('=')[1]!;
    expect(await fx.store.getSession!(createHash('sha256').update(secret).digest('hex'))).toMatchObject({
      name: 'bob',
      origin: 'https://approvals.example.com',
    });
    expect(await fx.store.getSession!(secret)).toBeNull();
  });

  it('a restart of serve (over the same SQLite store and public URL) ends every session; signing out ends one', async () => {
    fx = await startFixture({ bob: ['payments-approver'], carol: ['payments-approver'] }, { publicUrl: 'http://127.0.0.1:65002' });
    const bob = await signInForm(fx.serve.url, fx.tokens.bob!);
    const carol = await signInForm(fx.serve.url, fx.tokens.carol!);
    expect(await inboxStatus(fx.serve.url, bob.cookie)).toBe(200);
    const out = await fetch(`${fx.serve.url}/logout`, {
      method: 'POST',
      headers: { cookie: carol.cookie },
      body: new URLSearchParams({ csrf: carol.csrf }),
      redirect: 'manual',
    });
    expect(out.status).toBe(303);
    expect(await inboxStatus(fx.serve.url, carol.cookie)).toBe(303);
    other = await startServe({
      store: fx.store,
      policy: fx.policy,
      operatorsFile: fx.operatorsFile,
      host: '127.0.0.1',
      port: 0,
      publicUrl: 'http://127.0.0.1:65002',
      approvalTtlMs: 900_000,
      log: () => {},
    });
    expect(await inboxStatus(fx.serve.url, bob.cookie)).toBe(303);
    expect(await inboxStatus(other.url, bob.cookie)).toBe(303);
  });
});
