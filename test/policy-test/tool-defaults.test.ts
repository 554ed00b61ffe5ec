import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPolicyOrThrow } from '../../src/policy/load.js';
import { compilePolicy } from '../../src/policy-test/decider.js';
import { bindProtectedTool, createControl, memoryStore, run } from '../../src/runtime/index.js';
import { transferParameters } from '../../fixtures/policy-test/tool-defaults/src/tools.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { agentWith, assistantMessage, functionCall, scripted, toolOutputSeen } from '../runtime/helpers.js';

/**
 * `test` and `explain` ask the tool's schema first (tool-gate.ts). A `.default('low')` is not a
 * refusal: the SDK fills the value in and the runtime decides on it (issue 40 item 2), so `test`
 * must decide the call as the runtime does, on the filled-in value, never report "refused before
 * any rule" for a call that runs.
 */
const DIR = path.join(FIXTURES, 'policy-test/tool-defaults');

describe('a parameter with a literal .default(): test and explain decide on the value the body gets', () => {
  it('the real Runner runs `{ to: bob }` and a channel `pigeon` (filled in as low and ach, rule 0 allows), and `test` says so', async () => {
    const { policy } = loadPolicyOrThrow(path.join(DIR, 'ctrlrun.yaml'));
    const store = memoryStore();
    const control = createControl({ store, identity: () => 'alice' });
    const protectedTool = bindProtectedTool<'bank.transfer'>(control, compilePolicy(policy));
    const ran: unknown[] = [];
    const transfer = protectedTool('bank.transfer', {
      name: 'transfer',
      description: 'Send money.',
      parameters: transferParameters,
      execute: async (args) => {
        ran.push(args);
        return 'sent';
      },
    });
    const model = scripted(
      [functionCall('transfer', { to: 'bob' }, { callId: 'c1' })],
      [functionCall('transfer', { to: 'bob', priority: 'low', channel: 'pigeon' }, { callId: 'c2' })],
      [assistantMessage('done')],
    );
    const result = await run(agentWith(model, [transfer]), 'pay bob');
    expect(result.interruptions).toEqual([]);
    expect(ran).toEqual([
      { to: 'bob', priority: 'low', channel: 'ach' },
      { to: 'bob', priority: 'low', channel: 'ach' },
    ]);
    expect(toolOutputSeen(model, 1, 'c1')).toBe('sent');
    expect((await store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([
      ['allowed', 'rule[0]'],
      ['executed', 'rule[0]'],
      ['allowed', 'rule[0]'],
      ['executed', 'rule[0]'],
    ]);

    const r = await cli(['test'], { cwd: DIR });
    expect(r.stdout).toContain('PASS a transfer sent without a priority');
    expect(r.stdout).toContain('PASS a transfer by an unknown channel');
    expect(r.stdout).not.toContain('refuses these arguments');
    expect(r.code, r.stdout).toBe(0);
  });

  it('explain decides the call on the filled-in value, not as a refusal', async () => {
    const r = await cli(['explain', 'bank.transfer', '--args', '{"to":"bob"}'], { cwd: DIR });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('refused by the tool');
    expect(r.stdout).toContain('bank.transfer: allow (rule[0] matched)');
  });
});
