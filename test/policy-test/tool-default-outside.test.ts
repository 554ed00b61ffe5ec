import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPolicyOrThrow } from '../../src/policy/load.js';
import { compilePolicy } from '../../src/policy-test/decider.js';
import { bindProtectedTool, createControl, memoryStore, run } from '../../src/runtime/index.js';
import { listParameters } from '../../fixtures/policy-test/tool-default-outside/src/tools.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { agentWith, assistantMessage, functionCall, scripted } from '../runtime/helpers.js';

/**
 * A `.default(0)` outside its own schema's range (`z.number().int().min(1).max(500).default(0)`):
 * zod does not check a default, so the body gets 0 and the runtime decides on 0. `test`, `explain`
 * and `diff` must see that call as it runs: not refused by the tool, and 0 in the diff's domain (a
 * policy change at 0 was "no change"). A 0 the model sends itself is still refused.
 */
const DIR = path.join(FIXTURES, 'policy-test/tool-default-outside');

describe('a .default() outside its own schema: test, explain and diff see the call that runs', () => {
  it('the real Runner runs `{}` with limit 0 (allowed by rule 0) and refuses a 0 the model sends', async () => {
    const { policy } = loadPolicyOrThrow(path.join(DIR, 'ctrlrun.yaml'));
    const store = memoryStore();
    const control = createControl({ store, identity: () => 'alice' });
    const protectedTool = bindProtectedTool<'orders.list'>(control, compilePolicy(policy));
    const ran: unknown[] = [];
    const list = protectedTool('orders.list', {
      name: 'list_orders',
      description: 'List orders.',
      parameters: listParameters,
      execute: async (args) => {
        ran.push(args);
        return 'listed';
      },
    });
    const model = scripted(
      [functionCall('list_orders', {}, { callId: 'c1' })],
      [functionCall('list_orders', { limit: 0 }, { callId: 'c2' })],
      [assistantMessage('done')],
    );
    await run(agentWith(model, [list]), 'list');
    expect(ran).toEqual([{ limit: 0 }]);
    expect((await store.listReceipts()).map((r) => [r.call_id, r.result, r.reason.split(':')[0]])).toEqual([
      ['c1', 'allowed', 'rule[0]'],
      ['c1', 'executed', 'rule[0]'],
      ['c2', 'refused', 'invalid_arguments'],
    ]);
  });

  it('`test` decides `{}` on the default, as the Runner did', async () => {
    const r = await cli(['test'], { cwd: DIR });
    expect(r.stdout).toContain('PASS a listing without a limit');
    expect(r.code, r.stdout).toBe(0);
  });

  it('explain: `{}` is allowed on limit 0; a 0 sent is refused by the tool', async () => {
    const left = await cli(['explain', 'orders.list', '--args', '{}'], { cwd: DIR });
    expect(left.code, left.stderr).toBe(0);
    expect(left.stdout).toContain('orders.list: allow (rule[0] matched)');
    expect(left.stdout).toContain('limit = 0');
    const sent = await cli(['explain', 'orders.list', '--args', '{"limit":0}'], { cwd: DIR });
    expect(sent.stdout).toContain('orders.list: refused by the tool (invalid_arguments)');
    expect(sent.stdout).toContain('/limit: must be >= 1');
  });

  it('diff: a change at the default is a change (looser at limit 0), never "no change"', async () => {
    const r = await cli(['diff', 'base.yaml', '--format', 'json'], { cwd: DIR });
    const report = JSON.parse(r.stdout);
    const action = report.actions.find((a: { action: string }) => a.action === 'orders.list');
    expect(action.regions.map((g: { class: string; where: unknown; witness: unknown }) => [g.class, g.where, g.witness])).toEqual([
      // the call that reaches it leaves limit out: a 0 sent is refused by the tool
      ['looser', [{ name: 'limit', text: '0' }], { args: { limit: 0 }, sent: {} }],
    ]);
    const text = (await cli(['diff', 'base.yaml'], { cwd: DIR })).stdout;
    expect(text).not.toContain('no change');
    expect(text).toContain('e.g. {"limit":0} (sent as {}: the tool fills in limit): approve (rule[1]) → allow (rule[0])');
  });

  it('diff: a limit left out is decided as the default, never as left out (the two policies allow and approve alike on every call that runs)', async () => {
    const r = await cli(['diff', 'left-out-base.yaml', 'left-out-head.yaml', '--format', 'json'], { cwd: DIR });
    const report = JSON.parse(r.stdout);
    // only the rules' numbers move (limit 0 included, as the default); no call decided with limit left out
    const regions = report.actions.flatMap((a: { regions?: Array<{ class: string; where: unknown }> }) => a.regions ?? []);
    expect(regions.map((g: { class: string; where: unknown }) => [g.class, g.where])).toEqual([
      ['other', [{ name: 'limit', text: '0..100' }]],
      ['other', [{ name: 'limit', text: '101..500' }]],
    ]);
    expect([report.summary.looser, report.summary.tighter]).toEqual([0, 0]);
  });
});
