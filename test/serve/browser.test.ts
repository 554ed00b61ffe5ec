import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyRuns, spawnAgentChild } from '../stores/child-process.js';
import { CHROMIUM, requireChromium, SKIP_BROWSER } from '../helpers/chromium.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { type ServeFixture, startFixture } from './helpers.js';

/**
 * The inbox in a real browser: Debian's chromium, driven by playwright-core (no browser download).
 * Screenshots land in test-artifacts/serve/ (git-ignored).
 */
const ARTIFACTS = path.join(REPO_ROOT, 'test-artifacts', 'serve');

describe.skipIf(SKIP_BROWSER)('serve in a real browser (headless chromium)', { timeout: 180_000 }, () => {
  let fx: ServeFixture;
  let context: BrowserContext;
  let profile: string;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    requireChromium();
    mkdirSync(ARTIFACTS, { recursive: true });
    fx = await startFixture({ alice: ['payments-approver'], bob: ['payments-approver'] });
    profile = mkdtempSync(path.join(tmpdir(), 'ctrlrun-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
      viewport: { width: 412, height: 915 }, // a phone
    });
  });
  afterAll(async () => {
    await context?.close();
    await fx?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  async function signIn(page: Page, token: string): Promise<void> {
    await page.goto(`${fx.serve.url}/`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.fill('input[name=token]', token);
    await page.click('button[type=submit]');
    await page.waitForURL(`${fx.serve.url}/`);
  }

  it("a paused refund shows up; the requester's approval is refused on screen; a second operator approves; the agent resumes and runs once; the receipt names the authenticated approver", async () => {
    const stateFile = path.join(fx.dir, 'state.json');
    const countFile = path.join(fx.dir, 'count.log');
    const callId = 'call_browser_refund';
    const store = { kind: 'sqlite', path: path.join(fx.dir, 'state.db') };
    const paused = spawnAgentChild({
      mode: 'pause',
      store,
      stateFile,
      countFile,
      callId,
      user: 'alice',
      args: { payment_id: 'pay_<b>42</b>', amount: 512_345 },
    });
    await paused.waitFor((e) => e.paused === callId);
    await paused.exited;

    const page = await context.newPage();
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
    });
    // the requester signs in: the request is there, newest first
    await signIn(page, fx.tokens.alice!);
    await expect(page.getByTestId('viewer').textContent()).resolves.toBe('alice');
    const card = page.getByTestId('request').first();
    await expect(card.textContent()).resolves.toContain('stripe.refund');
    await expect(card.textContent()).resolves.toContain('requested by alice');
    await page.screenshot({ path: path.join(ARTIFACTS, 'inbox.png'), fullPage: true });
    await card.getByRole('link').click();
    await page.waitForURL(/\/requests\/call_browser_refund$/);
    // the model's markup is text on the page, not elements
    await expect(page.locator('[data-testid=arguments] b').count()).resolves.toBe(0);
    await expect(page.getByTestId('arguments').textContent()).resolves.toContain('"pay_<b>42</b>"');
    await page.screenshot({ path: path.join(ARTIFACTS, 'request.png'), fullPage: true });
    // every answer asks for the operator's token again (the step-up)
    await page.fill('form.answer input[name=token]', fx.tokens.alice!);
    await page.getByRole('button', { name: /Approve as alice/ }).click();
    await expect(page.getByTestId('message').textContent()).resolves.toContain('alice is who the run acts for (the requester)');
    await expect(page.getByTestId('approvals').textContent()).resolves.toBe('0 of 1');
    await page.screenshot({ path: path.join(ARTIFACTS, 'requester-refused.png'), fullPage: true });

    // a second operator approves
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login$/);
    await signIn(page, fx.tokens.bob!);
    await page.goto(`${fx.serve.url}/requests/${callId}`);
    await page.fill('textarea[name=reason]', 'customer called; verified');
    await page.fill('form.answer input[name=token]', fx.tokens.bob!);
    await page.getByRole('button', { name: /Approve as bob/ }).click();
    await expect(page.getByTestId('message').textContent()).resolves.toContain('Approved as bob (1 of 1)');
    expect((await fx.store.getRequest(callId))!.state).toBe('approved');

    // the agent process resumes and the refund runs exactly once
    const resumed = spawnAgentChild({ mode: 'resume', store, stateFile, countFile });
    const done = await resumed.waitFor((e) => e.outcome !== undefined || e.error !== undefined);
    await resumed.exited;
    expect(done).toMatchObject({ outcome: 'done' });
    expect(bodyRuns(countFile)).toHaveLength(1);
    const executed = (await fx.store.listReceipts()).filter((r) => r.call_id === callId && r.result === 'executed');
    expect(executed).toHaveLength(1);
    expect(executed[0]!.approvers).toEqual(['bob']);

    // history and the receipt chain, as the operator sees them
    await page.goto(`${fx.serve.url}/history`);
    await expect(page.getByTestId('request').first().textContent()).resolves.toContain('consumed');
    await page.goto(`${fx.serve.url}/receipts`);
    await expect(page.getByTestId('verify').textContent()).resolves.toMatch(/Chain intact: \d+ receipts verified/);
    await expect(page.getByTestId('receipts').textContent()).resolves.toContain('executed');
    await page.screenshot({ path: path.join(ARTIFACTS, 'receipts.png'), fullPage: true });
    expect(cspViolations).toEqual([]);
  });
});
