import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateReceiptKey, run, verifyReceipts } from '../../src/runtime/index.js';
import { PRUNE_ACTION } from '../../src/runtime/prune-records.js';
import { agentWith, assistantMessage, refundCall, refundTool, scripted, setup } from '../runtime/helpers.js';
import { cli } from '../helpers/cli.js';
import { tempRepo, withSqlite } from './operator-helpers.js';

/**
 * `receipts prune` on a SQLite store directly (issue 37 item 1): the operator's clock and name,
 * the record signed with the operator's key; `receipts log --verify` and `receipts verify` say
 * what was pruned. (Through serve: test/serve/prune.test.ts.)
 */
describe('ctrlrun-gen receipts prune', () => {
  let repo: ReturnType<typeof tempRepo>;
  const ops = generateReceiptKey();
  const cmd = (args: string[]) => cli(args, { cwd: repo.nested, env: { NO_COLOR: '1' } });

  beforeEach(async () => {
    repo = tempRepo();
    writeFileSync(path.join(repo.root, 'ops.key'), `${ops.secret}\n`);
    writeFileSync(path.join(repo.root, 'ops.key.pub'), `${ops.publicKey}\n`);
    // two calls 60 days ago, one today (the app's clock), through the Runner
    await withSqlite(repo.dbPath, async (store) => {
      const s = setup({ store });
      const tool = refundTool(s);
      const call = async (id: string) =>
        run(agentWith(scripted([refundCall({ payment_id: id, amount: 500 }, id)], [assistantMessage('done')]), [tool.tool]), 'refund', {
          context: { user: 'alice' },
        });
      s.clock.advance(Date.now() - 60 * 86_400_000 - s.clock.now());
      await call('c1');
      await call('c2');
      s.clock.advance(60 * 86_400_000);
      await call('c3');
    });
  });
  afterEach(() => rmSync(repo.root, { recursive: true, force: true }));

  it("prunes the log's entries older than N days with a signed record; log --verify says so; refusals change nothing", async () => {
    for (const [args, why] of [
      [['receipts', 'prune', '--older-than-days', '30'], /--as: name who prunes/],
      [['receipts', 'prune', '--older-than-days', '-1', '--as', 'carol'], /--older-than-days: a number of days/],
      [['receipts', 'prune', '--older-than-days', '30', '--as', 'carol', '--tenant', 'Acme!'], /--tenant: "Acme!" is not a tenant name/],
      [
        ['receipts', 'prune', '--log', 'receipts', '--older-than-days', '30', '--as', 'carol', '--tenant', 'acme'],
        /only an operator without a tenant prunes them/,
      ],
      [['receipts', 'prune', '--older-than-days', '30', '--as', 'carol', '--server', 'http://127.0.0.1:9', '--token', 't'], /--as: with --server/],
    ] as const) {
      const r = await cmd([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(why);
    }
    await withSqlite(repo.dbPath, async (store) => expect(await store.listDecisions!()).toHaveLength(3));

    const pruned = await cmd(['receipts', 'prune', '--older-than-days', '30', '--as', 'Carol', '--signing-key', path.join(repo.root, 'ops.key')]);
    expect(pruned.stderr).toBe('');
    expect(pruned.code).toBe(0);
    expect(pruned.stdout).toMatch(/^Pruned 2 decision log entries, seq 1-2; recorded at receipt 7\./);
    const log = await cmd(['receipts', 'log', '--verify']);
    expect(log.code).toBe(0);
    expect(log.stdout).toContain('1 decision log entry, chain intact and bound to the receipts; 2 pruned by 1 operator prune record.');
    await withSqlite(repo.dbPath, async (store) => {
      const record = (await store.listReceipts()).find((r) => r.action === PRUNE_ACTION)!;
      expect(record).toMatchObject({ approvers: ['carol'], prune: { log: 'decisions', tenant: null, from: 1, to: 2, count: 2 } });
      const next = (await store.listReceipts()).find((r) => r.seq === record.seq + 1)!;
      expect(next.checkpoint).toMatchObject({ seq: record.seq, key_id: ops.keyId });
      expect(await verifyReceipts(store)).toMatchObject({ ok: true });
    });
    // the oldest receipts too: verify counts from the oldest kept one and says so
    const receipts = await cmd(['receipts', 'prune', '--log', 'receipts', '--older-than-days', '30', '--as', 'carol', '--json']);
    expect(JSON.parse(receipts.stdout)).toMatchObject({ outcome: 'pruned', record: { log: 'receipts', from: 1, to: 4, count: 4 } });
    const verify = await cmd(['receipts', 'verify', '--json']);
    expect(verify.code).toBe(0);
    expect(JSON.parse(verify.stdout)).toMatchObject({ ok: true, pruned_through: 4 });
    expect((await cmd(['receipts', 'verify'])).stdout).toContain("seq 1-4 pruned, as an operator's prune record in the chain says");
    expect((await cmd(['receipts', 'prune', '--older-than-days', '30', '--as', 'carol'])).stdout).toMatch(/^Nothing to prune\./);
  });
});
