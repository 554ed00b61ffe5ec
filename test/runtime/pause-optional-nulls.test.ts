import { rmSync } from 'node:fs';
import { Runner, run as sdkRun, type FunctionTool } from '@openai/agents';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApprovalMismatch, unwrap } from '../../src/runtime/index.js';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import { argsHashOf } from '../../src/runtime/internals.js';
import { cli } from '../helpers/cli.js';
import { tempRepo } from '../cli/operator-helpers.js';
import { agentWith, assistantMessage, refundCall, scripted, setup, type Setup } from './helpers.js';

/**
 * Issue 21 item 5, the rest: a tool whose optional property the model left empty is filed at the
 * pause too. The SDK drops the `null` strict mode sends for it before `needsApproval`; the request
 * is filed as strict mode writes the call (the `null` put back), which is the model's own text, and
 * a text that left the property out (a model that ignores strict mode, a scripted one) claims it
 * when CTRLRun decides both forms alike. No `control.request(state)` here unless a test says so.
 */

const AS_SENT = '{"payment_id":"pay_1","amount":512345,"note":null}'; // strict mode's text
const LEFT_OUT = '{"payment_id":"pay_1","amount":512345}'; // a model that ignores strict mode
const FILED_ARGS = '{"amount":512345,"note":null,"payment_id":"pay_1"}';

const kinds = {
  zod: () => z.object({ payment_id: z.string(), amount: z.number().int(), note: z.string().optional() }),
  'JSON schema': () => ({
    type: 'object',
    properties: { payment_id: { type: 'string' }, amount: { type: 'integer' }, note: { type: 'string' } },
    required: ['payment_id', 'amount'],
    additionalProperties: false,
  }),
};
type Kind = keyof typeof kinds;

function noteTool(s: Setup, kind: Kind, extra: Record<string, unknown> = {}) {
  const calls: unknown[] = [];
  const tool = s.protectedTool('stripe.refund', {
    name: 'refund',
    description: 'Refund a payment',
    parameters: kinds[kind]() as never,
    execute: async (args: unknown) => {
      calls.push(args);
      return 'refunded';
    },
    ...extra,
  }) as FunctionTool;
  return { tool, calls };
}

type DeskAgent = ReturnType<typeof agentWith>;
const plainRun = (agent: DeskAgent) => sdkRun(agent, 'refund pay_1', { context: { user: 'alice' } });
type Paused = Awaited<ReturnType<typeof plainRun>>;

/** The SDK's three ways to drive a run, each handing back the paused run's interruptions and state. */
const drivers: Record<string, (agent: DeskAgent) => Promise<Paused>> = {
  'run()': plainRun,
  'Runner.run': (agent) => new Runner().run(agent, 'refund pay_1', { context: { user: 'alice' } }),
  streamed: async (agent) => {
    const result = await sdkRun(agent, 'refund pay_1', { context: { user: 'alice' }, stream: true });
    for await (const _event of result) void _event;
    await result.completed;
    return result as unknown as Paused;
  },
};

