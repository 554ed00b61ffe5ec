import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProject } from '../../src/manifest/load.js';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import type { Store } from '../../src/runtime/types.js';
import { type RunningServe, startServe } from '../../src/serve/server.js';
import { cli } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { api, writeOperatorTokens } from './helpers.js';

/**
 * Issue 15.4 / 11.3 on a real edge runtime: the refund desk, its tools rewritten by the codemod and
 * its control on `httpStore`, runs as a Cloudflare Worker inside `workerd` (Cloudflare's own
 * runtime, from npm) through the SDK's real Runner with a scripted model. One request pauses on a
 * large refund (the request lands in serve's store), a second operator approves through serve,
 * and another request resumes the serialized state and runs the refund once.
 */
const WORKERD = path.join(REPO_ROOT, 'node_modules', '.bin', 'workerd');

const WORKER = `import { RunState } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import { run } from 'ctrlrun-gen/runtime';
import { refundDesk } from './agent.js';
import control from './ctrlrun.control.js';
import { getCharge } from './payments.js';

export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    try {
      if (url.pathname === '/pause') {
        const model = new ScriptedModel([[functionCall('refund', { payment_id: 'pay_1002', amount: 250000 }, { callId: 'call_edge' })], [assistantMessage('waiting')]]);
        const result = await run(refundDesk.clone({ model }), 'Refund pay_1002', { context: { user: 'alice' } });
        await control.request(result.state);
        return Response.json({ interruptions: result.interruptions.length, state: result.state.toString(), refunded: (await getCharge('pay_1002'))?.refunded });
      }
      if (url.pathname === '/resume') {
        const agent = refundDesk.clone({ model: new ScriptedModel([[assistantMessage('done')]]) });
        const state = await RunState.fromString(agent, await request.text());
        const pending = await control.resolve(state);
        const result = await run(agent, state);
        return Response.json({ pending: pending.length, final: result.finalOutput, refunded: (await getCharge('pay_1002'))?.refunded });
      }
      return new Response('not found', { status: 404 });
    } catch (error) {
      const e = error as Error;
      return Response.json({ error: \`\${e?.name}: \${e?.message ?? String(error)}\` }, { status: 500 });
    }
  },
};
`;

const control = (url: string, token: string) => `import { createControl, httpStore } from 'ctrlrun-gen/runtime';

export default createControl({
  store: httpStore({ url: ${JSON.stringify(url)}, token: ${JSON.stringify(token)} }),
  identity: (runContext) => (runContext.context as { user?: string } | undefined)?.user ?? null,
  environment: 'production',
});
`;

