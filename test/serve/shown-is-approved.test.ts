import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { canonicalHash } from '../../src/runtime/canonical.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { api, pendingRequest, type ServeFixture, signIn, startFixture } from './helpers.js';

/**
 * Issue 24 item 3: the inbox shows what is approved. A stored request whose `args` text is not
 * what its `argsHash` binds is never answerable (page, API, store API), and bidi controls in the
 * model's arguments are shown escaped and marked in a real browser (Debian's chromium).
 */
const CHROMIUM = process.env.CTRLRUN_CHROMIUM ?? '/usr/bin/chromium';
const ARTIFACTS = path.join(REPO_ROOT, 'test-artifacts', 'serve');

const bound = (args: Record<string, unknown>) => ({ args: JSON.stringify(args), argsHash: canonicalHash(args) });
const genuine = { amount: 512345, payment_id: 'pay_42' };

let fx: ServeFixture | undefined;

/** Signs in as the browser does (the login form's CSRF token and cookie, then the session cookie) and reads the inbox. */
async function inboxHtml(base: string, token: string): Promise<string> {
  const { cookie } = await signIn(base, token);
  return (await fetch(`${base}/`, { headers: { cookie } })).text();
}

describe('the shown arguments are the approved ones', () => {
  afterEach(async () => {
    await fx?.close();
    fx = undefined;
  });

  it('args that differ from argsHash: refused on the API and the page, with a receipt; a bound request is answered', async () => {
    fx = await startFixture({ bob: ['payments-approver'] });
    const base = fx.serve.url;
    // what runs is the genuine call (its hash); what the operator would read is another one
    await fx.store.putRequest(pendingRequest('call_swap', { argsHash: canonicalHash(genuine), args: JSON.stringify({ amount: 100, payment_id: 'pay_42' }) }));
    const answered = await api(base, fx.tokens.bob, 'POST', '/api/requests/call_swap/answer', { decision: 'approve' });
    expect(answered.status).toBe(409);
    expect(answered.json.error).toBe('args_mismatch');
    expect((await fx.store.getRequest('call_swap'))?.state).toBe('pending');
    expect((await fx.store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([['refused', 'args_mismatch']]);
    await fx.store.putRequest(pendingRequest('call_ok', bound(genuine)));
    expect((await api(base, fx.tokens.bob, 'POST', '/api/requests/call_ok/answer', { decision: 'approve' })).json.outcome).toBe('recorded');
  });

  it('the inbox marks a request whose args differ from its argsHash (and only it)', async () => {
    fx = await startFixture({ bob: ['payments-approver'] });
    await fx.store.putRequest(pendingRequest('call_swap', { argsHash: canonicalHash(genuine), args: JSON.stringify({ amount: 100, payment_id: 'pay_42' }) }));
    await fx.store.putRequest(pendingRequest('call_ok', bound(genuine)));
    const html = await inboxHtml(fx.serve.url, fx.tokens.bob!);
    const cards = html.split('data-testid="request"').slice(1);
    const swap = cards.find((c) => c.includes('call_swap'))!;
    const ok = cards.find((c) => c.includes('call_ok'))!;
    expect(swap).toContain('data-testid="args-mismatch"');
    expect(ok).not.toContain('args-mismatch');
  });
});

describe('bidi controls in the inbox (headless chromium)', { timeout: 180_000 }, () => {
  let context: BrowserContext;
  let profile: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)`);
    mkdirSync(ARTIFACTS, { recursive: true });
    fx = await startFixture({ bob: ['payments-approver'] });
    profile = mkdtempSync(path.join(tmpdir(), 'ctrlrun-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
  });
  afterAll(async () => {
    await context?.close();
    await fx?.close();
    fx = undefined;
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('U+202E in an argument is shown escaped and marked, never reordered; a swapped request offers no answer form', async () => {
    const account = 'acct-\u202e7654-3210';
    await fx!.store.putRequest(pendingRequest('call_bidi', bound({ amount: 512345, payment_id: account })));
    await fx!.store.putRequest(
      pendingRequest('call_swap', { argsHash: canonicalHash(genuine), args: JSON.stringify({ amount: 100, payment_id: 'pay_42' }), createdAt: 8.64e15 + 1 }),
    );
    const page = await context.newPage();
    await page.goto(`${fx!.serve.url}/login`);
    await page.fill('input[name=token]', fx!.tokens.bob!);
    await page.click('button[type=submit]');
    await page.waitForURL(`${fx!.serve.url}/`);
    // the inbox renders (one createdAt is out of Date's range) and marks the escaped text
    expect(await page.locator('[data-testid=request]').count()).toBe(2);
    expect(await page.locator('[data-testid=escaped]').first().innerText()).toContain('\\u{202e}');
    await page.goto(`${fx!.serve.url}/requests/call_bidi`);
    const cell = page.locator('[data-testid=arguments] [data-testid=escaped]');
    expect(await cell.count()).toBe(1);
    const shown = await cell.innerText();
    expect(shown).toContain('acct-\\u{202e}7654-3210');
    expect(shown).not.toContain('\u202e');
    await page.screenshot({ path: path.join(ARTIFACTS, 'bidi-escaped.png'), fullPage: true });
    await page.goto(`${fx!.serve.url}/requests/call_swap`);
    expect(await page.locator('form.answer').count()).toBe(0);
    expect(await page.locator('p.msg.err').innerText()).toContain('argsHash binds');
    expect(await page.content()).toContain('invalid time');
  });
});
