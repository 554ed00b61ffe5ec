import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { CHROMIUM, requireChromium, SKIP_BROWSER } from '../helpers/chromium.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';

/**
 * Issue 11.3: the generated module of fixtures/refund-desk (its tools rewritten by the codemod) and
 * `ctrlrun-gen/runtime` bundle for the browser with esbuild (`platform: 'browser'`: an import of a
 * Node built-in does not resolve, so it fails the build), and a protected call runs inside Debian's
 * headless chromium through the SDK's real Runner with a scripted model and the memory store.
 */

const BROWSER_CONTROL = `import { createControl, memoryStore } from 'ctrlrun-gen/runtime';

// offerAllTools: the page shows the refusal the model reads for a denied call; by default a tool the
// policy denies for every input is not offered at all (least exposure, test/runtime/exposure.test.ts)
export default createControl({
  store: memoryStore(),
  identity: (runContext) => (runContext.context as { user?: string } | undefined)?.user ?? null,
  offerAllTools: true,
});
`;

/** The page's program: one allowed refund and one denied account closure, in one run. */
const ENTRY = `import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import { run, verifyReceipts } from 'ctrlrun-gen/runtime';
import { refundDesk } from './agent.js';
import control from './ctrlrun.control.js';
import { getCharge } from './payments.js';

async function main() {
  const model = new ScriptedModel([
    [
      functionCall('refund', { payment_id: 'pay_1001', amount: 4500 }, { callId: 'call_small' }),
      functionCall('close_account', { customer_id: 'cus_7' }, { callId: 'call_close' }),
    ],
    [assistantMessage('done')],
  ]);
  const agent = refundDesk.clone({ model });
  const result = await run(agent, 'Refund pay_1001 and close my account', { context: { user: 'alice' } });
  const receipts = await control.store.listReceipts();
  return {
    final: result.finalOutput,
    refunded: (await getCharge('pay_1001'))?.refunded,
    toolOutputs: result.newItems.filter((i) => i.type === 'tool_call_output_item').map((i) => String(i.output)),
    receipts: receipts.map((r) => [r.action, r.decision, r.result, r.principal]),
    verify: await verifyReceipts(control.store),
    secure: globalThis.isSecureContext,
  };
}
(globalThis as { __result?: Promise<unknown> }).__result = main().catch((error) => ({ error: String(error?.stack ?? error) }));
`;

describe('the generated module in a browser', { timeout: 240_000 }, () => {
  let dir: string;
  let profile: string | undefined;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    dir = copyFixture('refund-desk', 'browser-');
    writeFileSync(path.join(dir, 'src/ctrlrun.control.ts'), BROWSER_CONTROL);
    writeFileSync(path.join(dir, 'src/browser.ts'), ENTRY);
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    const codemod = await cli(['codemod', '--write', '--allow-dirty'], { cwd: dir });
    expect(codemod.code, codemod.stdout + codemod.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'src/tools.ts'), 'utf8')).toContain("protectedTool('stripe.refund'");
  });
  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    removeDir(dir);
  });

  const bundle = (entry: string) =>
    build({
      entryPoints: [path.join(dir, entry)],
      absWorkingDir: dir,
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });

  it('an import of a Node built-in fails the browser build (the check is real)', async () => {
    writeFileSync(path.join(dir, 'src/node-only.ts'), `import { createHash } from 'node:crypto';\nconsole.log(createHash);\n`);
    await expect(bundle('src/node-only.ts')).rejects.toThrow(/node:crypto/);
    // ... and so does the SQLite store's entry: it stays out of the runtime's main entry
    writeFileSync(path.join(dir, 'src/sqlite-only.ts'), `import { sqliteStore } from 'ctrlrun-gen/runtime/sqlite';\nconsole.log(sqliteStore);\n`);
    await expect(bundle('src/sqlite-only.ts')).rejects.toThrow(/Could not resolve "(node:)?(fs|path|sqlite)"/);
  });

  it.skipIf(SKIP_BROWSER)('bundles with esbuild for the browser and runs a protected call in headless chromium through the real Runner', async () => {
    const out = await bundle('src/browser.ts');
    const inputs = Object.keys((out.metafile as Metafile).inputs);
    expect(inputs.some((f) => f.endsWith('src/ctrlrun.generated.ts'))).toBe(true);
    expect(inputs.some((f) => /dist\/runtime\/index\.js$/.test(f))).toBe(true);
    expect(inputs.filter((f) => /^node:|better-sqlite3|node_modules\/pg\/|stores\/(sqlite|postgres)\.js$/.test(f))).toEqual([]);
    const script = out.outputFiles[0]!.text;

    requireChromium();
    profile = mkdtempSync(path.join(tmpdir(), 'ctrlrun-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    // Served from http://localhost (a secure context, as crypto.randomUUID needs) by the test itself: no server, no network.
    await page.route('http://localhost/**', (route) =>
      route.request().url().endsWith('/app.js')
        ? route.fulfill({ contentType: 'text/javascript', body: script })
        : route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>refund desk</title><script type="module" src="/app.js"></script>' }),
    );
    await page.goto('http://localhost/');
    const result = (await page.evaluate(async () => await (globalThis as { __result?: Promise<unknown> }).__result)) as Record<string, unknown>;
    expect(errors).toEqual([]);
    expect(result.error).toBeUndefined();
    expect(result.secure).toBe(true);
    expect(result.final).toBe('done');
    // the allowed refund ran once; the denied closure never ran and the model was told so
    expect(result.refunded).toBe(4500);
    const outputs = result.toolOutputs as string[];
    expect(outputs.some((o) => o.startsWith('Refunded 4500 cents on pay_1001'))).toBe(true);
    expect(outputs.some((o) => /accounts\.close was refused/.test(o) && /must not be retried/.test(o))).toBe(true);
    // the SDK runs the two calls concurrently: their receipts may interleave, the refund's stay in order
    const receipts = result.receipts as string[][];
    expect(receipts.filter((r) => r[0] === 'stripe.refund')).toEqual([
      ['stripe.refund', 'allow', 'allowed', 'alice'],
      ['stripe.refund', 'allow', 'executed', 'alice'],
    ]);
    expect(receipts.filter((r) => r[0] !== 'stripe.refund')).toEqual([['accounts.close', 'deny', 'denied', 'alice']]);
    expect(result.verify).toMatchObject({ ok: true });
  });
});
