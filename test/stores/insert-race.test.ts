import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { postgresStore } from '../../src/runtime/postgres.js';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import type { BudgetCharge, Store } from '../../src/runtime/types.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { describePostgres, dropSchema, freshSchema, withClient } from './pg-helpers.js';
import { describeEachSqliteDriver } from './sqlite-drivers.js';

/**
 * A reservation of a new key that loses its INSERT to another writer's: the other transaction
 * inserts the key (committed) while the store's reservation waits on it, then commits. The store
 * must decide again on the row it lost to (a duplicate), writing nothing: no charge, no consumed
 * approval. Charged and uncharged reservations take the same path.
 */
const CHILDREN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'children');
const charge = (grantId: string): BudgetCharge => ({ grantId, metric: 'amount', amount: '10', limit: '100', windowMs: 60_000 });
const insertCommitted = (table: string, key: string) =>
  `INSERT INTO ${table} (key, action, state, attempts, attempt_id, lease_until, updated_at, resolved_by) VALUES ('${key}', 'stripe.refund', 'committed', 1, 'other', 0, 900, NULL)`;

async function approved(store: Store, callId: string) {
  await store.putRequest({
    callId,
    action: 'stripe.refund',
    toolName: 'refund',
    argsHash: 'a'.repeat(64),
    args: '{}',
    policyHash: 'p'.repeat(64),
    principal: 'alice',
    approvalsRequired: 1,
    createdAt: 1_000,
  });
  await store.addAnswer(callId, { approver: 'bob', decision: 'approve', at: 2_000 });
  return { callId, binding: { action: 'stripe.refund', argsHash: 'a'.repeat(64), policyHash: 'p'.repeat(64), principal: 'alice' } };
}

/** Reserves `key` while `hold` keeps the other writer's insert open; `release` commits it. */
async function lostRace(
  store: Store,
  key: string,
  charged: boolean,
  hold: () => Promise<{ waiting: () => Promise<void>; release: () => Promise<void>; closed?: Promise<unknown> }>,
) {
  const grant = `grant-${key}`;
  const claim = await approved(store, `call-${key}`);
  const other = await hold();
  const reservation = store.reserveEffect({
    key,
    action: 'stripe.refund',
    attemptId: 'mine',
    maxAttempts: 3,
    now: 10_000,
    leaseMs: 60_000,
    claim,
    ...(charged ? { charges: [charge(grant)] } : {}),
  });
  await other.waiting();
  await other.release();
  const result = await reservation;
  await other.closed;
  expect(result).toMatchObject({ outcome: 'duplicate', effect: { key, state: 'committed', attemptId: 'other' } });
  expect(await store.getEffect(key)).toMatchObject({ state: 'committed', attemptId: 'other', attempts: 1 });
  expect(await store.consumptions({ effectKey: key })).toEqual([]);
  expect((await store.getRequest(claim.callId))?.state).toBe('approved');
}

describeEachSqliteDriver('a lost insert race on SQLite', (driver) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-insert-race-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'state.db');

  /**
   * Another process takes the write lock, inserts the key, and commits 400 ms later on its own
   * (the store's synchronous busy wait blocks this process meanwhile).
   */
  const holder = (key: string) => async () => {
    const child = spawn(process.execPath, [path.join(CHILDREN, 'hold-sqlite-lock.mjs'), file, insertCommitted('effects', key), '400'], {
      cwd: REPO_ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const closed = new Promise((r) => child.on('close', r));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
      child.on('exit', (code) => reject(new Error(`lock holder exited ${code}`)));
    });
    return {
      waiting: async () => undefined, // the reservation below starts its busy wait at once
      release: async () => undefined,
      closed,
    };
  };

  for (const charged of [false, true]) {
    it(`${charged ? 'charged' : 'uncharged'}: the reservation waits for the other writer, then is a duplicate and writes nothing`, async () => {
      const store = sqliteStore({ path: file, driver });
      try {
        await store.getEffect('migrate-first');
        const key = `refund-${driver}-${charged}`;
        await lostRace(store, key, charged, holder(key));
      } finally {
        await store.close();
      }
    });
  }
});

describePostgres('a lost insert race on Postgres', (url) => {
  const schema = freshSchema();
  afterAll(() => dropSchema(url, schema));

  /** Another connection inserts the key in an open transaction; the store's INSERT waits on it. */
  const holder = (key: string) => async () => {
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('BEGIN');
    await client.query(insertCommitted(`"${schema}".effects`, key));
    return {
      waiting: async () => {
        // until a backend of this schema waits on a lock (the store's INSERT on our row)
        for (let i = 0; i < 200; i++) {
          const r = await withClient(url, (c) =>
            c.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1`, [`%"${schema}".effects%`]),
          );
          if ((r.rows[0] as { n: number }).n > 0) return;
          await new Promise((r) => setTimeout(r, 25));
        }
        throw new Error('the reservation never waited on the other insert');
      },
      release: async () => {
        await client.query('COMMIT');
        await client.end();
      },
    };
  };

  for (const charged of [false, true]) {
    it(`${charged ? 'charged' : 'uncharged'}: the INSERT loses, the key is decided again on its row (duplicate), nothing is written`, async () => {
      const store = postgresStore({ connectionString: url, schema });
      try {
        await store.getEffect('migrate-first');
        const key = `refund-${charged}`;
        await lostRace(store, key, charged, holder(key));
      } finally {
        await store.close();
      }
    });
  }
});
