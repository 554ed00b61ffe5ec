import { RunContext } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sameParseInput } from '../../src/runtime/core/arguments.js';
import { ActionDenied, run } from '../../src/runtime/index.js';
import { agentWith, assistantMessage, refundCall, scripted, setup, type Ctx } from './helpers.js';

/**
 * The guardrail takes `needsApproval`'s zod parse instead of parsing again (issue 39): only for the
 * same value handed to the schema, once. The schema counts its parses, so each test sees whether a
 * parse was shared.
 */
function countingRefund(amount: z.ZodType<number> = z.number().int()) {
  const s = setup();
  const counted = { parses: 0 };
  const calls: unknown[] = [];
  const tool = s.protectedTool('stripe.refund', {
    name: 'refund',
    description: 'Refund a payment',
    parameters: z.object({ payment_id: z.string(), amount }).refine(() => {
      counted.parses++;
      return true;
    }),
    execute: async (args) => {
      calls.push(args);
      return 'refunded';
    },
  });
  const hooks = tool as unknown as {
    needsApproval: (rc: RunContext<Ctx>, input: unknown, callId: string) => Promise<boolean>;
    inputGuardrails: Array<{ run: (data: unknown) => Promise<{ behavior: { type: string } }> }>;
  };
  const context = new RunContext<Ctx>({ user: 'alice' });
  /** The two hooks the SDK asks before the body, as it asks them: needsApproval on its value, the guardrail on the text. */
  const ask = (input: unknown, callId: string) => hooks.needsApproval(context, input, callId);
  const guard = async (text: string, callId: string) =>
    (await hooks.inputGuardrails[0]!.run({ context, agent: undefined, toolCall: { type: 'function_call', callId, name: 'refund', arguments: text } })).behavior
      .type;
  return { s, tool, calls, counted, ask, guard };
}

const text = (id: string, amount: number) => `{"payment_id":"${id}","amount":${amount}}`;

describe('the guardrail shares needsApproval’s parse of the same value', () => {
  it('through the Runner: an allowed call parses twice (the SDK, needsApproval), however its text is written', async () => {
    const { s, tool, calls, counted } = countingRefund();
    const model = scripted([refundCall({ payment_id: 'pay_1', amount: 500 }, 'c1')], [assistantMessage('done')]);
    const result = await run(agentWith(model, [tool]), 'refund', { context: { user: 'alice' } });
    expect(result.interruptions).toEqual([]);
    expect(calls).toEqual([{ payment_id: 'pay_1', amount: 500 }]);
    expect(counted.parses).toBe(2);

    counted.parses = 0;
    // written with spaces: another text, the same value handed to the schema, so the same parse
    const spaced = scripted([refundCall('{"payment_id": "pay_2", "amount": 500}', 'c2')], [assistantMessage('done')]);
    await run(agentWith(spaced, [tool]), 'refund', { context: { user: 'alice' } });
    expect(calls).toEqual([
      { payment_id: 'pay_1', amount: 500 },
      { payment_id: 'pay_2', amount: 500 },
    ]);
    expect(counted.parses).toBe(2);
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
    const { s, calls, counted, tool } = countingRefund(
      z
        .number()
        .int()
        .overwrite((n) => -n),
    );
    const model = scripted([refundCall({ payment_id: 'pay_1', amount: 0 }, 'c1')], [assistantMessage('done')]);
    const failed = await run(agentWith(model, [tool]), 'refund', { context: { user: 'alice' } }).catch((error: unknown) => error);
    // decided on the guardrail's parse of the model's text (-0), the body would get 0: refused as arguments that changed
    expect(failed).toBeInstanceOf(ActionDenied);
    expect((failed as ActionDenied).reason).toBe('arguments_mismatch');
    expect(calls).toEqual([]);
    expect(counted.parses).toBe(3);
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
