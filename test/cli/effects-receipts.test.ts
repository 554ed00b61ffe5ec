import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { requestedReceipt, tempRepo, withSqlite } from './operator-helpers.js';

const reserve = (key: string, now: number, leaseMs = 1_000) => ({ key, action: 'stripe.refund', attemptId: `att-${key}-${now}`, maxAttempts: 3, now, leaseMs });

describe('ctrlrun-gen effects and receipts', () => {
  let repo: ReturnType<typeof tempRepo>;
  const run = (args: string[]) => cli(args, { cwd: repo.nested, env: { NO_COLOR: '1' } });

  beforeEach(async () => {
    repo = tempRepo();
    await withSqlite(repo.dbPath, async (store) => {
      const now = Date.now();
      await store.appendReceipt({ ...requestedReceipt('call_1'), effect_key: 'refund:pi_amb', result: 'executing' });
      await store.reserveEffect(reserve('refund:pi_amb', now));
      await store.settleEffect('refund:pi_amb', `att-refund:pi_amb-${now}`, 'ambiguous', now);
      await store.reserveEffect(reserve('refund:pi_done', now));
      await store.settleEffect('refund:pi_done', `att-refund:pi_done-${now}`, 'committed', now);
      await store.reserveEffect(reserve('refund:pi_running', now, 3_600_000));
      await store.reserveEffect(reserve('refund:pi_crashed', now - 10_000));
    });
  });
  afterEach(() => rmSync(repo.root, { recursive: true, force: true }));

  it('effects list shows every key; --state ambiguous only those; a crashed lease says to resolve it', async () => {
    const all = await run(['effects', 'list']);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/refund:pi_amb\s+ambiguous/);
    expect(all.stdout).toMatch(/refund:pi_done\s+committed/);
    expect(all.stdout).toMatch(/refund:pi_crashed\s+in_flight.*lease over/);
    const amb = await run(['effects', 'list', '--state', 'ambiguous']);
    expect(amb.stdout).toContain('refund:pi_amb');
    expect(amb.stdout).not.toContain('refund:pi_done');
    const json = JSON.parse((await run(['effects', 'list', '--json'])).stdout) as Array<{ key: string }>;
    expect(json.map((e) => e.key).sort()).toEqual(['refund:pi_amb', 'refund:pi_crashed', 'refund:pi_done', 'refund:pi_running']);
  });

  it('effects resolve --committed settles an ambiguous key, records who, and appends a receipt', async () => {
    const r = await run(['effects', 'resolve', 'refund:pi_amb', '--committed', '--as', 'carol']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Resolved refund:pi_amb as committed \(by carol\)/);
    await withSqlite(repo.dbPath, async (store) => {
      expect(await store.getEffect('refund:pi_amb')).toMatchObject({ state: 'committed', resolvedBy: 'carol' });
      expect((await store.listReceipts()).at(-1)).toMatchObject({ result: 'resolved', effect_key: 'refund:pi_amb', approvers: ['carol'], call_id: 'call_1' });
    });
    const twice = await run(['effects', 'resolve', 'refund:pi_amb', '--failed', '--as', 'dave']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/already committed \(resolved by carol\)/);
    expect((await run(['receipts', 'verify'])).code).toBe(0);
  });

  it('effects resolve --failed works on a crashed in-flight key; a live one or a committed one is refused', async () => {
    expect((await run(['effects', 'resolve', 'refund:pi_crashed', '--failed', '--as', 'carol'])).code).toBe(0);
    const live = await run(['effects', 'resolve', 'refund:pi_running', '--failed', '--as', 'carol']);
    expect(live.code).toBe(2);
    expect(live.stderr).toMatch(/still in flight/);
    expect((await run(['effects', 'resolve', 'refund:pi_done', '--failed', '--as', 'carol'])).code).toBe(2);
    expect((await run(['effects', 'resolve', 'refund:nope', '--failed', '--as', 'carol'])).stderr).toMatch(/no effect key/);
    await withSqlite(repo.dbPath, async (store) => {
      expect((await store.getEffect('refund:pi_running'))?.state).toBe('in_flight');
      expect((await store.getEffect('refund:pi_crashed'))?.state).toBe('failed');
    });
  });

  it('effects resolve needs exactly one of --committed / --failed, and --as', async () => {
    expect((await run(['effects', 'resolve', 'refund:pi_amb', '--as', 'carol'])).code).toBe(2);
    expect((await run(['effects', 'resolve', 'refund:pi_amb', '--committed', '--failed', '--as', 'carol'])).code).toBe(2);
    expect((await run(['effects', 'resolve', 'refund:pi_amb', '--committed'])).code).toBe(2);
  });

  it('receipts list prints them in order; --last N the last N; --json as stored', async () => {
    await withSqlite(repo.dbPath, async (store) => {
      for (let i = 2; i <= 5; i++) await store.appendReceipt({ ...requestedReceipt(`call_${i}`), at: i });
    });
    const all = await run(['receipts', 'list']);
    expect(all.code).toBe(0);
    expect(all.stdout.trim().split('\n')).toHaveLength(6);
    const last = JSON.parse((await run(['receipts', 'list', '--last', '2', '--json'])).stdout) as Array<{ seq: number; call_id: string }>;
    expect(last.map((r) => [r.seq, r.call_id])).toEqual([
      [4, 'call_4'],
      [5, 'call_5'],
    ]);
    expect((await run(['receipts', 'list', '--last', '0'])).code).toBe(2);
  });

  it('receipts verify: exit 0 on an intact chain, exit 1 naming the first break', async () => {
    await withSqlite(repo.dbPath, async (store) => {
      for (let i = 2; i <= 4; i++) await store.appendReceipt({ ...requestedReceipt(`call_${i}`), at: i });
    });
    const ok = await run(['receipts', 'verify']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/4 receipts, chain intact/);

    const db = new Database(repo.dbPath);
    const row = db.prepare('SELECT receipt FROM receipts WHERE seq = 3').get() as { receipt: string };
    db.prepare('UPDATE receipts SET receipt = ? WHERE seq = 3').run(row.receipt.replace('"principal":"alice"', '"principal":"mallory"'));
    db.close();
    const altered = await run(['receipts', 'verify']);
    expect(altered.code).toBe(1);
    expect(altered.stdout).toMatch(/broken at seq 3: content_altered/);
    expect(JSON.parse((await run(['receipts', 'verify', '--json'])).stdout)).toMatchObject({ ok: false });

    const db2 = new Database(repo.dbPath);
    db2.prepare('DELETE FROM receipts WHERE seq = 2').run();
    db2.close();
    const missing = await run(['receipts', 'verify']);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/broken at seq 2: missing/);
  });
});
