import { RunContext, RunState, tool as sdkTool } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import {
  ActionDenied,
  ApprovalMismatch,
  bindProtectedTool,
  createControl,
  memoryStore,
  run,
  type CompiledPolicy,
  type DecisionResult,
} from '../../src/runtime/index.js';
import { agentWith, assistantMessage, functionCall, refundCall, refundTool, scripted, sdkBefore, setup, toolOutputSeen } from './helpers.js';

const BIG = { payment_id: 'pay_1', amount: 512_345 }; // approve band of helpers' policy

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (e: unknown) => e,
  );
}

/** The review's fail-open shape: `amount_gt: 1000 -> approve`, then a catch-all `allow`. */
function amountGtPolicy(): CompiledPolicy {
  return {
    hash: 'e'.repeat(64),
    mode: 'enforce',
    actions: {
      'stripe.refund': {
        id: 'stripe.refund',
        decide(args: unknown): DecisionResult {
          const amount = (args as { amount?: unknown } | null)?.amount;
          if (typeof amount === 'number' && amount > 1000) return { decision: 'approve', rule: 0, reason: 'rule[0]' };
          return { decision: 'allow', rule: 1, reason: 'rule[1]' };
        },
        controls: [],
        approvalsRequired: 1,
        maxAttempts: 1,
      },
    },
    tools: { refund: 'stripe.refund' },
  };
}

/** A refund tool with JSON-schema parameters (the SDK only JSON-parses those). */
function jsonSchemaRefund() {
  const store = memoryStore();
  const control = createControl({ store, identity: (rc) => (rc.context as { user?: string }).user ?? null });
  const protectedTool = bindProtectedTool(control, amountGtPolicy());
  const calls: unknown[] = [];
  const tool = protectedTool('stripe.refund', {
    name: 'refund',
    description: 'Refund a payment',
    parameters: {
      type: 'object',
      properties: { payment_id: { type: 'string' }, amount: { type: 'integer', minimum: 1 } },
      required: ['payment_id', 'amount'],
      additionalProperties: false,
    },
    strict: true,
    execute: async (args: unknown) => {
      calls.push(args);
      return 'refunded';
    },
  });
  return { store, control, tool, calls };
}

