import { RunContext, tool } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sameParseInput } from '../../src/runtime/core/arguments.js';
import { ActionDenied, run } from '../../src/runtime/index.js';
import { agentWith, assistantMessage, refundCall, scripted, sdkBefore, setup, type Ctx } from './helpers.js';

/**
 * The guardrail takes `needsApproval`'s zod parse instead of parsing again (issue 39): only for the
 * same value handed to the schema, once. The schema counts its parses, so each test sees whether a
 * parse was shared.
 */
function countingRefund(amount: z.ZodType<number> = z.number().int()) {
  const s = setup();
  const counted = { parses: 0 };
  const calls: unknown[] = [];
  const protectedRefund = s.protectedTool('stripe.refund', {
    name: 'refund',
    description: 'Refund a payment',
    parameters: countingSchema(amount, counted),
    execute: async (args) => {
      calls.push(args);
      return 'refunded';
    },
  });
  const hooks = protectedRefund as unknown as {
    needsApproval: (rc: RunContext<Ctx>, input: unknown, callId: string) => Promise<boolean>;
    inputGuardrails: Array<{ run: (data: unknown) => Promise<{ behavior: { type: string } }> }>;
  };
  const context = new RunContext<Ctx>({ user: 'alice' });
  /** The two hooks the SDK asks before the body, as it asks them: needsApproval on its value, the guardrail on the text. */
  const ask = (input: unknown, callId: string) => hooks.needsApproval(context, input, callId);
  const guard = async (text: string, callId: string) =>
    (await hooks.inputGuardrails[0]!.run({ context, agent: undefined, toolCall: { type: 'function_call', callId, name: 'refund', arguments: text } })).behavior
      .type;
  return { s, tool: protectedRefund, calls, counted, ask, guard };
}

function countingSchema(amount: z.ZodType<number>, counted: { parses: number }) {
  return z.object({ payment_id: z.string(), amount }).refine(() => {
    counted.parses++;
    return true;
  });
}

/**
 * How often the SDK under test parses one call itself: a plain tool() with the same two hooks
 * doing nothing (the SDKs of the peer range differ: 0.20 parses once and hands the value on).
 */
async function sdkParses(amount: z.ZodType<number>, args: Record<string, unknown>): Promise<number> {
  const counted = { parses: 0 };
  const gated = tool({
    name: 'refund',
    description: 'Refund a payment',
    parameters: countingSchema(amount, counted),
    needsApproval: async () => false,
    inputGuardrails: [{ type: 'tool_input', name: 'noop', run: async () => ({ behavior: { type: 'allow' } }) }] as never,
    execute: async () => 'refunded',
  });
  await run(agentWith(scripted([refundCall(args, 'c0')], [assistantMessage('done')]), [gated]), 'refund', { context: { user: 'alice' } });
  return counted.parses;
}

/** 0 becomes -0 and -0 becomes 0 (zod 4's `overwrite` keeps the schema printable; zod 3 has `transform`). */
function negated(): z.ZodType<number> {
  const base = z.number().int();
  const flip = (n: number) => -n;
  return typeof (base as { overwrite?: unknown }).overwrite === 'function' ? base.overwrite(flip) : (base.transform(flip) as unknown as z.ZodType<number>);
}

const text = (id: string, amount: number) => `{"payment_id":"${id}","amount":${amount}}`;