describe('an optional property the model left empty: filed at the pause, as strict mode writes the call', () => {
  const repos: string[] = [];
  afterEach(() => {
    for (const root of repos.splice(0)) rmSync(root, { recursive: true, force: true });
  });

  for (const kind of Object.keys(kinds) as Kind[]) {
    for (const [how, text] of [
      ['sent as null', AS_SENT],
      ['left out', LEFT_OUT],
    ] as const) {
      for (const [driver, drive] of Object.entries(drivers)) {
        it(`${kind} tool, ${how}, ${driver}: filed once with the null, the approved call runs once with what the SDK parsed`, async () => {
          const s = setup();
          const { tool, calls } = noteTool(s, kind);
          const agent = agentWith(scripted([refundCall(text, 'c1')], [assistantMessage('done')]), [tool]);
          const result = await drive(agent);
          expect(result.interruptions).toHaveLength(1);
          const requests = await s.store.listRequests();
          expect(requests).toEqual([
            expect.objectContaining({ callId: 'c1', state: 'pending', principal: 'alice', args: FILED_ARGS, argsHash: argsHashOf(AS_SENT, undefined) }),
          ]);
          expect((await s.store.listReceipts()).map((r) => [r.result, r.args_hash])).toEqual([['requested', argsHashOf(AS_SENT, undefined)]]);
          // the app's answer through the control finds the filed request the call's own
          expect(await s.control.approve(result.state, result.interruptions[0]!, { approver: 'bob' })).toMatchObject({ state: 'approved' });
          await sdkRun(agent, result.state, { context: { user: 'alice' } });
          expect(calls).toEqual([{ payment_id: 'pay_1', amount: 512_345 }]);
          expect((await s.store.getRequest('c1'))?.state).toBe('consumed');
          expect((await s.store.listReceipts()).map((r) => r.result)).toEqual(['requested', 'approved', 'claimed', 'executed']);
        });
      }
    }
  }

  it('in the SQLite store, answered from the CLI: `approvals list` shows the call, the SDK run resumed after resolve runs it once', async () => {
    const repo = tempRepo();
    repos.push(repo.root);
    const store = sqliteStore({ path: repo.dbPath });
    try {
      const s = setup({ store });
      const { tool, calls } = noteTool(s, 'zod');
      const agent = agentWith(scripted([refundCall(LEFT_OUT, 'c1')], [assistantMessage('done')]), [tool]);
      const result = await sdkRun(agent, 'refund pay_1', { context: { user: 'alice' } });
      const cliIn = (args: string[]) => cli(args, { cwd: repo.nested, env: { NO_COLOR: '1' } });
      const listed = await cliIn(['approvals', 'list', '--pending']);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toMatch(/c1\s+pending\s+stripe\.refund\s+alice\s+0\/1/);
      const approved = await cliIn(['approvals', 'approve', 'c1', '--as', 'bob']);
      expect(approved.code, approved.stderr).toBe(0);
      expect(await s.control.resolve(result.state)).toEqual([]);
      const resumed = await sdkRun(agent, result.state, { context: { user: 'alice' } });
      expect(resumed.finalOutput).toBe('done');
      // restored twice: still once
      await sdkRun(agent, result.state, { context: { user: 'alice' } }).catch(() => undefined);
      expect(calls).toEqual([{ payment_id: 'pay_1', amount: 512_345 }]);
      expect((await store.getRequest('c1'))?.state).toBe('consumed');
    } finally {
      await store.close();
    }
  });
});

/** bob's yes recorded in the store (not through the control), the SDK state approved, the run resumed: what it threw, or null. */
async function answeredElsewhereThenResumed(s: Setup, agent: DeskAgent, paused: Paused): Promise<unknown> {
  await s.store.addAnswer('c1', { approver: 'bob', decision: 'approve', at: s.clock.now() });
  paused.state.approve(paused.interruptions[0]!);
  return sdkRun(agent, paused.state, { context: { user: 'alice' } }).then(
    () => null,
    (e: unknown) => unwrap(e),
  );
}

/** The refund action decided by whether `note` is present: `null` and absent are two calls to it. */
function noteSensitive(s: Setup, withEffect: boolean) {
  const action = s.policy.actions['stripe.refund']!;
  action.decide = (args: unknown) =>
    Object.hasOwn(args as object, 'note') ? { decision: 'approve', rule: 1, reason: 'rule[1]' } : { decision: 'approve', rule: 3, reason: 'rule[3]' };
  if (!withEffect) delete (action as { effect?: unknown }).effect;
}

