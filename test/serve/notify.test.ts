import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startServe } from '../../src/serve/server.js';
import { api, pendingRequest, type ServeFixture, startFixture } from './helpers.js';

interface Receiver {
  url: string;
  posts: Array<Record<string, any>>;
  /** What to do with the n-th post (0-based): a status, or 'hang' (never answer). */
  plan: Array<number | 'hang'>;
  waitFor(count: number): Promise<void>;
  close(): Promise<void>;
}

async function receiver(plan: Array<number | 'hang'> = []): Promise<Receiver> {
  const posts: Array<Record<string, any>> = [];
  const hanging: ServerResponse[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const n = posts.length;
      posts.push(JSON.parse(body) as Record<string, any>);
      for (const w of waiters.filter((x) => posts.length >= x.count)) w.resolve();
      const what = plan[n] ?? 200;
      if (what === 'hang') hanging.push(res);
      else res.writeHead(what).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    posts,
    plan,
    waitFor: (count) => (posts.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
    close: async () => {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let fx: ServeFixture | undefined;
let rx: Receiver | undefined;
afterEach(async () => {
  await fx?.close();
  await rx?.close();
  fx = undefined;
  rx = undefined;
});

async function restartWithWebhook(f: ServeFixture, url: string, logs: string[], extra: Record<string, unknown> = {}): Promise<void> {
  await f.serve.close();
  f.serve = await startServe({
    store: f.store,
    policy: f.policy,
    operatorsFile: f.operatorsFile,
    host: '127.0.0.1',
    port: 0,
    approvalTtlMs: 60_000,
    notifyWebhook: url,
    pollMs: 50,
    log: (l) => logs.push(l),
    ...extra,
  });
}

describe('serve --notify-webhook', () => {
  it('posts Slack-compatible JSON with a link for a request filed through serve and for one written to the store directly; not for those pending at start', async () => {
    rx = await receiver();
    const logs: string[] = [];
    fx = await startFixture({ agent: 'runtime' });
    await fx.store.putRequest(pendingRequest('call_before'));
    await restartWithWebhook(fx, rx.url, logs);

    await api(fx.serve.url, fx.tokens.agent, 'POST', '/api/store/putRequest', { args: [pendingRequest('call_api', { principal: '<@U123> & co' })] });
    await rx.waitFor(1);
    const first = rx.posts[0]!;
    expect(first.text).toContain('Approval needed: stripe.refund requested by &lt;@U123&gt; &amp; co');
    expect(first.text).toContain(`${fx.serve.url}/requests/call_api`);
    expect(first.blocks).toBeInstanceOf(Array);
    expect(first.ctrlrun).toMatchObject({ callId: 'call_api', action: 'stripe.refund', url: `${fx.serve.url}/requests/call_api` });

    await fx.store.putRequest(pendingRequest('call_direct'));
    await rx.waitFor(2);
    expect(rx.posts[1]!.ctrlrun.callId).toBe('call_direct');
    await new Promise((r) => setTimeout(r, 300)); // several more polls: still one post each
    expect(rx.posts.map((p) => p.ctrlrun.callId).sort()).toEqual(['call_api', 'call_direct']);
    expect(logs).toEqual([]);
  });

  it('a failed post is retried and logged; after the last retry it gives up, logged', async () => {
    rx = await receiver([500, 503, 200, 500, 500, 500, 500]);
    const logs: string[] = [];
    fx = await startFixture({ agent: 'runtime' });
    await restartWithWebhook(fx, rx.url, logs, { webhookRetryDelays: [10, 10, 10] });
    await api(fx.serve.url, fx.tokens.agent, 'POST', '/api/store/putRequest', { args: [pendingRequest('call_retry')] });
    await rx.waitFor(3);
    expect(rx.posts.every((p) => p.ctrlrun.callId === 'call_retry')).toBe(true);
    expect(logs.filter((l) => l.includes('call_retry') && l.includes('retrying'))).toHaveLength(2);
    await api(fx.serve.url, fx.tokens.agent, 'POST', '/api/store/putRequest', { args: [pendingRequest('call_lost')] });
    await rx.waitFor(7);
    await new Promise((r) => setTimeout(r, 100));
    const lost = logs.filter((l) => l.includes('call_lost'));
    expect(lost).toHaveLength(4);
    expect(lost.slice(0, 3).every((l) => /failed \(HTTP 500\); retrying in 10 ms/.test(l))).toBe(true);
    expect(logs.at(-1)).toMatch(/call_lost failed after 4 attempts \(HTTP 500\); giving up/);
  });

  it('a receiver that never answers does not hold up the agent: its request is filed and answered at once', async () => {
    rx = await receiver(['hang']);
    fx = await startFixture({ agent: 'runtime' });
    await restartWithWebhook(fx, rx.url, []);
    const put = await api(fx.serve.url, fx.tokens.agent, 'POST', '/api/store/putRequest', { args: [pendingRequest('call_hang')] });
    expect(put.json.result.state).toBe('pending');
    await rx.waitFor(1); // the post was made, and is still unanswered
    expect(rx.posts).toHaveLength(1);
  });
});