/** workerd's config: one worker on 127.0.0.1:port whose fetch() may reach loopback (serve). */
const capnp = (port: number) => `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .agent),
    (name = "loopback", network = (allow = ["local", "private", "public"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const agent :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "2025-09-01",
  compatibilityFlags = ["nodejs_compat"],
  globalOutbound = "loopback",
);
`;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe('an edge agent (a Worker in workerd) on httpStore, answered through serve', { timeout: 240_000 }, () => {
  let dir: string;
  let store: Store;
  let serve: RunningServe;
  let workerd: ChildProcess | undefined;
  let workerUrl: string;
  let tokens: Record<string, string>;
  let workerdLog = '';

  beforeAll(async () => {
    dir = copyFixture('refund-desk', 'edge-agent-');
    mkdirSync(path.join(dir, '.ctrlrun'), { recursive: true });
    store = sqliteStore({ path: path.join(dir, '.ctrlrun/state.db') });
    tokens = writeOperatorTokens(path.join(dir, '.ctrlrun/operators.json'), { 'edge-agent': 'runtime', bob: ['payments-approver'] });
    serve = await startServe({
      store,
      policy: loadProject({ cwd: dir }).policy,
      operatorsFile: path.join(dir, '.ctrlrun/operators.json'),
      host: '127.0.0.1',
      port: 0,
      approvalTtlMs: 15 * 60_000,
      log: () => {},
    });

    writeFileSync(path.join(dir, 'src/ctrlrun.control.ts'), control(serve.url, tokens['edge-agent']!));
    writeFileSync(path.join(dir, 'src/worker.ts'), WORKER);
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    const codemod = await cli(['codemod', '--write', '--allow-dirty'], { cwd: dir });
    expect(codemod.code, codemod.stdout + codemod.stderr).toBe(0);
    // bundled as wrangler does for a Worker with nodejs_compat: the workerd/worker/browser export
    // conditions, and node:* left to the runtime (the SDK's workerd shim uses node:async_hooks)
    const built = await build({
      entryPoints: [path.join(dir, 'src/worker.ts')],
      absWorkingDir: dir,
      bundle: true,
      platform: 'neutral',
      conditions: ['workerd', 'worker', 'browser'],
      mainFields: ['browser', 'module', 'main'],
      external: ['node:*', 'cloudflare:*', ...builtinModules],
      format: 'esm',
      outfile: path.join(dir, 'edge/worker.js'),
      metafile: true,
      logLevel: 'silent',
    });
    // ... and nothing of ctrlrun-gen's asks for a Node built-in: only the SDK's own shims do
    const ours = Object.entries(built.metafile.inputs).filter(([f]) => /dist\/runtime\/|src\/ctrlrun\./.test(f));
    expect(ours.length).toBeGreaterThan(0);
    expect(ours.flatMap(([, input]) => input.imports.filter((i) => i.path.startsWith('node:')).map((i) => i.path))).toEqual([]);
    const port = await freePort();
    writeFileSync(path.join(dir, 'edge/config.capnp'), capnp(port));
    workerUrl = `http://127.0.0.1:${port}`;
    workerd = spawn(WORKERD, ['serve', path.join(dir, 'edge/config.capnp'), '--verbose'], { cwd: path.join(dir, 'edge') });
    workerd.stdout?.on('data', (d: Buffer) => (workerdLog += String(d)));
    workerd.stderr?.on('data', (d: Buffer) => (workerdLog += String(d)));
    for (let i = 0; i < 200; i++) {
      const up = await fetch(`${workerUrl}/`).then(
        (r) => r.status === 404,
        () => false,
      );
      if (up) break;
      if (workerd.exitCode !== null) throw new Error(`workerd exited: ${workerdLog}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(async () => {
    workerd?.kill('SIGTERM');
    await serve?.close();
    await store?.close();
    if (dir) removeDir(dir);
  });

  it('pauses in the Worker, a second operator approves through serve, and a later request runs the refund once', async () => {
    const pause = await fetch(`${workerUrl}/pause`);
    const paused = (await pause.json()) as { error?: string; interruptions: number; state: string; refunded: number };
    expect(paused.error, workerdLog).toBeUndefined();
    expect(paused.interruptions).toBe(1);
    expect(paused.refunded).toBe(0);
    expect(await store.getRequest('call_edge')).toMatchObject({ state: 'pending', action: 'stripe.refund', principal: 'alice' });

    // still pending: resuming runs nothing
    const early = (await (await fetch(`${workerUrl}/resume`, { method: 'POST', body: paused.state })).json()) as { pending: number; refunded: number };
    expect(early.pending).toBe(1);
    expect(early.refunded).toBe(0);

    const bob = await api(serve.url, tokens.bob, 'POST', '/api/requests/call_edge/answer', { decision: 'approve', reason: 'verified' });
    expect(bob.status, JSON.stringify(bob.json)).toBe(200);

    const resumed = (await (await fetch(`${workerUrl}/resume`, { method: 'POST', body: paused.state })).json()) as {
      error?: string;
      final: string;
      refunded: number;
    };
    expect(resumed.error, workerdLog).toBeUndefined();
    expect(resumed.final).toBe('done');
    expect(resumed.refunded).toBe(250000);

    const receipts = (await store.listReceipts()).filter((r) => r.call_id === 'call_edge');
    expect(receipts.filter((r) => r.result === 'executed')).toHaveLength(1);
    expect(receipts.find((r) => r.result === 'executed')?.approvers).toEqual(['bob']);
    expect((await api(serve.url, tokens.bob, 'GET', '/api/receipts/verify')).json).toMatchObject({ ok: true });
  });
});
