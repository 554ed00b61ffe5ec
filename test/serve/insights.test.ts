import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalHash, canonicalJson } from '../../src/runtime/canonical.js';
import { CHROMIUM, requireChromium, SKIP_BROWSER } from '../helpers/chromium.js';
import { cli } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { type ServeFixture, startFixture } from './helpers.js';

const ARTIFACTS = path.join(REPO_ROOT, 'test-artifacts', 'serve');
const MIN = 60_000;
const RULES = { maxAnswers: 3, windowMs: 10 * MIN, minDecideMs: 10_000 };

/** A pending refund filed `ago` ms before now, with its `requested` receipt (as the runtime writes them). */
async function file(fx: ServeFixture, callId: string, amount: number, ago: number) {
  const args = { payment_id: `pay_${callId}`, amount };
  const createdAt = Date.now() - ago;
  await fx.store.putRequest({
    callId,
    action: 'stripe.refund',
    toolName: 'refund',
    argsHash: canonicalHash(args),
    args: canonicalJson(args),
    policyHash: fx.policy.hash,
    principal: 'carol',
    approvalsRequired: 1,
    createdAt,
  });
  await fx.store.appendReceipt({
    at: createdAt,
    action: 'stripe.refund',
    call_id: callId,
    args_hash: canonicalHash(args),
    principal: 'carol',
    decision: 'approve',
    reason: 'rule[1]',
    approvers: [],
    effect_key: null,
    result: 'requested',
    policy_hash: fx.policy.hash,
    mode: 'enforce',
    environment: null,
  });
}

async function answer(fx: ServeFixture, who: string, callId: string, decision: 'approve' | 'reject') {
  const res = await fetch(`${fx.serve.url}/api/requests/${callId}/answer`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${fx.tokens[who]}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ decision, reason: decision === 'reject' ? 'not this one' : undefined }),
  });
  expect(res.status, await res.text()).toBe(200);
}

describe('insights: approval rates, time to decide, busiest rules, approval fatigue', () => {
  let fx: ServeFixture;
  beforeAll(async () => {
    fx = await startFixture({ alice: ['payments-approver'], bob: ['payments-approver'] }, { fatigue: { rules: RULES, record: true } });
    // bob approves four requests in a row, each seconds after it was filed; alice takes her time on two
    for (const [i, id] of ['b1', 'b2', 'b3', 'b4'].entries()) {
      await file(fx, id, 20_000 + i, 3_000);
      await answer(fx, 'bob', id, 'approve');
    }
    await file(fx, 'a1', 50_000, 40 * MIN);
    await answer(fx, 'alice', 'a1', 'approve');
    await file(fx, 'a2', 60_000, 2 * 60 * MIN);
    await answer(fx, 'alice', 'a2', 'reject');
    await file(fx, 'p1', 70_000, 5 * MIN);
  });
  afterAll(async () => fx?.close());

  it('an answer that crosses the rules is recorded as a fatigue receipt where it is given (serve --fatigue-*)', async () => {
    const recorded = (await fx.store.listReceipts()).filter((r) => r.result === 'fatigue').map((r) => [r.call_id, r.approvers, r.reason]);
    expect(recorded).toEqual([
      ['b1', ['bob'], 'approved_too_fast'],
      ['b2', ['bob'], 'approved_too_fast'],
      ['b3', ['bob'], 'approved_too_fast'],
      ['b4', ['bob'], 'approved_too_fast'],
      ['b4', ['bob'], 'answers_over_limit'],
    ]);
    // alice's answers, minutes after their pauses and two in all, are none
    expect(recorded.some(([, who]) => (who as string[]).includes('alice'))).toBe(false);
  });

  it('`ctrlrun-gen stats` prints them per action and per approver, as text and JSON', async () => {
    const store = `sqlite:${path.join(fx.dir, 'state.db')}`;
    const json = await cli(['stats', '--store', store, '--format', 'json', '--fatigue-answers', '3', '--fatigue-window', '10m', '--fatigue-min-time', '10s'], {
      cwd: fx.dir,
    });
    expect(json.code, json.stderr).toBe(0);
    const s = JSON.parse(json.stdout);
    expect(s.totals).toMatchObject({ requests: 7, pending: 1, decided: 6, approved: 5, rejected: 1 });
    expect(
      s.approvers.map((a: { approver: string; answers: number; fatigue: number; approvalRate: number }) => [a.approver, a.answers, a.fatigue, a.approvalRate]),
    ).toEqual([
      ['alice', 2, 0, 0.5],
      ['bob', 4, 5, 1],
    ]);
    expect(s.rules).toEqual([{ action: 'stripe.refund', reason: 'rule[1]', calls: 7 }]);
    expect(s.fatigueRecorded).toBe(5);
    const text = await cli(['stats', '--store', store], { cwd: fx.dir });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^stripe\.refund\s+7\s+5\s+1\s+83%/m);
    expect(text.stdout).toContain('bob approved b1 (stripe.refund) 3s after it was filed (under 10s)');
    const bad = await cli(['stats', '--store', store, '--period', 'soon'], { cwd: fx.dir });
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('--period: not a duration')]);
  });

  describe.skipIf(SKIP_BROWSER)('the Insights page in headless chromium', { timeout: 120_000 }, () => {
    it('shows rates, time to decide and the busiest rules, and the fatigue as a risk', async () => {
      requireChromium();
      const profile = mkdtempSync(path.join(tmpdir(), 'ctrlrun-chromium-'));
      const context: BrowserContext = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
        viewport: { width: 1100, height: 900 },
      });
      try {
        await insightsInBrowser(context);
      } finally {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      }
    });
  });

  async function insightsInBrowser(context: BrowserContext) {
    {
      const page = await context.newPage();
      await page.goto(`${fx.serve.url}/login`);
      await page.fill('input[name=token]', fx.tokens.alice!);
      await page.click('button[type=submit]');
      await page.waitForURL(`${fx.serve.url}/`);
      await page.click('a[href="/insights"]');
      await page.waitForURL(`${fx.serve.url}/insights`);
      const rows = await page.locator('[data-testid=approver-row]').allInnerTexts();
      expect(rows.map((r) => r.split('\t').slice(0, 5))).toEqual([
        ['alice', '2', '1', '1', '50%'],
        ['bob', '4', '4', '0', '100%'],
      ]);
      const findings = await page.locator('[data-testid=finding]').allInnerTexts();
      expect(findings).toHaveLength(5);
      expect(findings.filter((f) => f.startsWith('bob answered 4 requests within 10m (limit 3)'))).toHaveLength(1);
      expect(await page.locator('[data-testid=fatigue]').innerText()).toContain('5 recorded as receipts');
      expect(await page.locator('[data-testid=action-row]').first().innerText()).toMatch(/^\(all\)\t7\t5\t1\t83%/);
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, 'insights.png'), fullPage: true });
      if (process.env.CTRLRUN_INSIGHTS_SHOT) copyFileSync(path.join(ARTIFACTS, 'insights.png'), process.env.CTRLRUN_INSIGHTS_SHOT);
      // a bad period is a page that says so, not a 500
      const bad = await page.goto(`${fx.serve.url}/insights?period=soon`);
      expect(bad?.status()).toBe(400);
      expect(await page.locator('[role=alert]').innerText()).toContain('not a duration');
    }
  }
});
