// `npm run bench -- serve`: the approvals inbox over SQLite with 10,000 pending requests (200 at
// CTRLRUN_BENCH_SIZE=tiny).
// Listing (the JSON API and the paged page) and answering through serve, requests per second and
// p50/p99 latency as the client sees it, plus serve's own time per request (its Server-Timing
// header). Baseline in the same run: the same store calls made directly, without HTTP.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadPolicyOrThrow } from '../dist/policy/load.js';
import { canonicalHash } from '../dist/runtime/canonical.js';
import { sqliteStore } from '../dist/runtime/sqlite.js';
import { addOperator, emptyOperators, writeOperators } from '../dist/serve/operators.js';
import { startServe } from '../dist/serve/server.js';
import { PAGE_SIZE } from '../dist/serve/view.js';
import { sized } from './lib/size.mjs';

const PENDING = sized(10_000, 200);
const LIST_ROUNDS = sized(40, 3);
const ANSWERS = sized(400, 16);
const CLIENTS = 8;
const callId = (i) => `call_${String(i).padStart(5, '0')}`;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const fmt = (ms) => `${ms.toFixed(1)} ms`;
const summary = (times) => {
  const s = [...times].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99) };
};

async function timed(fn) {
  const t0 = performance.now();
  const out = await fn();
  return { ms: performance.now() - t0, out };
}

async function get(url, headers) {
  const { ms, out: res } = await timed(() => fetch(url, { headers }));
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  const server = Number(/dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1] ?? NaN);
  return { ms, server };
}

async function measureGets(label, url, headers, rounds, baselineMs) {
  const client = [];
  const server = [];
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) {
    const r = await get(url, headers);
    client.push(r.ms);
    server.push(r.server);
  }
  const rps = rounds / ((performance.now() - t0) / 1000);
  const c = summary(client);
  const s = summary(server);
  console.log(
    `${label.padEnd(34)} ${rps.toFixed(1).padStart(7)} req/s   p50 ${fmt(c.p50).padStart(9)}  p99 ${fmt(c.p99).padStart(9)}   server p50 ${fmt(s.p50).padStart(9)}  p99 ${fmt(s.p99).padStart(9)}` +
      (baselineMs ? `   ${(c.p50 / baselineMs).toFixed(1)}x direct` : ''),
  );
  return { rps, client: c, server: s };
}

export async function run() {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-bench-serve-'));
  try {
    writeFileSync(path.join(dir, 'ctrlrun.yaml'), 'schema: ctrlrun.policy/v6\nactions:\n  stripe.refund:\n    decision: approve\n');
    const policy = loadPolicyOrThrow(path.join(dir, 'ctrlrun.yaml')).policy;
    let ops = emptyOperators();
    const tokens = {};
    for (const name of ['bob', 'carol']) {
      const a = addOperator(ops, { name, kind: 'operator', roles: [], now: Date.now() });
      ops = a.data;
      tokens[name] = a.token;
    }
    writeOperators(path.join(dir, 'operators.json'), ops);
    const store = sqliteStore({ path: path.join(dir, 'state.db') });
    const fill = await timed(async () => {
      for (let i = 0; i < PENDING; i++) {
        // the hash binds the arguments as the runtime writes them: serve refuses to answer a
        // request whose shown arguments are not the ones its hash binds (args_mismatch)
        const args = { amount: 100_000 + i, payment_id: `pay_${i}` };
        await store.putRequest({
          callId: callId(i),
          action: 'stripe.refund',
          toolName: 'refund',
          argsHash: canonicalHash(args),
          args: JSON.stringify(args),
          policyHash: policy.hash,
          principal: 'alice',
          approvalsRequired: 1,
          createdAt: 1_700_000_000_000 + i,
        });
      }
    });
    console.log(`filled ${PENDING} pending requests in ${fmt(fill.ms)}`);

    // baseline: the store itself, no HTTP
    const direct = [];
    for (let i = 0; i < 10; i++) direct.push((await timed(() => store.listRequests({ state: 'pending' }))).ms);
    const directList = summary(direct).p50;
    console.log(`direct store.listRequests(pending)  p50 ${fmt(directList)} (baseline)`);
    const one = [];
    for (let i = 0; i < 10; i++) one.push((await timed(() => store.getRequest(callId(PENDING / 2)))).ms);
    const directOne = summary(one).p50;
    console.log(`direct store.getRequest(one)        p50 ${fmt(directOne)} (baseline of one request)`);

    const serve = await startServe({
      store,
      policy,
      operatorsFile: path.join(dir, 'operators.json'),
      host: '127.0.0.1',
      port: 0,
      approvalTtlMs: 900_000,
      log: () => {},
    });
    try {
      const auth = { Authorization: `Bearer ${tokens.bob}` };
      // a browser session for the page
      // the sign-in form's CSRF token is in its cookie and in the form
      const form = await fetch(`${serve.url}/login`);
      const loginCookie = form.headers.getSetCookie()[0].split(';')[0];
      const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())[1];
      const res = await fetch(`${serve.url}/login`, {
        method: 'POST',
        headers: { cookie: loginCookie },
        body: new URLSearchParams({ csrf, token: tokens.carol }),
        redirect: 'manual',
      });
      const cookie = res.headers
        .getSetCookie()
        .find((c) => !c.includes('_login='))
        ?.split(';')[0];
      if (!cookie) throw new Error(`sign-in: HTTP ${res.status}`);

      await measureGets('GET /api/requests?state=pending', `${serve.url}/api/requests?state=pending`, auth, LIST_ROUNDS, directList);
      const pages = Math.ceil(PENDING / PAGE_SIZE);
      const page1 = await measureGets(`GET / (inbox, page 1 of ${pages})`, `${serve.url}/`, { cookie }, LIST_ROUNDS, directList);
      const pageLast = await measureGets(`GET /?page=${pages} (last page)`, `${serve.url}/?page=${pages}`, { cookie }, LIST_ROUNDS, directList);
      await measureGets('GET /requests/:id (one request)', `${serve.url}/requests/${callId(PENDING / 2)}`, { cookie }, LIST_ROUNDS, directOne);

      // answering: ANSWERS approvals through the API, CLIENTS at a time
      const ids = Array.from({ length: ANSWERS }, (_, i) => callId(PENDING - 1 - i));
      const times = [];
      let next = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          for (;;) {
            const i = next++;
            if (i >= ids.length) return;
            const { ms, out } = await timed(() =>
              fetch(`${serve.url}/api/requests/${ids[i]}/answer`, {
                method: 'POST',
                headers: { ...auth, 'Content-Type': 'application/json' },
                body: JSON.stringify({ decision: 'approve' }),
              }),
            );
            await out.arrayBuffer();
            if (!out.ok) throw new Error(`answer ${ids[i]}: HTTP ${out.status}`);
            times.push(ms);
          }
        }),
      );
      const rps = ANSWERS / ((performance.now() - t0) / 1000);
      const a = summary(times);
      console.log(
        `${`POST answer (${CLIENTS} clients)`.padEnd(34)} ${rps.toFixed(1).padStart(7)} req/s   p50 ${fmt(a.p50).padStart(9)}  p99 ${fmt(a.p99).padStart(9)}`,
      );
      const worst = Math.max(page1.server.p99, pageLast.server.p99);
      console.log(`\nthe page lists ${PENDING} pending with paging in ${fmt(worst)} server time at p99 (target: under 200 ms)`);
    } finally {
      await serve.close();
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
