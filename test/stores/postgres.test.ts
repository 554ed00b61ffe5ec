import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/runtime/index.js';
import { postgresStore } from '../../src/runtime/postgres.js';
import { POSTGRES_MIGRATIONS } from '../../src/runtime/stores/postgres.js';
import { verifyChain } from './chain.js';
import { describePostgres, dropSchema, freshSchema, withClient } from './pg-helpers.js';

async function storeError(promise: Promise<unknown>): Promise<StoreError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreError);
  return error as StoreError;
}

const body = (n: number) => ({
  at: n,
  action: 'stripe.refund',
  call_id: `c${n}`,
  args_hash: null,
  principal: 'alice',
  decision: 'allow' as const,
  reason: 'rule_matched',
  approvers: [],
  effect_key: null,
  result: 'executed',
  policy_hash: 'p',
  mode: 'enforce' as const,
  environment: null,
});

describePostgres('postgresStore', (url) => {
  const schemas: string[] = [];
  const schema = () => {
    const s = freshSchema();
    schemas.push(s);
    return s;
  };
  afterAll(async () => {
    for (const s of schemas) await dropSchema(url, s);
  });

  it('migrates once when many stores start at the same time on a fresh schema', async () => {
    const s = schema();
    const stores = Array.from({ length: 6 }, () => postgresStore({ connectionString: url, schema: s, max: 2 }));
    await Promise.all(stores.map((st) => st.listRequests()));
    await Promise.all(stores.map((st) => st.close()));
    const version = await withClient(url, (c) => c.query(`SELECT app, version FROM "${s}".ctrlrun_schema`));
    // one row, at the newest migration: every store ran the migrations once between them
    expect(version.rows).toEqual([{ app: 'ctrlrun-gen', version: POSTGRES_MIGRATIONS.at(-1)!.version }]);
  });

  it('chains receipts from many pools without forking seq or prev_hash', async () => {
    const s = schema();
    const stores = Array.from({ length: 4 }, () => postgresStore({ connectionString: url, schema: s, max: 3 }));
    await Promise.all(stores.flatMap((st, i) => Array.from({ length: 10 }, (_, j) => st.appendReceipt(body(i * 100 + j)))));
    const receipts = await stores[0]!.listReceipts();
    expect(receipts.map((r) => r.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(verifyChain(receipts)).toBe(null);
    expect((await stores[1]!.listReceipts({ afterSeq: 38 })).map((r) => r.seq)).toEqual([39, 40]);
    await Promise.all(stores.map((st) => st.close()));
  });

  it("refuses a schema that holds someone else's tables, and changes nothing", async () => {
    const s = schema();
    await withClient(url, (c) => c.query(`CREATE SCHEMA "${s}"; CREATE TABLE "${s}".orders (id int)`));
    const store = postgresStore({ connectionString: url, schema: s });
    const error = await storeError(store.listRequests());
    expect(error.code).toBe('store_foreign');
    expect(error.message).toContain(s);
    await store.close();
    const tables = await withClient(url, (c) => c.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1`, [s]));
    expect(tables.rows).toEqual([{ table_name: 'orders' }]);
  });

  it('refuses a schema migrated by a newer version', async () => {
    const s = schema();
    const first = postgresStore({ connectionString: url, schema: s });
    await first.listRequests();
    await first.close();
    await withClient(url, (c) => c.query(`UPDATE "${s}".ctrlrun_schema SET version = 99`));
    const store = postgresStore({ connectionString: url, schema: s });
    expect((await storeError(store.listRequests())).code).toBe('store_newer_schema');
    await store.close();
  });

  it('an unreachable server is a clear error that never shows the password', async () => {
    const store = postgresStore({ connectionString: 'postgres://ops:s3cret@127.0.0.1:1/none' });
    const error = await storeError(store.claimApproval('c1', 1));
    expect(error.code).toBe('store_unavailable');
    expect(error.message).toMatch(/connection was lost or refused/);
    expect(error.message).not.toContain('s3cret');
    await store.close();
  });

  it('close() ends a pool it made, but never a pool it was given', async () => {
    const s = schema();
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const given = postgresStore({ pool, schema: s });
    await given.putRequest({
      callId: 'c1',
      action: 'a',
      toolName: 't',
      argsHash: 'h',
      args: '{}',
      policyHash: 'p',
      principal: 'alice',
      approvalsRequired: 1,
      createdAt: 1,
    });
    await given.close();
    expect((await pool.query(`SELECT count(*)::int AS n FROM "${s}".approvals`)).rows[0].n).toBe(1);
    await pool.end();
    expect((await storeError(given.listRequests())).code).toBe('store_closed');

    const owned = postgresStore({ connectionString: `${url}${url.includes('?') ? '&' : '?'}application_name=ctrlrun_close_test_${s}`, schema: s });
    await owned.listRequests();
    const count = () =>
      withClient(
        url,
        async (c) =>
          (await c.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1`, [`ctrlrun_close_test_${s}`])).rows[0].n as number,
      );
    expect(await count()).toBeGreaterThan(0);
    await owned.close();
    await expect.poll(count).toBe(0);
  });

  it('rejects a schema name that is not a plain identifier', () => {
    expect(() => postgresStore({ connectionString: url, schema: 'x"; DROP TABLE y; --' })).toThrow(/not a plain identifier/);
  });
});

describe('postgresStore without a server', () => {
  it('needs a connection string or a pool', () => {
    expect(() => postgresStore({} as never)).toThrow(/connectionString.*pool/);
  });
});
