import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../src/runtime/index.js';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import { cli, cliProcess } from '../helpers/cli.js';
import { agentWith, assistantMessage, refundCall, refundTool, scripted, setup, toolOutputSeen } from '../runtime/helpers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-halts-cli-'));
  dirs.push(dir);
  return dir;
}

describe('a halt set from another OS process', () => {
  it('refuses the next call of a running app (SQLite), and lifting it lets the next call run', async () => {
    const dir = tempDir();
    const store = sqliteStore({ path: path.join(dir, 'state.db') });
    const s = setup({ store });
    const { tool, calls } = refundTool(s);
    const alice = { context: { user: 'alice' } };
    const call = async (id: string) => {
      const model = scripted([refundCall({ payment_id: `pay_${id}`, amount: 500 }, id)], [assistantMessage('ok')]);
      await run(agentWith(model, [tool]), 'refund', alice);
      return toolOutputSeen(model, 1, id);
    };
    try {
      expect(await call('c1')).toBe('refunded'); // the app has read the halts: none
      const set = cliProcess(['halts', 'set', '--action', 'stripe.refund', '--reason', 'incident 42', '--as', 'carol', '--store', 'sqlite:state.db'], {
        cwd: dir,
      });
      expect(set.stderr).toBe('');
      expect(set.code).toBe(0);
      const id = /(halt_[0-9a-f]+)/.exec(set.stdout)?.[1];
      expect(id).toBeDefined();
      expect(await call('c2')).toContain('halted by an operator: incident 42');
      expect(calls.map((c) => c.payment_id)).toEqual(['pay_c1']);

      const lifted = cliProcess(['halts', 'lift', id!, '--as', 'dave', '--store', 'sqlite:state.db'], { cwd: dir });
      expect(lifted.code).toBe(0);
      expect(await call('c3')).toBe('refunded');
      expect(calls.map((c) => c.payment_id)).toEqual(['pay_c1', 'pay_c3']);
      const receipts = await store.listReceipts();
      expect(receipts.filter((r) => r.call_id === 'c2').map((r) => [r.result, r.reason])).toEqual([['refused', 'halted']]);
      expect(receipts.filter((r) => r.action === 'ctrlrun.halt').map((r) => [r.result, r.approvers])).toEqual([
        ['halted', ['carol']],
        ['lifted', ['dave']],
      ]);
    } finally {
      await store.close();
    }
  });
});

describe('halts: the CLI refuses what it cannot record', () => {
  const dir = tempDir();
  const env = { NO_COLOR: '1' };
  const halts = (...args: string[]) => cli(['halts', ...args, '--store', 'sqlite:state.db'], { cwd: dir, env });

  it('needs exactly one target, a reason and who; refused input changes nothing (exit 2)', async () => {
    const store = sqliteStore({ path: path.join(dir, 'state.db') });
    await store.readHalts!();
    await store.close();
    for (const args of [
      ['set', '--reason', 'x', '--as', 'carol'],
      ['set', '--all', '--action', 'a.b', '--reason', 'x', '--as', 'carol'],
      ['set', '--all', '--as', 'carol'],
      ['set', '--all', '--reason', 'x'],
      ['set', '--all', '--reason', 'line\u001b[31m', '--as', 'carol'],
      ['set', '--principal', ' ', '--reason', 'x', '--as', 'carol'],
      ['lift', 'halt_nope', '--as', 'carol'],
      ['lift', 'halt_nope'],
    ]) {
      const r = await halts(...args);
      expect(r.code, args.join(' ')).toBe(2);
    }
    expect((await halts('list')).stdout).toContain('No halts in force');
    const set = await halts('set', '--principal', 'Mallory', '--hard', '--reason', 'compromised', '--as', 'carol');
    expect(set.code).toBe(0);
    const listed = await halts('list', '--json');
    expect(JSON.parse(listed.stdout)).toMatchObject([{ target: 'principal', value: 'mallory', hard: true, by: 'carol', reason: 'compromised' }]);
    expect((await halts('list')).stdout).toMatch(/principal mallory\s+hard/);
  });

  it('--as is refused with --server (the token says who)', async () => {
    const r = await cli(['halts', 'set', '--all', '--reason', 'x', '--as', 'carol', '--server', 'http://127.0.0.1:1', '--token', 'crg_op_x'], {
      cwd: dir,
      env,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--as');
  });
});