describe('the guardrail shares needsApproval’s parse of the same value', () => {
  it('through the Runner: an allowed call is parsed once more than the SDK parses it (needsApproval), however its text is written', async () => {
    const sdk = await sdkParses(z.number().int(), { payment_id: 'pay_0', amount: 500 });
    const { s, tool, calls, counted } = countingRefund();
    const model = scripted([refundCall({ payment_id: 'pay_1', amount: 500 }, 'c1')], [assistantMessage('done')]);
    const result = await run(agentWith(model, [tool]), 'refund', { context: { user: 'alice' } });
    expect(result.interruptions).toEqual([]);
    expect(calls).toEqual([{ payment_id: 'pay_1', amount: 500 }]);
    expect(counted.parses).toBe(sdk + 1);

    counted.parses = 0;
    // written with spaces: another text, the same value handed to the schema, so the same parse
    const spaced = scripted([refundCall('{"payment_id": "pay_2", "amount": 500}', 'c2')], [assistantMessage('done')]);
    await run(agentWith(spaced, [tool]), 'refund', { context: { user: 'alice' } });
    expect(calls).toEqual([
      { payment_id: 'pay_1', amount: 500 },
      { payment_id: 'pay_2', amount: 500 },
    ]);
    expect(counted.parses).toBe(sdk + 1);
    const receipts = await s.store.listReceipts();
    expect(receipts.map((r) => [r.call_id, r.result]).sort()).toEqual([
      ['c1', 'allowed'],
      ['c1', 'executed'],
      ['c2', 'allowed'],
      ['c2', 'executed'],
    ]);
  });

  it('a denied call shares the parse too, and is still denied', async () => {
    const { calls, counted, ask, guard } = countingRefund();
    expect(await ask({ payment_id: 'pay_1', amount: 5_000_000 }, 'c1')).toBe(false);
    expect(counted.parses).toBe(1);
    expect(await guard(text('pay_1', 5_000_000), 'c1')).toBe('rejectContent');
    expect(counted.parses).toBe(1);
    expect(calls).toEqual([]);
  });

  it('not when the value handed to the schema differs though it prints the same (-0 is not 0)', async () => {
    const { counted, ask, guard } = countingRefund();
    // the SDK's value with -0 prints as the model's `0`: the schema would be handed 0 by the guardrail, not -0
    expect(await ask({ payment_id: 'pay_1', amount: -0 }, 'c1')).toBe(false);
    expect(counted.parses).toBe(1);
    expect(await guard(text('pay_1', 0), 'c1')).toBe('allow');
    expect(counted.parses).toBe(2);
  });

  it('a schema that answers -0 and 0 apart decides on the guardrail’s own parse, as without sharing', async () => {
    // 0 becomes -0 and -0 becomes 0: the SDK's value for the model's `0` is -0, which prints back as `0`
    const sdk = await sdkParses(negated(), { payment_id: 'pay_0', amount: 0 });
    const { s, calls, counted, tool } = countingRefund(negated());
    const model = scripted([refundCall({ payment_id: 'pay_1', amount: 0 }, 'c1')], [assistantMessage('done')]);
    const failed = await run(agentWith(model, [tool]), 'refund', { context: { user: 'alice' } }).catch((error: unknown) => error);
    // decided on the guardrail's parse of the model's text (-0), the body would get 0: refused as arguments that changed
    expect(failed).toBeInstanceOf(ActionDenied);
    expect((failed as ActionDenied).reason).toBe('arguments_mismatch');
    expect(calls).toEqual([]);
    // (an SDK before 0.19 asks needsApproval with JSON.parse's 0, not the schema's -0: the same value, shared;
    // measured over the range by .ci/sdk-range: 0.14 to 0.18 do as 0.13)
    expect(counted.parses).toBe(sdk + (sdkBefore('0.19') ? 1 : 2));
    expect((await s.store.listReceipts()).map((r) => [r.call_id, r.result, r.reason])).toEqual([['c1', 'refused', 'arguments_mismatch']]);
  });

  it('taken once: a second guardrail run of the same text parses it again', async () => {
    const { counted, ask, guard } = countingRefund();
    await ask({ payment_id: 'pay_1', amount: 500 }, 'c1');
    expect(await guard(text('pay_1', 500), 'c1')).toBe('allow');
    expect(counted.parses).toBe(1);
    expect(await guard(text('pay_1', 500), 'c1')).toBe('allow');
    expect(counted.parses).toBe(2);
  });

  it('one parse a tool: a guardrail of another call leaves it for its own, a newer needsApproval replaces it', async () => {
    const { counted, ask, guard } = countingRefund();
    await ask({ payment_id: 'pay_1', amount: 500 }, 'c1');
    await ask({ payment_id: 'pay_2', amount: 500 }, 'c2');
    expect(counted.parses).toBe(2);
    // parallel calls: c1's guardrail finds c2's parse (another value) and parses; c2's still takes it
    expect(await guard(text('pay_1', 500), 'c1')).toBe('allow');
    expect(counted.parses).toBe(3);
    expect(await guard(text('pay_2', 500), 'c2')).toBe('allow');
    expect(counted.parses).toBe(3);
  });

  it('let go by its own call’s guardrail, taken or not: no call’s arguments are kept beyond it', async () => {
    const { counted, ask, guard } = countingRefund();
    await ask({ payment_id: 'pay_1', amount: 500 }, 'c1');
    expect(counted.parses).toBe(1);
    // c1's guardrail is handed another value (the text differs): it parses, and lets c1's parse go
    expect(await guard(text('pay_1', 501), 'c1')).toBe('allow');
    expect(counted.parses).toBe(2);
    // so a later call of c1's very value finds nothing kept
    expect(await guard(text('pay_1', 500), 'c2')).toBe('allow');
    expect(counted.parses).toBe(3);
  });

  it('let go when needsApproval pauses the call: no guardrail of it runs now to take it', async () => {
    const { s, counted, ask, guard } = countingRefund();
    expect(await ask({ payment_id: 'pay_1', amount: 500_000 }, 'c1')).toBe(true);
    expect((await s.store.listRequests({ state: 'pending' })).map((r) => r.callId)).toEqual(['c1']);
    // (filing the pause parses the call again: counted from here)
    const filed = counted.parses;
    await guard(text('pay_1', 500_000), 'c9');
    expect(counted.parses).toBe(filed + 1);
  });

  it('nor when the value is an object of another prototype (the guardrail parses plain objects)', async () => {
    const { counted, ask, guard } = countingRefund();
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { payment_id: 'pay_1', amount: 500 });
    expect(await ask(bare, 'c1')).toBe(false);
    expect(counted.parses).toBe(1);
    expect(await guard(text('pay_1', 500), 'c1')).toBe('allow');
    expect(counted.parses).toBe(2);
  });

  it('sameParseInput: one input to a schema, member by member', () => {
    const holed: unknown[] = [1];
    holed[2] = 3; // a hole at 1
    const cases: Array<[unknown, unknown, boolean]> = [
      [{ a: 1, b: [1, 'x', null, true] }, { a: 1, b: [1, 'x', null, true] }, true],
      [{ a: -0 }, { a: 0 }, false],
      [{ a: 1 }, { a: 1, b: 2 }, false],
      [{ a: 1, b: 2 }, { a: 1, c: 2 }, false],
      [{ a: 1, b: 2 }, { b: 2, a: 1 }, false],
      [{ a: 1 }, Object.assign(Object.create(null), { a: 1 }), false],
      [[1, 2], [1, 2, 3], false],
      [[1, 2], { 0: 1, 1: 2 }, false],
      [holed, [1, undefined, 3], false],
      [{ a: [[{ b: 1n }]] }, { a: [[{ b: 1n }]] }, true],
      [{ a: [[{ b: 1n }]] }, { a: [[{ b: 2n }]] }, false],
      [null, {}, false],
      // not plain data: their state is not in their keys
      [new Date(1), new Date(2), false],
      [new Map([['a', 1]]), new Map([['a', 2]]), false],
      ['1', 1, false],
    ];
    for (const [a, b, same] of cases) {
      expect(
        sameParseInput(a, b, 0),
        JSON.stringify([a, b], (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)),
      ).toBe(same);
      expect(sameParseInput(b, a, 0)).toBe(same);
    }
  });
});
