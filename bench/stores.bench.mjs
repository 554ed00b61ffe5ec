// `npm run bench stores`: the durable stores' claim cost, against the in-memory store measured in
// the same run. SQLite: claim latency p50/p99 (one process, WAL, synchronous=FULL). Postgres: claims
// per second with 8 concurrent clients (8 stores, one connection each), from CTRLRUN_TEST_PG_URL
// (skipped with a note when it is not set).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { memoryStore } from '../dist/runtime/index.js';
import { sqliteStore } from '../dist/runtime/sqlite.js';
import { postgresStore } from '../dist/runtime/postgres.js';

const CLAIMS = 2000;
const PG_CLAIMS = 4000;
const CLIENTS = 8;

const request = (callId) => ({
  callId,
  action: 'stripe.refund',
  toolName: 'refund',
  argsHash: 'a'.repeat(64),
  args: '{"amount":5000}',
  policyHash: 'p'.repeat(64),
  principal: 'alice',
  approvalsRequired: 1,
  createdAt: Date.now(),
});

/** Puts and approves `count` requests; returns their ids. */
async function approved(store, prefix, count) {
  const ids = [];
  for (let i = 0; i < count; i++) {
    const id = `${prefix}-${i}`;
    await store.putRequest(request(id));
    await store.addAnswer(id, { approver: 'bob', decision: 'approve', at: Date.now() });
    ids.push(id);
  }
  return ids;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function claimLatencies(store, ids) {
  const times = [];
  for (const id of ids) {
    const t0 = process.hrtime.bigint();
    const r = await store.claimApproval(id, Date.now());
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (r.outcome !== 'claimed') throw new Error(`claim ${id}: ${r.outcome}`);
  }
  return times.sort((a, b) => a - b);
}

/** Claims every id with `clients` concurrent workers (one store each); returns claims per second. */
async function claimsPerSecond(stores, ids) {
  let next = 0;
  let claimed = 0;
  const t0 = process.hrtime.bigint();
  await Promise.all(
    stores.map(async (store) => {
      for (;;) {
        const i = next++;
        if (i >= ids.length) return;
        if ((await store.claimApproval(ids[i], Date.now())).outcome === 'claimed') claimed += 1;
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (claimed !== ids.length) throw new Error(`claimed ${claimed} of ${ids.length}`);
  return ids.length / seconds;
}

const fmt = (ms) => `${ms.toFixed(3)} ms`;

export async function run() {
  const memory = memoryStore();
  const memTimes = await claimLatencies(memory, await approved(memory, 'm', CLAIMS));
  const memRate = await claimsPerSecond(Array.from({ length: CLIENTS }, () => memory), await approved(memory, 'mr', PG_CLAIMS));
  await memory.close();

  const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-bench-'));
  try {
    const sqlite = sqliteStore({ path: path.join(dir, 'state.db') });
    const ids = await approved(sqlite, 's', CLAIMS);
    const times = await claimLatencies(sqlite, ids);
    await sqlite.close();
    const [p50, p99, m50, m99] = [percentile(times, 50), percentile(times, 99), percentile(memTimes, 50), percentile(memTimes, 99)];
    console.log(`sqlite claim latency (${CLAIMS} claims, one process): p50 ${fmt(p50)}, p99 ${fmt(p99)}`);
    console.log(`  baseline memory store: p50 ${fmt(m50)}, p99 ${fmt(m99)}  -> sqlite/memory p50 x${(p50 / m50).toFixed(1)}, p99 x${(p99 / m99).toFixed(1)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const url = process.env.CTRLRUN_TEST_PG_URL;
  if (!url) {
    console.log('postgres: skipped (set CTRLRUN_TEST_PG_URL to a server to measure claims per second with 8 clients)');
    return;
  }
  const schema = `ctrlrun_bench_${randomBytes(4).toString('hex')}`;
  const setup = postgresStore({ connectionString: url, schema });
  try {
    const ids = await approved(setup, 'p', PG_CLAIMS);
    const clients = Array.from({ length: CLIENTS }, () => postgresStore({ connectionString: url, schema, max: 1 }));
    const rate = await claimsPerSecond(clients, ids);
    await Promise.all(clients.map((c) => c.close()));
    console.log(`postgres claims per second (${PG_CLAIMS} claims, ${CLIENTS} concurrent clients): ${rate.toFixed(0)}/s`);
    console.log(`  baseline memory store, ${CLIENTS} concurrent workers: ${memRate.toFixed(0)}/s  -> postgres/memory x${(rate / memRate).toFixed(4)}`);
  } finally {
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
    await setup.close();
  }
}
