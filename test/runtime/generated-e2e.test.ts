import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';

/**
 * Journey 5 on fixtures/refund-desk: the GENERATED module, the operator's control (SQLite) and
 * `ctrlrun-gen/runtime` from dist/, in separate Node processes: one run pauses, another process
 * approves and resumes (the call runs once), a third replays the same state (nothing runs).
 */
const SCRIPT = `
import { Agent, RunState } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { ApprovalMismatch, run, verifyReceipts } from 'ctrlrun-gen/runtime';
import control from './ctrlrun.control.js';
import { protectedTool } from './ctrlrun.generated.js';

let ran = 0;
const refund = protectedTool('stripe.refund', {
  name: 'refund',
  description: 'Refund a charge. The amount is in cents.',
  parameters: z.object({ payment_id: z.string(), amount: z.number().int(), reason: z.string().optional() }),
  execute: async ({ payment_id, amount }) => {
    ran++;
    return \`Refunded \${amount} cents on \${payment_id}.\`;
  },
});
const mode = process.argv[2];
const model = new ScriptedModel(
  mode === 'pause' ? [[functionCall('refund', { payment_id: 'pay_9', amount: 50000 }, { callId: 'call_big' })]] : [[assistantMessage('done')]],
);
const agent = new Agent({ name: 'Refund desk', model, tools: [refund] });
const out: Record<string, unknown> = { mode };
if (mode === 'pause') {
  const result = await run(agent, 'Refund 500.00 on pay_9', { context: { user: 'alice' } });
  out.pending = (await control.request(result.state)).map((r) => [r.callId, r.action, r.principal, r.state]);
  writeFileSync('state.txt', result.state.toString());
} else {
  const state = await RunState.fromString(agent, readFileSync('state.txt', 'utf8'));
  const item = state.getInterruptions()[0]!;
  if (mode === 'approve') await control.approve(state, item, { approver: 'bob' });
  else state.approve(item); // replay: the same saved state, forced through the SDK
  try {
    out.final = (await run(agent, state)).finalOutput;
  } catch (error) {
    out.error = error instanceof ApprovalMismatch ? ['ApprovalMismatch', error.reason] : String(error);
  }
  out.verify = await verifyReceipts(control.store);
}
out.ran = ran;
console.log(JSON.stringify(out));
await control.store.close();
`;

describe('the generated module of fixtures/refund-desk through the runtime, across processes', () => {
  let dir: string;

  beforeAll(async () => {
    dir = copyFixture('refund-desk');
    const generated = await cli(['generate'], { cwd: dir });
    expect(generated.code, generated.stderr).toBe(0);
    writeFileSync(path.join(dir, 'src', 'e2e.ts'), SCRIPT);
    const tsc = spawnSync(
      process.execPath,
      [
        path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc'),
        '-p',
        dir,
        '--noEmit',
        'false',
        '--outDir',
        path.join(dir, 'out'),
        '--rootDir',
        path.join(dir, 'src'),
        '--types',
        'node',
      ],
      { encoding: 'utf8', cwd: dir },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });
  afterAll(() => {
    if (dir) removeDir(dir);
  });

  const step = (mode: string) => {
    const r = spawnSync(process.execPath, [path.join(dir, 'out', 'e2e.js'), mode], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
  };

  it('pauses in one process, is approved and runs once in another, and a replay of the saved state runs nothing', () => {
    expect(step('pause')).toEqual({ mode: 'pause', pending: [['call_big', 'stripe.refund', 'alice', 'pending']], ran: 0 });
    expect(existsSync(path.join(dir, '.ctrlrun', 'state.db'))).toBe(true);
    expect(step('approve')).toEqual({ mode: 'approve', final: 'done', verify: { ok: true, count: 4 }, ran: 1 });
    expect(step('replay')).toEqual({ mode: 'replay', error: ['ApprovalMismatch', 'consumed'], verify: { ok: true, count: 5 }, ran: 0 });
  });
});
