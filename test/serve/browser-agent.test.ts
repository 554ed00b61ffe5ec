import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProject } from '../../src/manifest/load.js';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import type { Store } from '../../src/runtime/types.js';
import { type RunningServe, startServe } from '../../src/serve/server.js';
import { CHROMIUM, requireChromium, SKIP_BROWSER } from '../helpers/chromium.js';
import { cli } from '../helpers/cli.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { api, writeOperatorTokens } from './helpers.js';

/**
 * Issue 15.4, the journey it exists for: an agent whose tools run in a browser page (as a realtime
 * agent's do) shares the project's ledger through `httpStore` and `serve`. The refund-desk's
 * generated module, bundled with esbuild for the browser, runs in headless chromium on another
 * origin than serve's; a large refund pauses, the requester's own approval is refused, a second
 * operator approves through serve, and a fresh page (a new JS realm: nothing survives but the
 * serialized RunState) resumes and runs the body exactly once. Without `--cors-origin` the browser
 * cannot reach the API and the tool fails closed.
 */

const BROWSER_CONTROL = `import { createControl, httpStore } from 'ctrlrun-gen/runtime';

const config = globalThis as unknown as { CTRLRUN_SERVE_URL: string; CTRLRUN_TOKEN: string };
export default createControl({
  store: httpStore({ url: config.CTRLRUN_SERVE_URL, token: config.CTRLRUN_TOKEN }),
  identity: (runContext) => (runContext.context as { user?: string } | undefined)?.user ?? null,
  environment: 'production',
});
`;

const ENTRY = `import { RunState } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import { run } from 'ctrlrun-gen/runtime';
import { refundDesk } from './agent.js';
import control from './ctrlrun.control.js';
import { getCharge } from './payments.js';

const outputs = (items: { type: string; output?: unknown }[]) => items.filter((i) => i.type === 'tool_call_output_item').map((i) => String(i.output));

async function pause() {
  const model = new ScriptedModel([
    [functionCall('refund', { payment_id: 'pay_1002', amount: 250000 }, { callId: 'call_big' })],
    [assistantMessage('waiting for approval')],
  ]);
  const agent = refundDesk.clone({ model });
  const result = await run(agent, 'Refund pay_1002 in full', { context: { user: 'alice' } });
  await control.request(result.state);
  return { interruptions: result.interruptions.length, state: result.state.toString(), refunded: (await getCharge('pay_1002'))?.refunded };
}

async function resume(serialized: string) {
  const agent = refundDesk.clone({ model: new ScriptedModel([[assistantMessage('done')]]) });
  const state = await RunState.fromString(agent, serialized);
  const pending = await control.resolve(state);
  const result = await run(agent, state);
  return { pending: pending.length, final: result.finalOutput, outputs: outputs(result.newItems as never), refunded: (await getCharge('pay_1002'))?.refunded };
}

const g = globalThis as Record<string, unknown>;
const settle = (p: Promise<unknown>) => p.catch((error) => ({ error: String(error?.name ?? 'Error') + ': ' + String(error?.message ?? error) }));
g.pause = () => settle(pause());
g.resume = (state: string) => settle(resume(state));
`;

