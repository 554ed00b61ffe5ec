import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/runtime/index.js';
import { CHROMIUM, requireChromium, SKIP_BROWSER } from '../helpers/chromium.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { agentWith, assistantMessage, refundCall, refundTool, scripted, setup, toolOutputSeen } from '../runtime/helpers.js';
import { type ServeFixture, startFixture } from './helpers.js';

/**
 * Issue 38: the inbox's edit form in Debian's chromium. A refund pauses (the real Runner, on the
 * store serve reads); an operator changes the amount in the form built from the tool's schema,
 * grants the same for two hours within a bound, and approves with the step-up token; the agent
 * resumes and runs the edited refund once, and the model reads what changed; the grant is revoked
 * on the Grants page. No script on the page: the form is plain HTML. Screenshots in
 * test-artifacts/serve/ (git-ignored).
 */
const ARTIFACTS = path.join(REPO_ROOT, 'test-artifacts', 'serve');

describe.skipIf(SKIP_BROWSER)('the edit form in a real browser (headless chromium)', { timeout: 120_000 }, () => {
  let fx: ServeFixture;
  let context: BrowserContext;
  let profile: string;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    requireChromium();
    mkdirSync(ARTIFACTS, { recursive: true });
    fx = await startFixture({ bob: ['payments-approver'] }, { maxGrantHours: 4 });
    profile = mkdtempSync(path.join(tmpdir(), 'ctrlrun-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
      viewport: { width: 900, height: 1400 },
    });
  });
  afterAll(async () => {
    await context?.close();
    await fx?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  async function signIn(page: Page, token: string): Promise<void> {
    await page.goto(`${fx.serve.url}/`);
    await page.fill('input[name=token]', token);
    await page.click('button[type=submit]');
    await page.waitForURL(`${fx.serve.url}/`);
  }

  it('an operator edits the amount, grants the same for two hours, approves; the edited refund runs once and the model reads the change; the grant is revoked', async () => {
    const s = setup({ store: fx.store });
    const { tool, calls } = refundTool(s, (a) => `refunded ${a.amount}`);
    const model = scripted([refundCall({ payment_id: 'pay_42', amount: 250_000 }, 'call_edit')], [assistantMessage('done')]);
    const agent = agentWith(model, [tool]);
    const paused = await run(agent, 'refund pay_42', { context: { user: 'alice' } });
    expect(paused.interruptions).toHaveLength(1);

    const page = await context.newPage();
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
    });
    await signIn(page, fx.tokens.bob!);
    await page.goto(`${fx.serve.url}/requests/call_edit`);
    // the form is built from the tool's schema: one field per argument, the model's values in them
    await expect(page.getByTestId('edit-amount').inputValue()).resolves.toBe('250000');
    await expect(page.getByTestId('edit-payment_id').inputValue()).resolves.toBe('pay_42');
    await page.getByTestId('edit-amount').fill('200000');
    await page.getByTestId('grant-hours').fill('2');
    await page.getByTestId('grant-bounds').fill('{"amount_lte": 300000}');
    await page.fill('textarea[name=reason]', 'customer agreed to a partial refund');
    await page.fill('form.answer input[name=token]', fx.tokens.bob!);
    await page.getByTestId('answer-form').screenshot({ path: path.join(ARTIFACTS, 'edit-form.png') });
    await page.getByTestId('approve-edited').click();
    await expect(page.getByTestId('message').textContent()).resolves.toMatch(/Approved as bob with changes \(amount 250000 → 200000\) \(1 of 1\)/);
    await expect(page.getByTestId('answers').textContent()).resolves.toContain('approved with changes by bob (amount 250000 → 200000)');
    await page.screenshot({ path: path.join(ARTIFACTS, 'edit-approved.png'), fullPage: true });

    await s.control.resolve(paused.state);
    await run(agent, paused.state);
    expect(calls).toEqual([{ payment_id: 'pay_42', amount: 200_000 }]);
    expect(toolOutputSeen(model, 1, 'call_edit')).toContain('Approved with changes by bob: amount 250000 → 200000');

    // the grant, on the Grants page: revoked with the step-up token
    await page.goto(`${fx.serve.url}/grants`);
    await expect(page.getByTestId('grants').textContent()).resolves.toMatch(/active[\s\S]*alice[\s\S]*rule\[1\] \{"amount_lte":300000\}/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'grants.png'), fullPage: true });
    await page.fill('input[name=token]', fx.tokens.bob!);
    await page.getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByTestId('message').textContent()).resolves.toMatch(/^Revoked grant_.* as bob/);
    expect((await fx.store.listGrants!({}))[0]?.revokedBy).toBe('bob');
    expect(cspViolations).toEqual([]);
  });
});
