import { Agent } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bindProtectedTool, createControl, memoryStore, run, type CompiledPolicy, type DecisionResult } from '../../src/runtime/index.js';
import { changedBySchema } from '../../src/runtime/schema-output.js';
import { assistantMessage, functionCall, manualClock, scripted, toolOutputSeen } from './helpers.js';

/**
 * Issue 24 item 1: a tool schema that changes its input (`z.string().trim().toLowerCase()`,
 * `.default()`, coercion, `.transform`, `z.preprocess`) must not let the policy decide on one value
 * and the body get another. The runtime refuses a call whose schema output differs from what the
 * model sent; the model reads why, and a receipt says so.
 */
const field = (args: unknown, name: string) => (args as Record<string, unknown>)[name];

function policy(): CompiledPolicy {
  return {
    hash: `sha256:${'e'.repeat(64)}`,
    mode: 'enforce',
    actions: {
      'bank.transfer': {
        id: 'bank.transfer',
        decide: (args): DecisionResult =>
          field(args, 'to') === 'mallory' ? { decision: 'deny', rule: 0, reason: 'rule[0]' } : { decision: 'allow', rule: 1, reason: 'rule[1]' },
        effect: (args) =>
          typeof field(args, 'account') === 'string' ? { ok: true, value: `transfer:${field(args, 'account') as string}` } : { ok: false, arg: 'account' },
        controls: [],
        approvalsRequired: 1,
        maxAttempts: 1,
      },
    },
    tools: { transfer: 'bank.transfer' },
  };
}

function setupTransfer(parameters: z.ZodType) {
  const store = memoryStore();
  const control = createControl({ store, identity: () => 'alice', clock: manualClock().now });
  const protectedTool = bindProtectedTool<'bank.transfer'>(control, policy());
  const ran: unknown[] = [];
  const tool = protectedTool('bank.transfer', {
    name: 'transfer',
    description: 'Send money',
    parameters: parameters as never,
    execute: async (args: unknown) => {
      ran.push(args);
      return 'sent';
    },
  });
  return { store, tool, ran };
}

const agentWith = (model: ReturnType<typeof scripted>, tool: unknown) => new Agent({ name: 'bank', instructions: 'Bank', model, tools: [tool as never] });

describe('schemas that change their input', () => {
  it('a deny on `to: mallory` is not passed by "Mallory " through z.string().trim().toLowerCase()', async () => {
    const s = setupTransfer(z.object({ to: z.string().trim().toLowerCase(), account: z.string() }));
    const model = scripted([functionCall('transfer', { to: 'Mallory ', account: 'acct_1' }, { callId: 'c1' })], [assistantMessage('done')]);
    await run(agentWith(model, s.tool), 'pay');
    expect(s.ran).toEqual([]);
    expect(toolOutputSeen(model, 1, 'c1')).toContain("the tool's schema changes $.to");
    const receipts = await s.store.listReceipts();
    expect(receipts.map((r) => [r.result, r.reason])).toEqual([['refused', expect.stringContaining('invalid_arguments:')]]);
    // the exact, unchanged value is decided as sent: denied by the rule
    const model2 = scripted([functionCall('transfer', { to: 'mallory', account: 'acct_1' }, { callId: 'c2' })], [assistantMessage('done')]);
    await run(agentWith(model2, s.tool), 'pay');
    expect(s.ran).toEqual([]);
    expect((await s.store.listReceipts()).at(-1)).toMatchObject({ result: 'denied', reason: 'rule[0]' });
  });

  it('the effect key of "acme" is not dodged by "ACME" through .toLowerCase(): the transfer runs once', async () => {
    const s = setupTransfer(z.object({ to: z.string(), account: z.string().toLowerCase() }));
    const model = scripted(
      [functionCall('transfer', { to: 'bob', account: 'acme' }, { callId: 'c1' })],
      [functionCall('transfer', { to: 'bob', account: 'ACME' }, { callId: 'c2' })],
      [assistantMessage('done')],
    );
    await run(agentWith(model, s.tool), 'pay twice');
    expect(s.ran).toEqual([{ to: 'bob', account: 'acme' }]);
    expect(toolOutputSeen(model, 2, 'c2')).toContain("the tool's schema changes $.account");
  });

  // (.transform and z.preprocess: the SDK itself refuses them when the tool is made, as no JSON schema can say them)
  it('.default(), coercion, .toUpperCase(): a call they change is refused; one they leave alone runs', async () => {
    const schemas = [
      z.object({ to: z.string().default('mallory'), account: z.string() }),
      z.object({ to: z.string(), account: z.coerce.string() }),
      z.object({ to: z.string().toUpperCase(), account: z.string() }),
    ];
    const changing = [{ account: 'a1' }, { to: 'bob', account: 7 }, { to: 'bob', account: 'a1' }];
    for (const [i, schema] of schemas.entries()) {
      const s = setupTransfer(schema);
      const model = scripted(
        [functionCall('transfer', changing[i]!, { callId: 'c1' })],
        [functionCall('transfer', { to: 'bob', account: `a${i}` }, { callId: 'c2' })],
        [assistantMessage('done')],
      );
      await run(agentWith(model, s.tool), 'pay');
      expect(s.ran, `schema ${i}`).toEqual(i === 2 ? [] : [{ to: 'bob', account: `a${i}` }]);
      expect(toolOutputSeen(model, 1, 'c1'), `schema ${i}`).toContain("the tool's schema changes");
    }
  });

  it('changedBySchema: the first changed path; dropped unknown keys and equal values are unchanged', () => {
    expect(changedBySchema({ a: 'x', extra: 1 }, { a: 'x' })).toBeNull();
    expect(changedBySchema({ a: [1, { b: 'y' }] }, { a: [1, { b: 'y' }] })).toBeNull();
    expect(changedBySchema({ a: [1, { b: 'Y' }] }, { a: [1, { b: 'y' }] })).toBe('$.a[1].b');
    expect(changedBySchema({}, { a: false })).toBe('$.a');
    expect(changedBySchema({ d: '2020-01-01' }, { d: new Date('2020-01-01') })).toBe('$.d');
    expect(changedBySchema({ a: [1, 2] }, { a: [1] })).toBe('$.a');
  });
});
