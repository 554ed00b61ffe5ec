import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { request, requestedReceipt, tempRepo, withSqlite } from './operator-helpers.js';

describe('ctrlrun-gen approvals (SQLite store at the repo root)', () => {
  let repo: ReturnType<typeof tempRepo>;
  const run = (args: string[], env: Record<string, string | undefined> = {}) => cli(args, { cwd: repo.nested, env: { NO_COLOR: '1', ...env } });

  beforeEach(async () => {
    repo = tempRepo();
    await withSqlite(repo.dbPath, async (store) => {
      await store.putRequest(request('call_one'));
      await store.appendReceipt(requestedReceipt('call_one'));
      await store.putRequest(request('call_two', { approvalsRequired: 2, createdAt: Date.UTC(2026, 0, 3) }));
      await store.putRequest(request('call_done', { createdAt: Date.UTC(2026, 0, 4) }));
      await store.addAnswer('call_done', { approver: 'bob', decision: 'approve', at: 5 });
    });
  });
  afterEach(() => rmSync(repo.root, { recursive: true, force: true }));

  it('list shows every request from the default store found upward from cwd; --pending only the waiting ones', async () => {
    const all = await run(['approvals', 'list']);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/^ID\s+STATE\s+ACTION/);
    expect(all.stdout).toMatch(/call_one\s+pending\s+stripe\.refund\s+alice\s+0\/1\s+2026-01-02T03:04:05\.000Z/);
    expect(all.stdout).toMatch(/call_done\s+approved/);
    const pending = await run(['approvals', 'list', '--pending']);
    expect(pending.stdout).toContain('call_one');
    expect(pending.stdout).toContain('call_two');
    expect(pending.stdout).not.toContain('call_done');
  });

  it('list --json prints the requests as stored', async () => {
    const r = await run(['approvals', 'list', '--pending', '--json']);
    expect(r.code).toBe(0);
    const parsed = JSON.parse(r.stdout) as Array<{ callId: string; state: string }>;
    expect(parsed.map((p) => p.callId)).toEqual(['call_one', 'call_two']);
    expect(parsed.every((p) => p.state === 'pending')).toBe(true);
  });

  it('show prints the call, its arguments and its answers', async () => {
    const r = await run(['approvals', 'show', 'call_done']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/State\s+approved/);
    expect(r.stdout).toContain('"payment_id": "pi_1"');
    expect(r.stdout).toMatch(/approved by bob/);
  });

  it('approve records the answer and a chained receipt, like a Control would', async () => {
    const r = await run(['approvals', 'approve', 'call_one', '--as', 'bob', '--reason', 'customer called']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Approved call_one \(stripe\.refund\) as bob \(1\/1\)/);
    await withSqlite(repo.dbPath, async (store) => {
      const stored = await store.getRequest('call_one');
      expect(stored?.state).toBe('approved');
      expect(stored?.answers).toEqual([expect.objectContaining({ approver: 'bob', decision: 'approve', reason: 'customer called' })]);
      const receipts = await store.listReceipts();
      expect(receipts.at(-1)).toMatchObject({
        seq: 2,
        prev_hash: receipts[0]!.hash,
        call_id: 'call_one',
        result: 'approved',
        approvers: ['bob'],
        principal: 'alice',
        environment: 'production',
      });
    });
    expect((await run(['receipts', 'verify'])).code).toBe(0);
  });

  it('two approvers are needed when the request says so', async () => {
    expect((await run(['approvals', 'approve', 'call_two', '--as', 'bob'])).stdout).toMatch(/needs 1 more/);
    const again = await run(['approvals', 'approve', 'call_two', '--as', 'bob']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/bob already answered/);
    expect((await run(['approvals', 'approve', 'call_two', '--as', 'carol'])).stdout).toMatch(/Approved call_two .* \(2\/2\)/);
  });

  it('the requester cannot approve their own call: exit 2, clear message, nothing approved', async () => {
    const r = await run(['approvals', 'approve', 'call_one', '--as', 'alice']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/alice cannot approve this request: alice is who the run acts for/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    await withSqlite(repo.dbPath, async (store) => {
      expect((await store.getRequest('call_one'))?.state).toBe('pending');
      expect((await store.listReceipts()).at(-1)).toMatchObject({ result: 'refused', reason: 'approver_is_requester' });
    });
  });

  it('deny needs a reason, records a rejection; answering a decided request changes nothing', async () => {
    const noReason = await run(['approvals', 'deny', 'call_one', '--as', 'bob']);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toMatch(/reason/);
    const r = await run(['approvals', 'deny', 'call_one', '--as', 'bob', '--reason', 'duplicate']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Denied call_one/);
    const late = await run(['approvals', 'approve', 'call_one', '--as', 'carol']);
    expect(late.code).toBe(2);
    expect(late.stderr).toMatch(/already rejected; nothing changed/);
    await withSqlite(repo.dbPath, async (store) => {
      expect((await store.getRequest('call_one'))?.state).toBe('rejected');
      // the late answer is refused and leaves its own receipt (issue 24 item 5)
      expect((await store.listReceipts()).slice(-2)).toMatchObject([
        { result: 'rejected', reason: 'duplicate', approvers: ['bob'] },
        { result: 'refused', reason: 'not_pending', approvers: ['carol'] },
      ]);
    });
  });

  it('a request whose stored args are not what its argsHash binds is marked in list and show (issue 24, item 3)', async () => {
    await withSqlite(repo.dbPath, async (store) => {
      // what would run is pi_1's 5000 (the hash); what an operator would read is 50
      await store.putRequest(request('call_swap', { argsHash: request('x').argsHash, args: '{"amount":50,"payment_id":"pi_1"}' }));
    });
    const list = await run(['approvals', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/call_swap .*\[args ≠ args hash\] \{"amount":50/);
    expect(list.stdout).toMatch(/call_one .* \{"amount":5000/);
    expect(list.stdout).not.toMatch(/call_one .*args ≠/);
    expect(list.stdout).toContain('[args ≠ args hash] these stored arguments are not the ones');
    const show = await run(['approvals', 'show', 'call_swap']);
    expect(show.stdout).toContain('[args ≠ args hash] these stored arguments are not the ones');
    expect((await run(['approvals', 'show', 'call_one'])).stdout).not.toContain('args ≠ args hash');
  });

  it('an unknown id is exit 2 naming the store', async () => {
    const r = await run(['approvals', 'approve', 'call_nope', '--as', 'bob']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/call_nope: no approval request with this id in sqlite:/);
    expect((await run(['approvals', 'show', 'call_nope'])).code).toBe(2);
  });

  it('--approve without --as, or with no subcommand, is a usage error', async () => {
    expect((await run(['approvals', 'approve', 'call_one'])).code).toBe(2);
    expect((await run(['approvals'])).code).toBe(2);
  });

  it('--store and CTRLRUN_STORE pick another store; a store that does not exist is exit 2, not created', async () => {
    const other = path.join(repo.root, 'elsewhere.db');
    const viaFlag = await run(['approvals', 'list', '--store', `sqlite:${other}`]);
    expect(viaFlag.code).toBe(2);
    expect(viaFlag.stderr).toMatch(/no store here yet/);
    await withSqlite(other, (store) => store.putRequest(request('call_other')));
    expect((await run(['approvals', 'list', '--store', `sqlite:${other}`])).stdout).toContain('call_other');
    const viaEnv = await run(['approvals', 'list'], { CTRLRUN_STORE: `sqlite:${other}` });
    expect(viaEnv.stdout).toContain('call_other');
    expect(viaEnv.stdout).not.toContain('call_one');
    const flagWins = await run(['approvals', 'list', '--store', `sqlite:${repo.dbPath}`], { CTRLRUN_STORE: `sqlite:${other}` });
    expect(flagWins.stdout).toContain('call_one');
  });

  it('an unknown kind of store is exit 2 with a hint', async () => {
    const r = await run(['approvals', 'list', '--store', 'mysql://x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--store: "mysql:\/\/x" is not a store/);
    expect(r.stderr).toMatch(/sqlite:PATH/);
  });

  it('every subcommand has --help with examples', async () => {
    for (const sub of ['list', 'show', 'approve', 'deny']) {
      const r = await run(['approvals', sub, '--help']);
      expect(r.code, sub).toBe(0);
      expect(r.stdout, sub).toContain('Examples:');
    }
  });
});