describe.skipIf(SKIP_BROWSER)('a browser agent on httpStore, answered through serve', { timeout: 240_000 }, () => {
  let dir: string;
  let store: Store;
  let tokens: Record<string, string>;
  let script: string;
  let profile: string;
  let context: BrowserContext;
  const serves: RunningServe[] = [];
  let pageServer: Server;
  let pageOrigin: string;
  let pageConfig = '';

  beforeAll(async () => {
    requireChromium();
    dir = copyFixture('refund-desk', 'browser-agent-');
    writeFileSync(path.join(dir, 'src/ctrlrun.control.ts'), BROWSER_CONTROL);
    writeFileSync(path.join(dir, 'src/browser.ts'), ENTRY);
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    const codemod = await cli(['codemod', '--write', '--allow-dirty'], { cwd: dir });
    expect(codemod.code, codemod.stdout + codemod.stderr).toBe(0);
    const out = await build({
      entryPoints: [path.join(dir, 'src/browser.ts')],
      absWorkingDir: dir,
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    script = out.outputFiles[0]!.text;

    mkdirSync(path.join(dir, '.ctrlrun'), { recursive: true });
    store = sqliteStore({ path: path.join(dir, '.ctrlrun/state.db') });
    tokens = writeOperatorTokens(path.join(dir, '.ctrlrun/operators.json'), {
      'web-agent': 'runtime',
      alice: ['payments-approver'],
      bob: ['payments-approver'],
    });

    // The app's own web server, on another port than serve's (so another origin), both on loopback:
    // a page Chromium does not know the address of counts as public, and public pages may not call
    // loopback addresses at all (Local Network Access), whatever CORS says.
    pageServer = createServer((req, res) => {
      const [type, body] =
        req.url === '/app.js'
          ? ['text/javascript', script]
          : req.url === '/config.js'
            ? ['text/javascript', pageConfig]
            : ['text/html', '<!doctype html><title>refund desk</title><script src="/config.js"></script><script type="module" src="/app.js"></script>'];
      res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store' }).end(body);
    });
    await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
    pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;

    profile = mkdtempSync(path.join(tmpdir(), 'ctrlrun-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    });
  });
  afterAll(async () => {
    await context?.close();
    for (const s of serves) await s.close();
    await new Promise((resolve) => pageServer?.close(resolve));
    await store?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    if (dir) removeDir(dir);
  });

  const startOn = async (corsOrigins: string[]) => {
    const running = await startServe({
      store,
      policy: loadProject({ cwd: dir }).policy,
      operatorsFile: path.join(dir, '.ctrlrun/operators.json'),
      host: '127.0.0.1',
      port: 0,
      approvalTtlMs: 15 * 60_000,
      corsOrigins,
      log: () => {},
    });
    serves.push(running);
    return running;
  };

  /** A fresh page of the app's origin with the bundle loaded, configured for `serveUrl`; console lines go to `log`. */
  const openPage = async (serveUrl: string, log: string[] = []): Promise<Page> => {
    pageConfig = `globalThis.CTRLRUN_SERVE_URL = ${JSON.stringify(serveUrl)}; globalThis.CTRLRUN_TOKEN = ${JSON.stringify(tokens['web-agent'])};`;
    const page = await context.newPage();
    page.on('console', (m) => log.push(m.text()));
    await page.goto(`${pageOrigin}/`);
    await page.waitForFunction(() => typeof (globalThis as { pause?: unknown }).pause === 'function');
    return page;
  };
  const call = async <T>(page: Page, fn: 'pause' | 'resume', arg?: string): Promise<T> =>
    (await page.evaluate(async ([name, a]) => await (globalThis as unknown as Record<string, (x?: string) => Promise<unknown>>)[name!]!(a), [
      fn,
      arg,
    ] as const)) as T;

  it('without --cors-origin the page cannot reach serve, and the tool fails closed', async () => {
    const closed = await startOn([]);
    const log: string[] = [];
    const page = await openPage(closed.url, log);
    const result = await call<{ error?: string; interruptions?: number }>(page, 'pause');
    // the call reads the store's halts, then files its request, before the run is handed back: the
    // first of these fails, and the run stops
    expect(result.error).toMatch(/(StoreError|CtrlrunError): .*httpStore .*could not reach serve/s);
    expect(log.join('\n')).toMatch(/blocked by CORS policy:.*No 'Access-Control-Allow-Origin' header/);
    expect(result.interruptions).toBeUndefined();
    expect(await store.listRequests()).toEqual([]);
    await page.close();
  });

  it('with --cors-origin: pauses in the page, is approved by a second operator through serve, and a fresh page runs it once', async () => {
    const running = await startOn([pageOrigin]);
    // a preflight from another origin gets no CORS grant
    const preflight = await fetch(`${running.url}/api/store/putRequest`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();

    const first = await openPage(running.url);
    const paused = await call<{ error?: string; interruptions: number; state: string; refunded: number }>(first, 'pause');
    expect(paused.error).toBeUndefined();
    expect(paused.interruptions).toBe(1);
    expect(paused.refunded).toBe(0);
    await first.close();

    const request = await store.getRequest('call_big');
    expect(request).toMatchObject({ state: 'pending', action: 'stripe.refund', principal: 'alice' });

    // the requester's own approval is refused; bob's is recorded under his authenticated name
    const own = await api(running.url, tokens.alice, 'POST', '/api/requests/call_big/answer', { decision: 'approve', reason: 'mine' });
    expect(own.status).toBe(409);
    expect(own.json.error).toBe('approver_is_requester');
    // the agent's runtime token can never answer
    const agent = await api(running.url, tokens['web-agent'], 'POST', '/api/requests/call_big/answer', { decision: 'approve' });
    expect(agent.status).toBe(403);
    const bob = await api(running.url, tokens.bob, 'POST', '/api/requests/call_big/answer', { decision: 'approve', reason: 'customer verified' });
    expect(bob.status, JSON.stringify(bob.json)).toBe(200);

    const second = await openPage(running.url);
    const resumed = await call<{ error?: string; pending: number; final: string; outputs: string[]; refunded: number }>(second, 'resume', paused.state);
    expect(resumed.error).toBeUndefined();
    expect(resumed.final).toBe('done');
    expect(resumed.refunded).toBe(250000);
    expect(resumed.outputs.some((o) => o.startsWith('Refunded 250000 cents on pay_1002'))).toBe(true);
    await second.close();

    // a third page replaying the same state runs nothing: the approval was used once
    const third = await openPage(running.url);
    const replay = await call<{ error?: string; refunded?: number }>(third, 'resume', paused.state);
    expect(replay.refunded ?? 0).toBe(0);
    await third.close();

    const receipts = (await store.listReceipts()).filter((r) => r.call_id === 'call_big');
    expect(receipts.filter((r) => r.result === 'executed')).toHaveLength(1);
    expect(receipts.find((r) => r.result === 'approved')?.approvers).toEqual(['bob']);
    expect((await api(running.url, tokens.bob, 'GET', '/api/receipts/verify')).json).toMatchObject({ ok: true });
  });
});