describe('a text that left the property out claims the request filed with its null only where CTRLRun decides both alike', () => {
  it('decided alike, an action without effect: (the approval claimed on its own) runs once', async () => {
    const s = setup();
    delete (s.policy.actions['stripe.refund'] as { effect?: unknown }).effect;
    const { tool, calls } = noteTool(s, 'zod');
    const agent = agentWith(scripted([refundCall(LEFT_OUT, 'c1')], [assistantMessage('done')]), [tool]);
    const result = await sdkRun(agent, 'refund pay_1', { context: { user: 'alice' } });
    await s.store.addAnswer('c1', { approver: 'bob', decision: 'approve', at: s.clock.now() });
    result.state.approve(result.interruptions[0]!);
    await sdkRun(agent, result.state, { context: { user: 'alice' } });
    expect(calls).toEqual([{ payment_id: 'pay_1', amount: 512_345 }]);
    expect((await s.store.listReceipts()).map((r) => [r.result, r.args_hash])).toEqual([
      ['requested', argsHashOf(AS_SENT, undefined)],
      ['claimed', argsHashOf(LEFT_OUT, undefined)],
      ['executed', argsHashOf(LEFT_OUT, undefined)],
    ]);
  });

  it('the pause decides on the call as sent: a policy that asks a person only when `note` is there pauses the call that sent it as null', async () => {
    const s = setup();
    s.policy.actions['stripe.refund']!.decide = (args: unknown) =>
      Object.hasOwn(args as object, 'note') ? { decision: 'approve', rule: 1, reason: 'rule[1]' } : { decision: 'allow', rule: 0, reason: 'rule[0]' };
    const { tool, calls } = noteTool(s, 'JSON schema');
    const agent = agentWith(scripted([refundCall(AS_SENT, 'c1')], [assistantMessage('done')]), [tool]);
    const result = await sdkRun(agent, 'refund pay_1', { context: { user: 'alice' } });
    expect(result.interruptions).toHaveLength(1);
    expect(calls).toEqual([]);
    expect(await s.store.getRequest('c1')).toMatchObject({ args: FILED_ARGS });
  });

  for (const withEffect of [true, false]) {
    it(`decided by another rule without the null${withEffect ? ' (an action with effect:)' : ''}: the approval is refused as a mismatch, the body never runs`, async () => {
      const s = setup();
      noteSensitive(s, withEffect);
      const { tool, calls } = noteTool(s, 'zod');
      const agent = agentWith(scripted([refundCall(LEFT_OUT, 'c1')], [assistantMessage('done')], [assistantMessage('done')]), [tool]);
      const result = await sdkRun(agent, 'refund pay_1', { context: { user: 'alice' } });
      expect(await s.store.getRequest('c1')).toMatchObject({ args: FILED_ARGS });
      // the control will not approve it for this call either
      await expect(s.control.approve(result.state, result.interruptions[0]!, { approver: 'bob' })).rejects.toBeInstanceOf(ApprovalMismatch);
      // an answer recorded elsewhere: the claim refuses it
      const error = await answeredElsewhereThenResumed(s, agent, result);
      expect(error).toBeInstanceOf(ApprovalMismatch);
      expect((error as ApprovalMismatch).reason).toBe('mismatch');
      expect(calls).toEqual([]);
      expect((await s.store.getRequest('c1'))?.state).toBe('approved');
    });
  }

  it('a request under the call id for other arguments (its null put back or not) is still a mismatch', async () => {
    const s = setup();
    const { tool, calls } = noteTool(s, 'JSON schema');
    await s.store.putRequest({
      callId: 'c1',
      action: 'stripe.refund',
      toolName: 'refund',
      argsHash: argsHashOf('{"payment_id":"pay_1","amount":600000,"note":null}', undefined)!,
      args: '{"amount":600000,"note":null,"payment_id":"pay_1"}',
      policyHash: s.policy.hash,
      principal: 'alice',
      approvalsRequired: 1,
      createdAt: 1,
    });
    const agent = agentWith(scripted([refundCall(LEFT_OUT, 'c1')], [assistantMessage('done')]), [tool]);
    const result = await sdkRun(agent, 'refund pay_1', { context: { user: 'alice' } });
    await expect(s.control.approve(result.state, result.interruptions[0]!, { approver: 'bob' })).rejects.toBeInstanceOf(ApprovalMismatch);
    const error = await answeredElsewhereThenResumed(s, agent, result);
    expect((error as ApprovalMismatch).reason).toBe('mismatch');
    expect(calls).toEqual([]);
  });
});

