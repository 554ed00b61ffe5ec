import { Agent, RunContext, RunState } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bindProtectedTool, createControl, DuplicateEffect, memoryStore, run, type CompiledPolicy, type DecisionResult } from '../../src/runtime/index.js';
import { changedBySchema, outputAsArguments } from '../../src/runtime/schema-output.js';
import { callArguments } from '../../src/runtime/core/arguments.js';
import { parseArguments } from '../../src/runtime/arguments.js';
import { assistantMessage, functionCall, manualClock, scripted, toolOutputSeen } from './helpers.js';

/**
 * A tool schema that changes its input (`.default()`, `.trim().toLowerCase()`, coercion) hands the
 * body another value than the model sent. Issue 24 refused such calls; issue 40 decides on the value
 * the body gets: the policy, the effect key, the approval and the approver all see the schema's
 * output, so `"Mallory "` is denied as `mallory`, `"ACME"` reserves the key of `"acme"`, and a
 * `.default('medium')` is decided, approved and run as `medium`.
 */
const field = (args: unknown, name: string) => (args as Record<string, unknown>)[name];

function policy(approveUrgent = false): CompiledPolicy {
  return {
    hash: `sha256:${'e'.repeat(64)}`,
    mode: 'enforce',
    actions: {
      'bank.transfer': {
        id: 'bank.transfer',
        decide: (args): DecisionResult =>
          field(args, 'to') === 'mallory'
            ? { decision: 'deny', rule: 0, reason: 'rule[0]' }
            : approveUrgent || field(args, 'priority') === 'medium'
              ? { decision: 'approve', rule: 1, reason: 'rule[1]' }
              : { decision: 'allow', rule: 2, reason: 'rule[2]' },
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

function setupTransfer(parameters: z.ZodType, approveAll = false) {
  const store = memoryStore();
  const clock = manualClock();
  const control = createControl({ store, identity: (rc) => (rc.context as { user?: string })?.user ?? 'alice', clock: clock.now });
  const compiled = policy(approveAll);
  const protectedTool = bindProtectedTool<'bank.transfer'>(control, compiled);
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
  return { store, tool, ran, control, compiled, clock };
}

const agentWith = (model: ReturnType<typeof scripted>, tool: unknown) => new Agent({ name: 'bank', instructions: 'Bank', model, tools: [tool as never] });

describe('schemas that change their input: decided as the body gets it', () => {
  it('"Mallory " through z.string().trim().toLowerCase() is decided as `mallory`: denied, nothing runs', async () => {
    const s = setupTransfer(z.object({ to: z.string().trim().toLowerCase(), account: z.string() }));
    const model = scripted([functionCall('transfer', { to: 'Mallory ', account: 'acct_1' }, { callId: 'c1' })], [assistantMessage('done')]);
    await run(agentWith(model, s.tool), 'pay');
    expect(s.ran).toEqual([]);
    expect(toolOutputSeen(model, 1, 'c1')).toContain('denied');
    const receipts = await s.store.listReceipts();
    expect(receipts.map((r) => [r.result, r.reason])).toEqual([['denied', 'rule[0]']]);
  });

  it('invoke() called directly (no guardrail read the text first): "Mallory " is still decided as `mallory`, nothing runs', async () => {
    const s = setupTransfer(z.object({ to: z.string().trim().toLowerCase(), account: z.string() }));
    const raw = JSON.stringify({ to: 'Mallory ', account: 'acct_1' });
    const tool = s.tool as unknown as { invoke: (c: unknown, i: string, d: unknown) => Promise<unknown> };
    const details = { toolCall: { type: 'function_call', callId: 'c9', name: 'transfer', arguments: raw } };
    // denied: thrown or returned as the model's text, as the door reports it; either way the body never ran
    await tool.invoke(new RunContext({ user: 'alice' }), raw, details).catch(() => undefined);
    expect(s.ran).toEqual([]);
    const receipts = await s.store.listReceipts();
    expect(receipts.map((r) => [r.result, r.reason])).toEqual([['denied', 'rule[0]']]);
  });

  it('the effect key of "acme" is not dodged by "ACME" through .toLowerCase(): the transfer runs once', async () => {
    const s = setupTransfer(z.object({ to: z.string(), account: z.string().toLowerCase() }));
    const model = scripted(
      [functionCall('transfer', { to: 'bob', account: 'acme' }, { callId: 'c1' })],
      [functionCall('transfer', { to: 'bob', account: 'ACME' }, { callId: 'c2' })],
      [assistantMessage('done')],
    );
    await expect(run(agentWith(model, s.tool), 'pay twice')).rejects.toBeInstanceOf(DuplicateEffect);
    expect(s.ran).toEqual([{ to: 'bob', account: 'acme' }]);
    expect((await s.store.listReceipts()).map((r) => [r.result, r.effect_key])).toEqual([
      ['allowed', 'transfer:acme'],
      ['executed', 'transfer:acme'],
      ['duplicate', 'transfer:acme'],
    ]);
  });

  it('.default(), coercion, .toUpperCase(): decided on what the body gets, which runs with exactly that', async () => {
    const cases = [
      // the default fills `to` in: decided as `mallory` (denied), not as a call without `to`
      { schema: z.object({ to: z.string().default('mallory'), account: z.string() }), sent: { account: 'a1' }, ran: [] },
      { schema: z.object({ to: z.string(), account: z.coerce.string() }), sent: { to: 'bob', account: 7 }, ran: [{ to: 'bob', account: '7' }] },
      { schema: z.object({ to: z.string().toUpperCase(), account: z.string() }), sent: { to: 'bob', account: 'a1' }, ran: [{ to: 'BOB', account: 'a1' }] },
    ];
    for (const [i, c] of cases.entries()) {
      const s = setupTransfer(c.schema);
      const model = scripted([functionCall('transfer', c.sent, { callId: 'c1' })], [assistantMessage('done')]);
      await run(agentWith(model, s.tool), 'pay');
      expect(s.ran, `case ${i}`).toEqual(c.ran);
      const receipt = (await s.store.listReceipts()).at(-1)!;
      expect(receipt.result, `case ${i}`).toBe(c.ran.length === 0 ? 'denied' : 'executed');
    }
  });

  it('the Express + Twilio case: a `.default("medium")` no rule reads, decision approve: the pause files it, the approver reads it, the body gets it, once', async () => {
    const s = setupTransfer(z.object({ to: z.string(), account: z.string(), priority: z.string().default('medium') }), true);
    const model = scripted([functionCall('transfer', { to: 'bob', account: 'a1' }, { callId: 'c1' })], [assistantMessage('done')]);
    const agent = agentWith(model, s.tool);
    const paused = await run(agent, 'pay', { context: { user: 'alice' } });
    expect(paused.interruptions).toHaveLength(1);
    const [filed] = await s.store.listRequests();
    // what an approver reads (approvals list, the inbox) is what the body will get
    expect(filed!.args).toBe('{"account":"a1","priority":"medium","to":"bob"}');
    // answered in another process, from the serialized state
    const other = createControl({ store: s.store, identity: (rc) => (rc.context as { user?: string })?.user ?? null, clock: s.clock.now });
    bindProtectedTool(other, s.compiled);
    const restored = await RunState.fromString(agent, paused.state.toString());
    const answered = await other.approve(restored, restored.getInterruptions()[0]!, { approver: 'bob' });
    expect(answered.argsHash).toBe(filed!.argsHash);
    await run(agent, restored);
    expect(s.ran).toEqual([{ to: 'bob', account: 'a1', priority: 'medium' }]);
    const executed = (await s.store.listReceipts()).find((r) => r.result === 'executed')!;
    expect(executed.args_hash).toBe(filed!.argsHash);
  });

  it('an SDK that asks needsApproval with JSON.parse of the text (0.5 to 0.13), not the schema output: filed as the body gets it all the same', async () => {
    const s = setupTransfer(z.object({ to: z.string(), account: z.string(), priority: z.string().default('medium') }), true);
    const tool = s.tool as unknown as { needsApproval: (rc: RunContext<unknown>, input: unknown, callId?: string) => Promise<boolean> };
    expect(await tool.needsApproval(new RunContext({ user: 'alice' }), { to: 'bob', account: 'a1' }, 'c7')).toBe(true);
    const [filed] = await s.store.listRequests();
    expect(filed!.args).toBe('{"account":"a1","priority":"medium","to":"bob"}');
  });

  it('callArguments: the lossless value where the schema left it, its output where it changed it; a float it fills in is refused', () => {
    const big = '{"n": 12345678901234567890, "s": " x "}';
    const lossless = parseArguments(big);
    // the schema saw the integer as JSON.parse reads it (rounded): where it left it, the exact one is kept
    const rounded = Number(12345678901234567890n);
    const trimmed = callArguments(lossless, { ok: true, value: { n: rounded, s: 'x' } });
    expect(trimmed).toEqual({ ok: true, value: { n: 12345678901234567890n, s: 'x' } });
    expect(callArguments(lossless, { ok: true, value: { n: rounded, s: ' x ' } })).toBe(lossless);
    const filled = callArguments(parseArguments('{"a": 1}'), { ok: true, value: { a: 1, b: 'd', u: undefined } });
    expect(filled).toEqual({ ok: true, value: { a: 1, b: 'd' } });
    const float = callArguments(parseArguments('{"a": 1}'), { ok: true, value: { a: 1, r: 0.5 } });
    expect(float.ok).toBe(false);
    expect(!float.ok && float.detail).toContain('a float is not an allowed argument');
    // a null the schema dropped (strict mode's optional) stays as the model sent it
    expect(callArguments(parseArguments('{"a": null}'), { ok: true, value: {} })).toEqual({ ok: true, value: { a: null } });
  });

  it('outputAsArguments: a changed part that is not JSON is refused, naming where; JSON changes are the arguments', () => {
    expect(outputAsArguments({ a: ' x' }, { a: 'x', b: [1, { c: null }] })).toEqual({ ok: true, value: { a: 'x', b: [1, { c: null }] } });
    const date = outputAsArguments({ d: '2020-01-01' }, { d: new Date('2020-01-01') });
    expect(date).toEqual({ ok: false, problem: expect.stringContaining('gives the body $.d as a Date, not a JSON value') });
    expect(outputAsArguments({}, { a: [Number.NaN] })).toEqual({ ok: false, problem: expect.stringContaining('$.a[0] as NaN') });
    expect(outputAsArguments({}, { m: new Map() })).toEqual({ ok: false, problem: expect.stringContaining('$.m as a Map') });
    expect(outputAsArguments({}, { b: 1n })).toEqual({ ok: false, problem: expect.stringContaining('$.b as a bigint') });
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
