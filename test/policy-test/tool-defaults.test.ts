import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPolicyOrThrow } from '../../src/policy/load.js';
import { compilePolicy } from '../../src/policy-test/decider.js';
import { bindProtectedTool, createControl, memoryStore, run } from '../../src/runtime/index.js';
import { transferParameters } from '../../fixtures/policy-test/tool-defaults/src/tools.js';
import { payParameters } from '../../fixtures/policy-test/tool-string-steps/src/tools.js';
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
      // strict mode's null for what may be left out: dropped by the SDK
      [functionCall('transfer', { to: 'bob', memo: null }, { callId: 'c3' })],
      [assistantMessage('done')],
    );
    const result = await run(agentWith(model, [transfer]), 'pay bob');
    expect(result.interruptions).toEqual([]);
    expect(ran).toEqual([
      { to: 'bob', priority: 'low', channel: 'ach' },
      { to: 'bob', priority: 'low', channel: 'ach' },
      { to: 'bob', priority: 'low', channel: 'ach' },
    ]);
    expect(toolOutputSeen(model, 1, 'c1')).toBe('sent');
    expect((await store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([
      ['allowed', 'rule[0]'],
      ['executed', 'rule[0]'],
      ['allowed', 'rule[0]'],
      ['executed', 'rule[0]'],
      ['allowed', 'rule[0]'],
      ['executed', 'rule[0]'],
    ]);

    const r = await cli(['test'], { cwd: DIR });
    expect(r.stdout).toContain('PASS a transfer sent without a priority');
    expect(r.stdout).toContain('PASS a transfer by an unknown channel');
    expect(r.stdout).toContain('PASS a transfer with a null memo');
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

/**
 * The same for a string the schema changes (`.trim().toLowerCase()`): the runtime decides on `bob`
 * when the model sent `" BOB "`, so a case written with the model's spelling is decided as `bob`,
 * never as a call the rules refuse while the body is paid.
 */
describe('a string parameter the schema trims and lower-cases: test and explain decide on what the body gets', () => {
  const STEPS = path.join(FIXTURES, 'policy-test/tool-string-steps');

  it('the real Runner pays " BOB " as bob (allowed), and `test` says so', async () => {
    const { policy } = loadPolicyOrThrow(path.join(STEPS, 'ctrlrun.yaml'));
    const store = memoryStore();
    const control = createControl({ store, identity: () => 'alice' });
    const protectedTool = bindProtectedTool<'bank.pay'>(control, compilePolicy(policy));
    const ran: unknown[] = [];
    const pay = protectedTool('bank.pay', {
      name: 'pay',
      description: 'Pay a payee.',
      parameters: payParameters,
      execute: async (args) => {
        ran.push(args);
        return 'paid';
      },
    });
    const model = scripted([functionCall('pay', { payee: ' BOB ' }, { callId: 'c1' })], [assistantMessage('done')]);
    await run(agentWith(model, [pay]), 'pay bob');
    expect(ran).toEqual([{ payee: 'bob' }]);
    expect((await store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([
      ['allowed', 'rule[0]'],
      ['executed', 'rule[0]'],
    ]);

    const r = await cli(['test'], { cwd: STEPS });
    expect(r.stdout).toContain('PASS a payee spelled " BOB " is paid as bob');
    expect(r.code, r.stdout).toBe(0);
  });

  it('explain decides " BOB " as bob', async () => {
    const r = await cli(['explain', 'bank.pay', '--args', '{"payee":" BOB "}'], { cwd: STEPS });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('bank.pay: allow (rule[0] matched)');
  });
});
