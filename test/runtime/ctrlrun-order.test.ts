import { Agent } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parsePolicy } from '../../src/policy/load.js';
import { bindProtectedTool, createControl, memoryStore, run } from '../../src/runtime/index.js';
import { compileGenerated } from '../helpers/compile-module.js';
import { assistantMessage, functionCall, manualClock, scripted, toolOutputSeen } from './helpers.js';

/**
 * Issue 24 item 8 through the real Runner, a store and the GENERATED decision code: CTRLRun
 * resolves an action's resource from the call's named arguments before it checks their values
 * (`resource_template` before `invalid_argument`), and `{resource}` in an effect template is the
 * resolved resource (two payments, two keys; the same payment runs once).
 */
const POLICY = `schema: ctrlrun.policy/v2
actions:
  stripe.refund:
    effect: 'refund:{resource}'
    resource: 'payment:{payment_id}'
    decision: allow
`;

function setupRefund() {
  const parsed = parsePolicy(POLICY, 'ctrlrun.yaml');
  expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const compiled = compileGenerated(parsed.value!, { refund: 'stripe.refund' });
  const store = memoryStore();
  const control = createControl({ store, identity: () => 'alice', clock: manualClock().now });
  const protectedTool = bindProtectedTool<'stripe.refund'>(control, compiled);
  const ran: unknown[] = [];
  const tool = protectedTool('stripe.refund', {
    name: 'refund',
    description: 'Refund a payment',
    parameters: z.object({ payment_id: z.string().optional(), amount: z.number() }),
    execute: async (args: unknown) => {
      ran.push(args);
      return 'refunded';
    },
  });
  return { store, tool, ran };
}

const agentWith = (model: ReturnType<typeof scripted>, tool: unknown) => new Agent({ name: 'desk', instructions: 'Refunds', model, tools: [tool as never] });

describe("CTRLRun's order and {resource} through the Runner", () => {
  it('two payments get two effect keys (refund:payment:pay_1, refund:payment:pay_2); the same payment again runs once', async () => {
    const s = setupRefund();
    const model = scripted(
      [functionCall('refund', { payment_id: 'pay_1', amount: 5 }, { callId: 'c1' })],
      [functionCall('refund', { payment_id: 'pay_2', amount: 5 }, { callId: 'c2' })],
      [functionCall('refund', { payment_id: 'pay_1', amount: 5 }, { callId: 'c3' })],
      [assistantMessage('done')],
    );
    const error = await run(agentWith(model, s.tool), 'refund both').then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as { key?: string } | null)?.key).toBe('refund:payment:pay_1'); // DuplicateEffect on the third call
    expect(s.ran).toEqual([
      { payment_id: 'pay_1', amount: 5 },
      { payment_id: 'pay_2', amount: 5 },
    ]);
    const receipts = await s.store.listReceipts();
    expect(receipts.map((r) => [r.result, r.effect_key ?? null])).toEqual([
      ['allowed', 'refund:payment:pay_1'],
      ['executed', 'refund:payment:pay_1'],
      ['allowed', 'refund:payment:pay_2'],
      ['executed', 'refund:payment:pay_2'],
      ['duplicate', 'refund:payment:pay_1'],
    ]);
    expect((await s.store.getEffect('refund:payment:pay_1'))?.state).toBe('committed');
    expect((await s.store.getEffect('refund:payment:pay_2'))?.state).toBe('committed');
  });

  it('a call whose resource does not resolve is refused resource_template even with a float elsewhere (CTRLRun resolves the resource first)', async () => {
    const s = setupRefund();
    const model = scripted([functionCall('refund', { amount: 1.5 }, { callId: 'c1' })], [assistantMessage('done')]);
    await run(agentWith(model, s.tool), 'refund');
    expect(s.ran).toEqual([]);
    expect(toolOutputSeen(model, 1, 'c1')).toContain('resource_template');
    const receipts = await s.store.listReceipts();
    expect(receipts.map((r) => [r.result, r.reason])).toEqual([['refused', 'resource_template']]);
  });

  it('a call whose resource resolves and that holds a float is refused invalid_argument', async () => {
    const s = setupRefund();
    const model = scripted([functionCall('refund', { payment_id: 'pay_1', amount: 1.5 }, { callId: 'c1' })], [assistantMessage('done')]);
    await run(agentWith(model, s.tool), 'refund');
    expect(s.ran).toEqual([]);
    expect(toolOutputSeen(model, 1, 'c1')).toContain('invalid_argument');
    expect((await s.store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([['refused', 'invalid_argument']]);
  });
});