describe("a strict JSON-schema tool's optional property sent as null (the SDK drops it)", () => {
  it('an allowed call runs with what the SDK parsed (not refused as invalid arguments)', async () => {
    const s = setup();
    const { tool, calls } = noteTool(s, 'JSON schema');
    const text = '{"payment_id":"pay_1","amount":5000,"note":null}';
    await sdkRun(agentWith(scripted([refundCall(text, 'c1')], [assistantMessage('done')]), [tool]), 'refund', { context: { user: 'alice' } });
    expect(calls).toEqual([{ payment_id: 'pay_1', amount: 5000 }]);
    expect((await s.store.listReceipts()).map((r) => [r.result, r.args_hash])).toEqual([
      ['allowed', argsHashOf(text, undefined)],
      ['executed', argsHashOf(text, undefined)],
    ]);
  });

  it('strict: false: the SDK passes the null to the body, and the schema does not admit it: refused before anything runs', async () => {
    const s = setup();
    const { tool, calls } = noteTool(s, 'JSON schema', { strict: false });
    const text = '{"payment_id":"pay_1","amount":5000,"note":null}';
    await sdkRun(agentWith(scripted([refundCall(text, 'c1')], [assistantMessage('done')]), [tool]), 'refund', { context: { user: 'alice' } });
    expect(calls).toEqual([]);
    expect((await s.store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([['refused', 'invalid_arguments:/note: must be string, got null']]);
  });

  it('a required property sent as null is refused, not dropped', async () => {
    const s = setup();
    const { tool, calls } = noteTool(s, 'JSON schema');
    const text = '{"payment_id":null,"amount":5000}';
    await sdkRun(agentWith(scripted([refundCall(text, 'c1')], [assistantMessage('done')]), [tool]), 'refund', { context: { user: 'alice' } });
    expect(calls).toEqual([]);
    expect((await s.store.listReceipts()).map((r) => r.result)).toEqual(['refused']);
  });
});

describe("a zod tool's `.nullable()` field beside an optional one, both sent as null (strict mode)", () => {
  // the SDK drops the optional field's null and keeps the nullable one's (stripStrictNullsForZodSchema)
  const text = (amount: number) => `{"payment_id":"pay_1","amount":${amount},"note":null,"ref":null}`;
  const nullableTool = (s: Setup) => {
    const calls: unknown[] = [];
    const tool = s.protectedTool('stripe.refund', {
      name: 'refund',
      description: 'Refund a payment',
      parameters: z.object({ payment_id: z.string(), amount: z.number().int(), note: z.string().optional(), ref: z.number().int().nullable() }) as never,
      execute: async (args: unknown) => {
        calls.push(args);
        return 'refunded';
      },
    }) as FunctionTool;
    return { tool, calls };
  };

  it('an allowed call runs once with the nullable null kept, not refused as differing input', async () => {
    const s = setup();
    const { tool, calls } = nullableTool(s);
    await sdkRun(agentWith(scripted([refundCall(text(5000), 'c1')], [assistantMessage('done')]), [tool]), 'refund', { context: { user: 'alice' } });
    expect(calls).toEqual([{ payment_id: 'pay_1', amount: 5000, ref: null }]);
    expect((await s.store.listReceipts()).map((r) => r.result)).toEqual(['allowed', 'executed']);
  });

  it('a paused call, approved, runs once', async () => {
    const s = setup();
    const { tool, calls } = nullableTool(s);
    const agent = agentWith(scripted([refundCall(text(512_345), 'c1')], [assistantMessage('done')]), [tool]);
    const paused = await sdkRun(agent, 'refund', { context: { user: 'alice' } });
    expect(paused.interruptions).toHaveLength(1);
    await s.control.approve(paused.state, paused.interruptions[0]!, { approver: 'bob' });
    await sdkRun(agent, paused.state, { context: { user: 'alice' } });
    expect(calls).toEqual([{ payment_id: 'pay_1', amount: 512_345, ref: null }]);
  });
});
