// `npm run bench stores`: the durable stores' claim cost, each against a bare statement measured in
// the same run on the same medium (issue 23's cost floor):
// - SQLite: claim latency p50/p99 (one process, WAL, synchronous=FULL) against a bare
//   `UPDATE … WHERE state = 'approved'` in its own BEGIN IMMEDIATE transaction on the same
//   driver with the same pragmas, per available driver (node:sqlite, better-sqlite3).
// - Postgres: claims per second with 8 concurrent clients (8 stores, one connection each) against
//   the bare single-statement UPDATE with 8 one-connection pools on the same server, from
//   CTRLRUN_TEST_PG_URL (skipped with a note when it is not set).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { memoryStore } from '../dist/runtime/index.js';
import * as sqliteEntry from '../dist/runtime/sqlite.js';
import { postgresStore } from '../dist/runtime/postgres.js';
import { sized } from './lib/size.mjs';

// each a multiple of its blocks (below)
const CLAIMS = sized(2000, 16);
const PG_CLAIMS = sized(4000, 64);
const CLIENTS = 8;
const BLOCKS = 8;
const PG_BLOCKS = 32;
const BARE_CLAIM_SQL = `UPDATE approvals SET state = 'consumed', consumed_at = ? WHERE call_id = ? AND state = 'approved'`;

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

