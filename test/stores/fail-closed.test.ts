import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRawSqlite } from './sqlite-drivers.js';
import { StoreError, run } from '../../src/runtime/index.js';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import { postgresStore } from '../../src/runtime/postgres.js';
import type { Store } from '../../src/runtime/types.js';
import { agentWith, assistantMessage, refundCall, refundTool, scripted, setup } from '../runtime/helpers.js';

/** An allowed refund through a protected tool on `store`: the error run() hands back, and the body's runs. */
async function refundOn(store: Store) {
  const s = setup({ store });
  const { tool, calls } = refundTool(s);
  const agent = agentWith(scripted([refundCall({ payment_id: 'pay_1', amount: 5_000 }, 'c1')], [assistantMessage('done')]), [tool]);
  const error = await run(agent, 'refund', { context: { user: 'alice' } }).then(
    () => undefined,
    (e: unknown) => e,
  );
  await store.close();
  return { error, calls };
}

describe("a store that cannot be used: nothing runs, the error is the store's own", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-failclosed-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a corrupt SQLite file', async () => {
    const file = path.join(dir, 'state.db');
    writeFileSync(file, 'garbage '.repeat(200));
    const { error, calls } = await refundOn(sqliteStore({ path: file }));
    expect(calls).toEqual([]);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('store_corrupt');
  });

  it('a foreign SQLite database', async () => {
    const file = path.join(dir, 'app.db');
    const db = await openRawSqlite(file);
    db.exec('CREATE TABLE invoices (id INTEGER)');
    db.close();
    const { error, calls } = await refundOn(sqliteStore({ path: file }));
    expect(calls).toEqual([]);
    expect((error as StoreError).code).toBe('store_foreign');
  });

  it('an unreachable Postgres server', async () => {
    const { error, calls } = await refundOn(postgresStore({ connectionString: 'postgres://nobody@127.0.0.1:1/none' }));
    expect(calls).toEqual([]);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).message).toMatch(/connection was lost or refused/);
  });
});
