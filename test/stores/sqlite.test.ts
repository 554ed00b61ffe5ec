import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/runtime/index.js';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import { SQLITE_APPLICATION_ID, SQLITE_MIGRATIONS } from '../../src/runtime/stores/sqlite.js';
import type { NewApprovalRequest, Store } from '../../src/runtime/types.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { openRawSqlite } from './sqlite-drivers.js';

const CHILDREN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'children');

const request = (callId: string): NewApprovalRequest => ({
  callId,
  action: 'stripe.refund',
  toolName: 'refund',
  argsHash: 'a'.repeat(64),
  args: '{"amount":5000}',
  policyHash: 'p'.repeat(64),
  principal: 'alice',
  approvalsRequired: 1,
  createdAt: 1_000,
});

async function storeError(promise: Promise<unknown>): Promise<StoreError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreError);
  return error as StoreError;
}

describe('sqliteStore', () => {
  let dir: string;
  const stores: Store[] = [];
  const open = (file: string, busyTimeoutMs?: number): Store => {
    const store = sqliteStore(busyTimeoutMs === undefined ? { path: file } : { path: file, busyTimeoutMs });
    stores.push(store);
    return store;
  };

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-sqlite-'));
  });
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates the file and its directory owner-only (0600 / 0700), in WAL mode, at the latest schema', async () => {
    const file = path.join(dir, '.ctrlrun', 'state.db');
    const store = open(file);
    expect(existsSync(file)).toBe(false); // nothing happens until the store is used
    await store.putRequest(request('c1'));
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(`${file}-wal`).mode & 0o777).toBe(0o600); // SQLite gives its side files the db file's mode
    const db = await openRawSqlite(file, { readonly: true });
    expect(db.pragma('journal_mode')).toBe('wal');
    expect(db.pragma('application_id')).toBe(SQLITE_APPLICATION_ID);
    expect(db.pragma('user_version')).toBe(SQLITE_MIGRATIONS.at(-1)!.version);
    db.close();
  });

  it('keeps its data across store instances (a second process opening the same file)', async () => {
    const file = path.join(dir, 'state.db');
    const first = open(file);
    await first.putRequest(request('c1'));
    await first.addAnswer('c1', { approver: 'bob', decision: 'approve', at: 2_000 });
    await first.appendReceipt({
      at: 1,
      action: 'a',
      call_id: 'c1',
      args_hash: null,
      principal: 'alice',
      decision: 'approve',
      reason: 'rule_matched',
      approvers: [],
      effect_key: null,
      result: 'requested',
      policy_hash: 'p',
      mode: 'enforce',
      environment: null,
    });
    await first.close();
    const second = open(file);
    expect((await second.getRequest('c1'))?.state).toBe('approved');
    expect((await second.claimApproval('c1', 3_000)).outcome).toBe('claimed');
    expect((await second.claimApproval('c1', 3_001)).outcome).toBe('consumed');
    expect((await second.listReceipts()).map((r) => r.seq)).toEqual([1]);
  });

  it('refuses a foreign SQLite database (not ours) and leaves it untouched', async () => {
    const file = path.join(dir, 'app.db');
    const db = await openRawSqlite(file);
    db.exec('CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)');
    db.close();
    const before = readFileSync(file);
    const error = await storeError(open(file).listRequests());
    expect(error.code).toBe('store_foreign');
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/not a ctrlrun-gen database/);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('refuses a corrupt file with a clear error; nothing is claimed', async () => {
    const file = path.join(dir, 'state.db');
    writeFileSync(file, 'this is not a database at all, just some text that happens to be long enough '.repeat(20));
    const store = open(file);
    const error = await storeError(store.claimApproval('c1', 1));
    expect(error.code).toBe('store_corrupt');
    expect(error.message).toMatch(/not a usable SQLite database/);
    expect(error.message).not.toMatch(/\n\s+at /);
  });

  it('refuses a database written by a newer schema', async () => {
    const file = path.join(dir, 'state.db');
    await open(file).listRequests();
    const db = await openRawSqlite(file);
    db.exec('PRAGMA user_version = 999');
    db.close();
    const error = await storeError(open(file).listRequests());
    expect(error.code).toBe('store_newer_schema');
    expect(error.message).toMatch(/999/);
  });

  it('fails closed with a clear error when another process holds the lock past the busy timeout', async () => {
    const file = path.join(dir, 'state.db');
    const setup = open(file);
    await setup.putRequest(request('c1'));
    await setup.addAnswer('c1', { approver: 'bob', decision: 'approve', at: 2_000 });
    const holder = spawn(process.execPath, [path.join(CHILDREN, 'hold-sqlite-lock.mjs'), file], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
        holder.on('exit', (code) => reject(new Error(`lock holder exited ${code}`)));
      });
      const store = open(file, 150);
      await store.getRequest('c1'); // reads go on under WAL
      const error = await storeError(store.claimApproval('c1', 3_000));
      expect(error.code).toBe('store_locked');
      expect(error.message).toMatch(/locked past the busy timeout \(150 ms\)/);
    } finally {
      holder.stdin.end();
      await new Promise((resolve) => holder.on('close', resolve));
    }
    // The refused claim changed nothing: the approval is still there to claim, once.
    expect((await setup.claimApproval('c1', 4_000)).outcome).toBe('claimed');
  });

  it('reports a path it cannot create as unavailable, with the path', async () => {
    const blocker = path.join(dir, 'not-a-dir');
    writeFileSync(blocker, 'x');
    const file = path.join(blocker, 'state.db');
    const error = await storeError(open(file).listRequests());
    expect(error.code).toBe('store_unavailable');
    expect(error.message).toContain(file);
  });

  it('a closed store refuses further calls', async () => {
    const store = open(path.join(dir, 'state.db'));
    await store.listRequests();
    await store.close();
    expect((await storeError(store.listRequests())).code).toBe('store_closed');
  });

  it('is loaded lazily: importing the runtime does not load better-sqlite3 (nor pg)', () => {
    const script = `
      import { createRequire } from 'node:module';
      await import(${JSON.stringify(path.join(REPO_ROOT, 'dist/runtime/index.js'))});
      const cache = Object.keys(createRequire(import.meta.url).cache);
      console.log(JSON.stringify(cache.filter((k) => /better-sqlite3|node_modules\\/pg\\//.test(k))));
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual([]);
  });
});