describe('argument types at run time (JSON-schema parameters)', () => {
  it('a string for an integer is refused before the decision: the model reads why, the catch-all allow never runs the body', async () => {
    const { store, tool, calls } = jsonSchemaRefund();
    const model = scripted([functionCall('refund', { payment_id: 'pay_1', amount: '5000000' }, { callId: 'c1' })], [assistantMessage('refused')]);
    const result = await run(agentWith(model, [tool]), 'refund', { context: { user: 'alice' } });
    expect(result.finalOutput).toBe('refused');
    expect(calls).toEqual([]);
    expect(toolOutputSeen(model, 1, 'c1')).toContain("do not match the tool's schema: /amount: must be integer, got string");
    expect((await store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([['refused', 'invalid_arguments:/amount: must be integer, got string']]);
  });

  it('the same call with a real integer goes to a human (approve), and a small one runs', async () => {
    const { tool, calls } = jsonSchemaRefund();
    const big = await run(agentWith(scripted([functionCall('refund', { payment_id: 'pay_1', amount: 5_000_000 }, { callId: 'c1' })]), [tool]), 'refund', {
      context: { user: 'alice' },
    });
    expect(big.interruptions).toHaveLength(1);
    const model = scripted([functionCall('refund', { payment_id: 'pay_1', amount: 500 }, { callId: 'c2' })], [assistantMessage('done')]);
    await run(agentWith(model, [tool]), 'refund', { context: { user: 'alice' } });
    expect(calls).toEqual([{ payment_id: 'pay_1', amount: 500 }]);
  });

  it('extra properties, a missing field and a value under minimum are refused too', async () => {
    const { tool, calls } = jsonSchemaRefund();
    for (const [args, problem] of [
      [{ payment_id: 'pay_1', amount: 5, admin: true }, '/admin: is not an allowed property'],
      [{ payment_id: 'pay_1' }, '/amount: is required'],
      [{ payment_id: 'pay_1', amount: 0 }, '/amount: must be >= 1'],
    ] as const) {
      const model = scripted([functionCall('refund', args as never, { callId: 'c1' })], [assistantMessage('no')]);
      await run(agentWith(model, [tool]), 'refund', { context: { user: 'alice' } });
      expect(toolOutputSeen(model, 1, 'c1')).toContain(problem);
    }
    expect(calls).toEqual([]);
  });

  it('invoke() called directly (no guardrail) with schema-invalid input: ActionDenied invalid_arguments, nothing runs', async () => {
    const { tool, calls } = jsonSchemaRefund();
    const raw = JSON.stringify({ payment_id: 'pay_1', amount: '5000000' });
    const error = await caught(
      (tool as unknown as { invoke: (c: unknown, i: string, d: unknown) => Promise<unknown> }).invoke(new RunContext({ user: 'alice' }), raw, {
        toolCall: { type: 'function_call', callId: 'c1', name: 'refund', arguments: raw },
      }),
    );
    expect(error).toBeInstanceOf(ActionDenied);
    expect((error as ActionDenied).reason).toBe('invalid_arguments');
    expect(calls).toEqual([]);
  });

  it('a JSON-schema keyword the check does not know is refused when the tool is made (fail closed)', () => {
    const control = createControl({ store: memoryStore(), identity: () => 'alice' });
    const protectedTool = bindProtectedTool(control, amountGtPolicy());
    expect(() =>
      protectedTool('stripe.refund', {
        name: 'refund',
        description: 'x',
        parameters: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false, if: { required: ['a'] } } as never,
        execute: async () => 'x',
      }),
    ).toThrow(/"if".*does not support/);
  });
});

describe('approvals are bound to the call, not the call id alone', () => {
  it('another run reusing the call id with other arguments does not burn the genuine approval', async () => {
    const s = setup();
    const { tool, calls } = refundTool(s);
    const agent = agentWith(scripted([refundCall(BIG, 'c1')], [assistantMessage('done')]), [tool]);
    const paused = await run(agent, 'refund pay_1', { context: { user: 'alice' } });
    await s.control.request(paused.state);
    const genuine = await RunState.fromString(agent, paused.state.toString());
    await s.control.approve(genuine, genuine.getInterruptions()[0]!, { approver: 'bob' });

    // the other run: same call id, other arguments, approved only in its own SDK state
    const OTHER = { payment_id: 'pay_9', amount: 999_999 };
    const otherAgent = agentWith(scripted([refundCall(OTHER, 'c1')], [assistantMessage('x')]), [tool]);
    const otherPaused = await run(otherAgent, 'refund pay_9', { context: { user: 'alice' } });
    otherPaused.state.approve(otherPaused.state.getInterruptions()[0]!);
    const error = await caught(run(otherAgent, otherPaused.state));
    expect(error).toBeInstanceOf(ApprovalMismatch);
    expect((error as ApprovalMismatch).reason).toBe('mismatch');
    expect((await s.store.getRequest('c1'))?.state).toBe('approved');

    await run(agent, genuine);
    expect(calls).toEqual([BIG]);
    expect((await s.store.getRequest('c1'))?.state).toBe('consumed');
  });

  it('invoke() with details.toolCall arguments differing from the input: refused; the approval stays for the real call', async () => {
    const s = setup();
    const { tool, calls } = refundTool(s);
    const agent = agentWith(scripted([refundCall(BIG, 'c1')], [assistantMessage('done')]), [tool]);
    const paused = await run(agent, 'refund pay_1', { context: { user: 'alice' } });
    await s.control.request(paused.state);
    const genuine = await RunState.fromString(agent, paused.state.toString());
    await s.control.approve(genuine, genuine.getInterruptions()[0]!, { approver: 'bob' });

    const approvedRaw = JSON.stringify(BIG);
    const unapproved = JSON.stringify({ payment_id: 'pay_7', amount: 900_000 });
    const error = await caught(
      (tool as unknown as { invoke: (c: unknown, i: string, d: unknown) => Promise<unknown> }).invoke(new RunContext({ user: 'alice' }), unapproved, {
        toolCall: { type: 'function_call', callId: 'c1', name: 'refund', arguments: approvedRaw },
      }),
    );
    expect(error).toBeInstanceOf(ActionDenied);
    expect((error as ActionDenied).reason).toBe('arguments_mismatch');
    expect(calls).toEqual([]);
    expect((await s.store.getRequest('c1'))?.state).toBe('approved');
    expect((await s.store.listReceipts()).at(-1)).toMatchObject({ result: 'refused', reason: 'arguments_mismatch' });

    await run(agent, genuine);
    expect(calls).toEqual([BIG]);
  });

  it('the SDK strict mode nulls of optional zod fields still match their raw call (no false mismatch)', async () => {
    const s = setup();
    const { z } = await import('zod');
    const calls: unknown[] = [];
    const tool = s.protectedTool('stripe.refund', {
      name: 'refund',
      description: 'Refund',
      parameters: z.object({ payment_id: z.string(), amount: z.number().int(), note: z.string().optional() }),
      execute: async (args) => {
        calls.push(args);
        return 'ok';
      },
    });
    const model = scripted([refundCall({ payment_id: 'pay_1', amount: 5_000, note: null }, 'c1')], [assistantMessage('done')]);
    await run(agentWith(model, [tool]), 'refund', { context: { user: 'alice' } });
    // the protected tool takes exactly what the SDK's own tool() takes
    const plainCalls: unknown[] = [];
    const plain = sdkTool({
      name: 'refund',
      description: 'Refund',
      parameters: z.object({ payment_id: z.string(), amount: z.number().int(), note: z.string().optional() }),
      execute: async (args) => {
        plainCalls.push(args);
        return 'ok';
      },
    });
    await run(agentWith(scripted([refundCall({ payment_id: 'pay_1', amount: 5_000, note: null }, 'c1')], [assistantMessage('done')]), [plain]), 'refund', {
      context: { user: 'alice' },
    });
    expect(calls).toEqual(plainCalls);
    // before 0.9 the SDK itself refuses a null optional field (its zod parse), with or without this library
    expect(calls).toEqual(sdkBefore('0.9') ? [] : [{ payment_id: 'pay_1', amount: 5_000 }]);
  });
});
