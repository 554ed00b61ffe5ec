import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { sqliteStore, type SqliteDriverName } from '../../src/runtime/sqlite.js';
import { returningArrays } from '../../src/runtime/stores/sqlite-driver.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { describeEachSqliteDriver, openRawSqlite } from './sqlite-drivers.js';

// A claim is one UPDATE … RETURNING in autocommit (its own transaction): these pin what that
// must keep of BEGIN IMMEDIATE … COMMIT. Durable once answered; a commit that fails is an error.
const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'children', 'sqlite-claim-child.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-sqlite-claim-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function approved(file: string, driver: SqliteDriverName): Promise<void> {
  const store = sqliteStore({ path: file, driver });
  await store.putRequest({
    callId: 'c1',
    action: 'stripe.refund',
    toolName: 'refund',
    argsHash: 'a'.repeat(64),
    args: '{"amount":5}',
    policyHash: 'p'.repeat(64),
    principal: 'alice',
    approvalsRequired: 1,
    createdAt: 1_000,
  });
  await store.addAnswer('c1', { approver: 'bob', decision: 'approve', at: 2_000 });
  await store.close();
}

/** Runs the claim child, under `sh -c` when `limit` is given (a shell line run before it, e.g. `ulimit -f 4`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function claimChild(config: { file: string; driver: SqliteDriverName; after: 'kill' | 'close' }, limit?: string): { answer: any; signal: string | null } {
  if (!existsSync(path.join(REPO_ROOT, 'dist/runtime/sqlite.js'))) throw new Error('dist/ is missing: run `npm run build` before these tests');
  const args = [CHILD, JSON.stringify(config)];
  const r = limit
    ? spawnSync('sh', ['-c', `${limit}; exec "$0" "$@"`, process.execPath, ...args], { cwd: REPO_ROOT, encoding: 'utf8' })
    : spawnSync(process.execPath, args, { cwd: REPO_ROOT, encoding: 'utf8' });
  const line = r.stdout.trim().split('\n').at(-1);
  if (!line) throw new Error(`the child printed nothing (exit ${r.status}, ${r.signal}): ${r.stderr}`);
  return { answer: JSON.parse(line), signal: r.signal };
}

describeEachSqliteDriver('a SQLite claim in autocommit', (driver) => {
  it('a claim that answered `claimed` is still consumed after its process is killed right after the answer', async () => {
    const file = path.join(dir, `killed-${driver}.db`);
    await approved(file, driver);
    const { answer, signal } = claimChild({ file, driver, after: 'kill' });
    expect(signal).toBe('SIGKILL');
    expect(answer.outcome).toBe('claimed');
    expect(answer.request).toMatchObject({ callId: 'c1', state: 'consumed', consumedAt: 4_000, answers: [{ approver: 'bob' }] });
    const store = sqliteStore({ path: file, driver });
    expect(await store.getRequest('c1')).toEqual(answer.request); // the answer is the stored request, every field
    expect((await store.claimApproval('c1', 5_000)).outcome).toBe('consumed');
    await store.close();
  });

  it('a claim whose commit fails (the WAL cannot grow) is an error, never `claimed`, and the approval stays approved', async () => {
    const file = path.join(dir, `full-${driver}.db`);
    await approved(file, driver);
    // An empty WAL, its index kept by this open connection: the child writes nothing before the
    // claim's commit, which then needs WAL frames past a 2 KiB file size limit (Node ignores SIGXFSZ).
    const held = await openRawSqlite(file);
    try {
      held.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      const { answer } = claimChild({ file, driver, after: 'close' }, 'ulimit -f 4');
      expect(answer.outcome).toBeUndefined();
      expect(answer.code).toBe('store_failed');
      expect(answer.error).toMatch(/claimApproval failed/);
    } finally {
      held.close();
    }
    const store = sqliteStore({ path: file, driver });
    expect((await store.getRequest('c1'))?.state).toBe('approved');
    expect((await store.claimApproval('c1', 5_000)).outcome).toBe('claimed');
    await store.close();
  });
});

it('node:sqlite without array rows (Node before 22.16): each row object is read as its values in column order', () => {
  const rows = [{ b: 2, a: 1, c: null }];
  const statement = { run: () => ({ changes: 1 }), get: () => rows[0], all: () => rows };
  const arrays = returningArrays(statement);
  expect(arrays.all()).toEqual([[2, 1, null]]);
  expect(arrays.get()).toEqual([2, 1, null]);
  expect(returningArrays({ ...statement, get: () => undefined }).get()).toBeUndefined();
  expect(arrays.run().changes).toBe(1);
});
