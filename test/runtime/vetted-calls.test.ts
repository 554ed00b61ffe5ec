// The guardrail's answer for a call it let through (who it acts for, its arguments' parse) is kept
// for that same call's body, keyed by the tool-call object (core/principal.ts): taken once, and at
// most 16 kept, oldest dropped first. A body whose entry was dropped, or that comes with another
// tool-call object, asks `identity` again: the same answer, never another call's.
import { RunContext } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bindProtectedTool, createControl, memoryStore } from '../../src/runtime/index.js';
import { ALLOW_PAY_POLICY } from './helpers.js';

const policy = ALLOW_PAY_POLICY;

type Hooks = {
  inputGuardrails: Array<{ run: (data: unknown) => Promise<{ behavior: { type: string } }> }>;
  invoke: (rc: RunContext<unknown>, text: string, details: { toolCall: unknown }) => Promise<unknown>;
};

/** A pay tool whose control counts `identity`'s calls and the rules' runs, and the two hooks the SDK asks of an allowed call. */
function countedPay() {
  const asked = { identity: 0, rules: 0 };
  const action = policy.actions['pay.allow']!;
  const counted = {
    ...policy,
    actions: {
      'pay.allow': {
        ...action,
        decide: (args: unknown) => {
          asked.rules++;
          return action.decide(args);
        },
      },
    },
  };
  const ran: string[] = [];
  const control = createControl({
    store: memoryStore(),
    identity: (rc) => {
      asked.identity++;
      return (rc.context as { user: string }).user;
    },
    receiptKey: null,
  });
  const tool = bindProtectedTool(control, counted)('pay.allow', {
    name: 'pay',
    description: 'pay',
    parameters: z.object({ id: z.string() }),
    execute: async ({ id }: { id: string }) => {
      ran.push(id);
      return 'paid';
    },
  }) as unknown as Hooks;
  const context = new RunContext<unknown>({ user: 'alice' });
  const toolCall = (i: number) => ({ type: 'function_call', callId: `c${i}`, name: 'pay', arguments: `{"id":"p${i}"}`, status: 'completed' });
  const guard = async (call: ReturnType<typeof toolCall>) => (await tool.inputGuardrails[0]!.run({ context, agent: undefined, toolCall: call })).behavior.type;
  const body = (call: ReturnType<typeof toolCall>) => tool.invoke(context, call.arguments, { toolCall: call });
  return { asked, ran, toolCall, guard, body };
}

describe("the guardrail's answer kept for the call's body", () => {
  it('a body takes its own call’s answer without asking identity again, in any order', async () => {
    const { asked, ran, toolCall, guard, body } = countedPay();
    const calls = [0, 1, 2].map(toolCall);
    for (const call of calls) expect(await guard(call)).toBe('allow');
    expect(asked.identity).toBe(3);
    for (const call of [calls[2]!, calls[0]!, calls[1]!]) expect(await body(call)).toBe('paid');
    expect(asked.identity).toBe(3);
    expect(ran).toEqual(['p2', 'p0', 'p1']);
  });

  it('is taken once: the same call object run again asks identity again', async () => {
    const { asked, toolCall, guard, body } = countedPay();
    const call = toolCall(0);
    await guard(call);
    await body(call);
    expect(asked.identity).toBe(1);
    await body(call);
    expect(asked.identity).toBe(2);
  });

  it('is the call object’s own: another object with the same text asks identity again', async () => {
    const { asked, toolCall, guard, body } = countedPay();
    await guard(toolCall(0));
    expect(await body(toolCall(0))).toBe('paid');
    expect(asked.identity).toBe(2);
  });

  it('keeps the 16 newest: the oldest of 17 calls let through asks identity again, and still runs', async () => {
    const { asked, ran, toolCall, guard, body } = countedPay();
    const calls = Array.from({ length: 17 }, (_, i) => toolCall(i));
    for (const call of calls) await guard(call);
    expect(asked.identity).toBe(17);
    expect(await body(calls[16]!)).toBe('paid');
    expect(await body(calls[1]!)).toBe('paid');
    expect(asked.identity).toBe(17);
    expect(await body(calls[0]!)).toBe('paid');
    expect(asked.identity).toBe(18);
    expect(ran).toEqual(['p16', 'p1', 'p0']);
  });

  it('hands the body its decision where the policy has no grants: the rules run once a call', async () => {
    const { asked, ran, toolCall, guard, body } = countedPay();
    const call = toolCall(0);
    await guard(call);
    expect(asked.rules).toBe(1);
    expect(await body(call)).toBe('paid');
    expect(asked.rules).toBe(1);
    // a body with no entry of its guardrail's decides itself
    expect(await body(toolCall(1))).toBe('paid');
    expect(asked.rules).toBe(2);
    expect(ran).toEqual(['p0', 'p1']);
  });
});
