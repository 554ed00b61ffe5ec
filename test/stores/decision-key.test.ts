import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresStore } from '../../src/runtime/postgres.js';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import { describePostgres, dropSchema, freshSchema } from './pg-helpers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('the decision key is kept in the store (SQLite)', () => {
  it('made once: every store object on the file, and the file reopened, reads the same key; another file has another', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-decision-key-'));
    dirs.push(dir);
    const file = path.join(dir, 'state.db');
    const a = sqliteStore({ path: file });
    const b = sqliteStore({ path: file });
    const [ka, kb] = await Promise.all([a.decisionKey!(), b.decisionKey!()]);
    expect(ka).toMatch(/^[0-9a-f]{64}$/);
    expect(kb).toBe(ka);
    await a.close();
    await b.close();
    const reopened = sqliteStore({ path: file });
    expect(await reopened.decisionKey!()).toBe(ka);
    await reopened.close();
    const other = sqliteStore({ path: path.join(dir, 'other.db') });
    expect(await other.decisionKey!()).not.toBe(ka);
    await other.close();
  });
});

describePostgres('the decision key is kept in the store (Postgres)', (url) => {
  it('two pools on one schema read the same key, made once; another schema has another', async () => {
    const schema = freshSchema();
    const second = freshSchema();
    const a = postgresStore({ connectionString: url, schema });
    const b = postgresStore({ connectionString: url, schema });
    const c = postgresStore({ connectionString: url, schema: second });
    try {
      const [ka, kb] = await Promise.all([a.decisionKey!(), b.decisionKey!()]);
      expect(ka).toMatch(/^[0-9a-f]{64}$/);
      expect(kb).toBe(ka);
      expect(await c.decisionKey!()).not.toBe(ka);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
      await dropSchema(url, schema);
      await dropSchema(url, second);
    }
  });
});
