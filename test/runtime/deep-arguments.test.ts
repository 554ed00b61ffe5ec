import { RunContext } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ActionDenied, run, verifyReceipts } from '../../src/runtime/index.js';
import { parseArguments } from '../../src/runtime/arguments.js';
import { argsHashOf } from '../../src/runtime/internals.js';
import { agentWith, assistantMessage, refundCall, scripted, setup, toolOutputSeen } from './helpers.js';

// Issue 14.7: deeply nested arguments are refused as invalid arguments, located in the receipt and
// in what the model reads, at every stage that walks them (parse, schema check, decision, hash,
// receipt), never a stack overflow or an internal error.

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const argsWith = (depth: number) => `{"payment_id":"pay_1","amount":5,"note":${nested(depth)}}`;

const PARAMETERS = {
  zod: z.object({ payment_id: z.string(), amount: z.number().int(), note: z.any() }),
  json: {
    type: 'object',
    properties: { payment_id: { type: 'string' }, amount: { type: 'integer' }, note: { type: 'array', items: { type: 'array' } } },
    required: ['payment_id', 'amount', 'note'],
    additionalProperties: false,
  },
};

function deepTool(kind: keyof typeof PARAMETERS) {
  const s = setup();
  const calls: unknown[] = [];
  const tool = s.protectedTool('stripe.refund', {
    name: 'refund',
    description: 'Refund a payment',
    parameters: PARAMETERS[kind] as never,
    execute: async (a: unknown) => {
      calls.push(a);
      return 'refunded';
    },
  });
  return { s, tool, calls };
}

describe('deeply nested arguments (issue 14.7)', () => {
  for (const kind of ['zod', 'json'] as const) {
    it(`${kind} parameters, through the Runner: a 600-deep argument is refused; the model reads why; one receipt`, async () => {
      const { s, tool, calls } = deepTool(kind);
      const model = scripted([refundCall(argsWith(600), 'c1')], [assistantMessage('refused')]);
      const result = await run(agentWith(model, [tool]), 'refund', { context: { user: 'alice' } });
      expect(result.finalOutput).toBe('refused');
      expect(calls).toEqual([]);
      expect(toolOutputSeen(model, 1, 'c1')).toContain('nest more than 512 levels deep');
      expect((await s.store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([
        ['refused', 'invalid_arguments:the arguments nest more than 512 levels deep'],
      ]);
      expect(await verifyReceipts(s.store)).toMatchObject({ ok: true });
    });

    it(`${kind} parameters, invoke() with a 20,000-deep argument: ActionDenied invalid_arguments, not arguments_mismatch or a RangeError`, async () => {
      const { s, tool, calls } = deepTool(kind);
      const raw = argsWith(20_000);
      const error = await (tool as unknown as { invoke: (c: unknown, i: string, d: unknown) => Promise<unknown> })
        .invoke(new RunContext({ user: 'alice' }), raw, { toolCall: { type: 'function_call', callId: 'c1', name: 'refund', arguments: raw } })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(ActionDenied);
      expect((error as ActionDenied).reason).toBe('invalid_arguments');
      expect(calls).toEqual([]);
      const receipts = await s.store.listReceipts();
      expect(receipts.map((r) => r.reason)).toEqual(['invalid_arguments:the arguments nest more than 512 levels deep']);
      expect(receipts[0]!.args_hash).toBeNull();
    });
  }

  it('the parse and the hash refuse 20,000 levels without throwing; 512 levels still parse', () => {
    expect(parseArguments(argsWith(20_000))).toEqual({ ok: false, detail: 'the arguments nest more than 512 levels deep' });
    expect(argsHashOf(argsWith(20_000), undefined)).toBeNull();
    // brackets inside strings are not nesting
    expect(parseArguments(`{"note":"${'['.repeat(20_000)}"}`).ok).toBe(true);
    expect(parseArguments(`{"note":${nested(510)}}`).ok).toBe(true);
  });
});