function quartiles(values) {
  const v = [...values].sort((a, b) => a - b);
  const at = (p) => v[Math.min(v.length - 1, Math.floor(p * v.length))];
  return { q1: at(0.25), median: at(0.5), q3: at(0.75) };
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Latencies (ms, sorted) of `claim(id)` over `ids`, one after another. */
async function latencies(ids, claim) {
  const times = [];
  for (const id of ids) {
    const t0 = process.hrtime.bigint();
    const ok = await claim(id);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (!ok) throw new Error(`claim ${id} was refused`);
  }
  return times.sort((a, b) => a - b);
}

/** Claims every id with one worker per claimer, concurrently; returns claims per second. */
async function perSecond(claimers, ids) {
  let next = 0;
  let claimed = 0;
  const t0 = process.hrtime.bigint();
  await Promise.all(
    claimers.map(async (claim) => {
      for (;;) {
        const i = next++;
        if (i >= ids.length) return;
        if (await claim(ids[i])) claimed += 1;
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (claimed !== ids.length) throw new Error(`claimed ${claimed} of ${ids.length}`);
  return ids.length / seconds;
}

const storeClaim = (store) => async (id) => (await store.claimApproval(id, Date.now())).outcome === 'claimed';
const fmt = (ms) => `${ms.toFixed(3)} ms`;

/** The drivers this Node can load: node:sqlite (Node >= 22.13) and better-sqlite3 (when built for this ABI). */
async function sqliteDrivers() {
  const drivers = [];
  try {
    const { DatabaseSync } = await import('node:sqlite');
    drivers.push({ name: 'node', open: (file) => nodeBare(new DatabaseSync(file)) });
  } catch {
    console.log('sqlite driver node:sqlite: not available on this Node (needs >= 22.13)');
  }
  try {
    const Database = createRequire(import.meta.url)('better-sqlite3');
    new Database(':memory:').close();
    drivers.push({ name: 'better-sqlite3', open: (file) => betterBare(new Database(file)) });
  } catch (error) {
    console.log(`sqlite driver better-sqlite3: cannot load on Node ${process.versions.node} (${String(error.message).split('\n')[0]})`);
  }
  return drivers;
}

/** A bare claim on each driver: BEGIN IMMEDIATE; the conditional UPDATE; COMMIT. */
function nodeBare(db) {
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL');
  const update = db.prepare(BARE_CLAIM_SQL);
  return {
    claim: (id) => {
      db.exec('BEGIN IMMEDIATE');
      const n = update.run(Date.now(), id).changes;
      db.exec('COMMIT');
      return n === 1;
    },
    close: () => db.close(),
  };
}
function betterBare(db) {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  const update = db.prepare(BARE_CLAIM_SQL);
  const tx = db.transaction((id) => update.run(Date.now(), id).changes === 1);
  return { claim: (id) => tx.immediate(id), close: () => db.close() };
}

async function benchSqlite(dir, driver) {
  const file = path.join(dir, `state-${driver.name}.db`);
  const options = sqliteEntry.SQLITE_DRIVERS ? { path: file, driver: driver.name } : { path: file };
  if (!sqliteEntry.SQLITE_DRIVERS && driver.name !== 'better-sqlite3') return; // before node:sqlite support
  const store = sqliteEntry.sqliteStore(options);
  const storeIds = await approved(store, 's', CLAIMS);
  const bareIds = await approved(store, 'b', CLAIMS);
  await store.close();
  // claims interleaved one by one in ABBA order (bare, store, store, bare, ...): the disk's fsync
  // time drifts by whole milliseconds while other processes write, and only a fine interleave
  // shares that out; the p50s of each block of claims give the spread
  const bare = driver.open(file);
  const s = sqliteEntry.sqliteStore(options);
  const claimStore = storeClaim(s);
  const size = CLAIMS / BLOCKS;
  const runs = { bare: [], store: [] };
  const timed = async (claim, id) => {
    const t0 = process.hrtime.bigint();
    const ok = await claim(id);
    if (!ok) throw new Error(`claim ${id} was refused`);
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  for (let b = 0; b < BLOCKS; b++) {
    const block = { bare: [], store: [] };
    for (let i = b * size; i < (b + 1) * size; i++) {
      for (const side of i % 2 === 0 ? ['bare', 'store'] : ['store', 'bare']) {
        block[side].push(side === 'bare' ? await timed(async (id) => bare.claim(id), bareIds[i]) : await timed(claimStore, storeIds[i]));
      }
    }
    runs.bare.push(block.bare.sort((x, y) => x - y));
    runs.store.push(block.store.sort((x, y) => x - y));
  }
  bare.close();
  await s.close();
  const times = runs.store.flat().sort((a, b) => a - b);
  const bareTimes = runs.bare.flat().sort((a, b) => a - b);
  const pairs = quartiles(runs.store.map((t, i) => percentile(t, 50) / percentile(runs.bare[i], 50)));
  const [p50, p99, b50, b99] = [percentile(times, 50), percentile(times, 99), percentile(bareTimes, 50), percentile(bareTimes, 99)];
  console.log(`sqlite (${driver.name}) claim latency (${CLAIMS} claims, one process): p50 ${fmt(p50)}, p99 ${fmt(p99)}`);
  console.log(
    `  baseline bare UPDATE in BEGIN IMMEDIATE (WAL, synchronous=FULL): p50 ${fmt(b50)}, p99 ${fmt(b99)}  -> store/bare p50 x${(p50 / b50).toFixed(2)}, p99 x${(p99 / b99).toFixed(2)}`,
  );
  console.log(
    `  noise: per-block p50 ratio median x${pairs.median.toFixed(2)}, interquartile x${pairs.q1.toFixed(2)}-x${pairs.q3.toFixed(2)} (${BLOCKS} blocks of ${size} interleaved claims per side)`,
  );
}

async function benchPostgres(url) {
  const pg = (await import('pg')).default;
  const schema = `ctrlrun_bench_${randomBytes(4).toString('hex')}`;
  const setup = postgresStore({ connectionString: url, schema });
  try {
    const storeIds = await approved(setup, 'p', PG_CLAIMS);
    const bareIds = await approved(setup, 'q', PG_CLAIMS);
    const bareSql = `UPDATE "${schema}".approvals SET state = 'consumed', consumed_at = $2 WHERE call_id = $1 AND state = 'approved'`;
    const pools = Array.from({ length: CLIENTS }, () => new pg.Pool({ connectionString: url, max: 1 }));
    const stores = Array.from({ length: CLIENTS }, () => postgresStore({ connectionString: url, schema, max: 1 }));
    // the server's own durability, named beside the figure: with fsync off no claim waits on a disk flush
    const flush = (await pools[0].query('SHOW fsync')).rows[0]?.fsync;
    const bareClaim = (pool) => async (id) => (await pool.query(bareSql, [id, Date.now()])).rowCount === 1;
    // warm every connection on both sides, then blocks in ABBA order, repeated: the rate drifts
    // over a run (dead rows, the machine's load), and fine interleaving shares the drift out
    await Promise.all([...pools.map((p) => p.query('SELECT 1')), ...stores.map((s) => s.getRequest('warm-up'))]);
    const size = PG_CLAIMS / PG_BLOCKS;
    const rates = { bare: [], store: [] };
    for (let b = 0; b < PG_BLOCKS; b++) {
      const order = b % 2 === 0 ? ['bare', 'store'] : ['store', 'bare'];
      for (const side of order) {
        const ids = (side === 'bare' ? bareIds : storeIds).slice(b * size, (b + 1) * size);
        rates[side].push(await perSecond(side === 'bare' ? pools.map(bareClaim) : stores.map(storeClaim), ids));
      }
    }
    await Promise.all([...pools.map((p) => p.end()), ...stores.map((s) => s.close())]);
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const [rate, bare] = [mean(rates.store), mean(rates.bare)];
    // each block against the other side's block next to it: a busy stretch of the machine slows both
    const pairs = quartiles(rates.store.map((r, i) => r / rates.bare[i]));
    console.log(`  (blocks of ${size}: bare ${rates.bare.map((r) => r.toFixed(0)).join(' ')}; store ${rates.store.map((r) => r.toFixed(0)).join(' ')})`);
    console.log(`postgres claims per second (${PG_CLAIMS} claims, ${CLIENTS} concurrent clients, server fsync=${flush}): ${rate.toFixed(0)}/s`);
    console.log(
      `  baseline bare single-statement UPDATE, ${CLIENTS} one-connection pools: ${bare.toFixed(0)}/s  -> store/bare x${(rate / bare).toFixed(2)} (means)`,
    );
    console.log(
      `  per-block-pair store/bare: median x${pairs.median.toFixed(2)}, interquartile x${pairs.q1.toFixed(2)}-x${pairs.q3.toFixed(2)} (${PG_BLOCKS} pairs; load average ${os.loadavg()[0].toFixed(1)})`,
    );
  } finally {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
    await setup.close();
  }
}

export async function run() {
  const memory = memoryStore();
  const memTimes = await latencies(await approved(memory, 'm', CLAIMS), storeClaim(memory));
  await memory.close();
  console.log(`memory store claim latency: p50 ${fmt(percentile(memTimes, 50))} (for scale)`);

  const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-bench-'));
  try {
    for (const driver of await sqliteDrivers()) await benchSqlite(dir, driver);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const url = process.env.CTRLRUN_TEST_PG_URL;
  if (!url) {
    console.log('postgres: skipped (set CTRLRUN_TEST_PG_URL to a server to measure claims per second with 8 clients)');
    return;
  }
  await benchPostgres(url);
}
