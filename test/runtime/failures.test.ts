import { RunContext, ToolCallError, tool } from '@openai/agents';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ActionDenied, AmbiguousEffect, CtrlrunError, DuplicateEffect, memoryStore, NotExecuted, run, unwrap, type Store } from '../../src/runtime/index.js';
import { agentWith, assistantMessage, refundCall, refundTool, scripted, sdkBefore, setup, toolOutputSeen } from './helpers.js';

const SMALL = { payment_id: 'pay_1', amount: 500 };

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (e: unknown) => e,
  );
}

/** A store whose every method fails, as an unreachable database would. */
function brokenStore(): Store {
  const base = memoryStore();
  return new Proxy(base, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (typeof value !== 'function') return value;
      return async () => {
        throw new Error('ECONNREFUSED 127.0.0.1:5432');
      };
    },
  });
}

describe('fail closed', () => {
  it('identity throwing: nothing runs, run() rejects with a clear CtrlrunError', async () => {
    const s = setup({
      identity: () => {
        throw new Error('session expired');
      },
    });
    const { tool: t, calls } = refundTool(s);
    const error = await caught(run(agentWith(scripted([refundCall(SMALL, 'c1')]), [t]), 'refund', { context: { user: 'alice' } }));
    expect(error).toBeInstanceOf(CtrlrunError);
    expect((error as Error).message).toContain('identity(runContext) threw (session expired)');
    expect(calls).toEqual([]);
  });

  it('identity answering null: the call is refused with reason no_principal, the run goes on, a receipt says so', async () => {
    const s = setup();
    const { tool: t, calls } = refundTool(s);
    const model = scripted([refundCall(SMALL, 'c1')], [assistantMessage('cannot')]);
    const result = await run(agentWith(model, [t]), 'refund', { context: { user: null } });
    expect(result.finalOutput).toBe('cannot');
    expect(calls).toEqual([]);
    expect(toolOutputSeen(model, 1, 'c1')).toContain('no principal');
    const receipts = await s.store.listReceipts();
    expect(receipts.map((r) => [r.result, r.reason, r.principal])).toEqual([['refused', 'no_principal', null]]);
  });

  it('identity null on an approve-band call: refused at once, no pause', async () => {
    const s = setup();
    const { tool: t, calls } = refundTool(s);
    const model = scripted([refundCall({ payment_id: 'pay_1', amount: 500_000 }, 'c1')], [assistantMessage('cannot')]);
    const result = await run(agentWith(model, [t]), 'refund', { context: {} });
    expect(result.interruptions).toEqual([]);
    expect(calls).toEqual([]);
    expect(toolOutputSeen(model, 1, 'c1')).toContain('no principal');
  });

  it('identity is asked once for an allowed call: the guardrail hands its principal to the body check of that call', async () => {
    let asked = 0;
    const s = setup({
      identity: (rc) => {
        asked++;
        return rc.context?.user ?? null;
      },
    });
    const { tool: t, calls } = refundTool(s);
    await run(agentWith(scripted([refundCall(SMALL, 'c1')], [assistantMessage('done')]), [t]), 'refund', { context: { user: 'alice' } });
    expect(calls).toEqual([SMALL]);
    expect(asked).toBe(1);
    expect((await s.store.listReceipts()).map((r) => [r.result, r.principal])).toEqual([
      ['allowed', 'alice'],
      ['executed', 'alice'],
    ]);
  });

  it('the body check asks identity itself when the guardrail did not pass this call in this context: no principal, nothing runs', async () => {
    const s = setup();
    const { tool: t, calls } = refundTool(s);
    const raw = JSON.stringify(SMALL);
    const toolCall = { type: 'function_call' as const, callId: 'c1', name: 'refund', arguments: raw };
    const guardrail = t.inputGuardrails?.[0];
    expect(guardrail?.name).toBe('ctrlrun.policy');
    const agent = agentWith(scripted(), [t]);
    expect(await guardrail!.run({ context: new RunContext({ user: 'alice' }), agent, toolCall } as never)).toEqual({ behavior: { type: 'allow' } });
    const error = await caught(t.invoke(new RunContext({ user: null }) as never, raw, { toolCall } as never));
    expect(error).toBeInstanceOf(ActionDenied);
    expect((error as ActionDenied).reason).toBe('no_principal');
    expect(calls).toEqual([]);
  });

  it('a later check of the same call that refuses it withdraws the earlier hand-off: the body asks identity again, nothing runs', async () => {
    const s = setup();
    const { tool: t, calls } = refundTool(s);
    const raw = JSON.stringify(SMALL);
    const toolCall = { type: 'function_call' as const, callId: 'c1', name: 'refund', arguments: raw };
    const guardrail = t.inputGuardrails?.[0];
    const agent = agentWith(scripted(), [t]);
    const context = new RunContext<{ user: string | null }>({ user: 'alice' });
    expect(await guardrail!.run({ context, agent, toolCall } as never)).toEqual({ behavior: { type: 'allow' } });
    context.context.user = null; // the session ended before the SDK got to the body
    expect(await guardrail!.run({ context, agent, toolCall } as never)).toMatchObject({ behavior: { type: 'rejectContent' } });
    const error = await caught(t.invoke(context as never, raw, { toolCall } as never));
    expect(error).toBeInstanceOf(ActionDenied);
    expect((error as ActionDenied).reason).toBe('no_principal');
    expect(calls).toEqual([]);
  });

  it('the store unreachable: nothing runs, run() rejects with a CtrlrunError naming the store failure', async () => {
    const s = setup({ store: brokenStore() });
    const { tool: t, calls } = refundTool(s);
    const error = await caught(run(agentWith(scripted([refundCall(SMALL, 'c1')]), [t]), 'refund', { context: { user: 'alice' } }));
    expect(error).toBeInstanceOf(CtrlrunError);
    expect((error as Error).message).toContain('ECONNREFUSED');
    expect((error as Error).message).toContain('did not run');
    expect(calls).toEqual([]);
  });

  it('the store unreachable on a deny: the run stops with a CtrlrunError (the refusal could not be recorded)', async () => {
    const s = setup({ store: brokenStore() });
    const { tool: t, calls } = refundTool(s);
    const error = await caught(
      run(agentWith(scripted([refundCall({ payment_id: 'p', amount: 9_999_999 }, 'c1')]), [t]), 'refund', { context: { user: 'alice' } }),
    );
    expect(error).toBeInstanceOf(CtrlrunError);
    expect(calls).toEqual([]);
  });

  it('no policy bound to the control: request() refuses', async () => {
    const { createControl } = await import('../../src/runtime/index.js');
    const control = createControl({ store: memoryStore(), identity: () => 'alice' });
    const s = setup();
    const { tool: t } = refundTool(s);
    const result = await run(agentWith(scripted([refundCall({ payment_id: 'pay_1', amount: 500_000 }, 'c1')]), [t]), 'x', { context: { user: 'alice' } });
    await expect(control.request(result.state)).rejects.toThrow(/no policy is bound/);
  });
});

describe('arguments that do not fit never reach the body', () => {
  // Malformed JSON is handled by the SDK before any hook of this library on older SDKs of the
  // peer range: 0.3 throws its own ToolCallError out of the run (as for any tool), 0.4-0.13 answer
  // the model "An error occurred while parsing tool arguments..." themselves; 0.14 on pause it.
  it('malformed JSON: the SDK pauses the call (a predicate approval cannot read it); request() refuses it; nothing runs', async () => {
    const s = setup();
    const { tool: t, calls } = refundTool(s);
    const model = scripted([refundCall('{"payment_id": "pay_1", amount: 5', 'c1')], [assistantMessage('sorry')]);
    const agent = agentWith(model, [t]);
    if (sdkBefore('0.4')) {
      const error = await caught(run(agent, 'refund', { context: { user: 'alice' } }));
      expect(error).toBeInstanceOf(ToolCallError);
      expect(String((error as ToolCallError).error)).toMatch(/JSON/);
    } else if (sdkBefore('0.14')) {
      const result = await run(agent, 'refund', { context: { user: 'alice' } });
      expect(result.interruptions).toEqual([]);
      expect(result.finalOutput).toBe('sorry');
      expect(toolOutputSeen(model, 1, 'c1')).toMatch(/error occurred while parsing tool arguments/);
    }
    if (sdkBefore('0.14')) {
      expect(calls).toEqual([]);
      expect(await s.store.listRequests()).toEqual([]);
      expect(await s.store.listReceipts()).toEqual([]); // the policy never saw the call
      return;
    }
    const paused = await run(agent, 'refund', { context: { user: 'alice' } });
    expect(paused.interruptions).toHaveLength(1);
    expect(await s.control.request(paused.state)).toEqual([]);
    expect(await s.store.listRequests()).toEqual([]);
    const resumed = await run(agent, paused.state);
    expect(resumed.finalOutput).toBe('sorry');
    expect(calls).toEqual([]);
    // the SDK replaces a rejection message of a malformed call with its own fixed text
    expect(toolOutputSeen(model, 1, 'c1')).toBe('Tool execution was not approved.');
    expect((await s.store.listReceipts()).map((r) => r.reason)).toEqual(['malformed_arguments']);
  });

  it('malformed JSON approved in the SDK state anyway: the body still never runs', async () => {
    const s = setup();
    const { tool: t, calls } = refundTool(s);
    const model = scripted([refundCall('{not json', 'c1')], [assistantMessage('sorry')]);
    const agent = agentWith(model, [t]);
    const paused = await run(agent, 'refund', { context: { user: 'alice' } }).catch((e: unknown) => {
      if (sdkBefore('0.4') && e instanceof ToolCallError) return null; // 0.3: the SDK's own parse error ends the run
      throw e;
    });
    if (sdkBefore('0.14')) {
      expect(paused?.interruptions ?? []).toEqual([]); // nothing to approve: the SDK answered the call itself
    } else {
      paused!.state.approve(paused!.interruptions[0]!);
      await run(agent, paused!.state);
    }
    expect(calls).toEqual([]);
  });

  it.each([
    ['a float amount', { payment_id: 'pay_1', amount: 5.5 }],
    ['a string amount', { payment_id: 'pay_1', amount: '500' }],
    ['a missing field', { amount: 500 }],
  ])('schema-invalid (%s): the body never runs; the model is told nothing ran', async (_label, args) => {
    const s = setup();
    const { tool: t, calls } = refundTool(s);
    const model = scripted([refundCall(args, 'c1')], [assistantMessage('fixed')]);
    const result = await run(agentWith(model, [t]), 'refund', { context: { user: 'alice' } });
    expect(result.finalOutput).toBe('fixed');
    expect(calls).toEqual([]);
    const seen = toolOutputSeen(model, 1, 'c1') ?? '';
    expect(seen).toContain('did not run');
    expect(await s.store.listEffects()).toEqual([]);
  });
});

describe('errors reach the caller as themselves', () => {
  it('an ordinary body error with no errorFunction (no effect key) propagates; never "please try again"', async () => {
    const s = setup();
    const boom = new Error('lookup failed');
    const t = s.protectedTool('stripe.charge.read', {
      name: 'Lookup Charge',
      description: 'read a charge',
      parameters: z.object({ id: z.string() }),
      execute: async () => {
        throw boom;
      },
    });
    const model = scripted([{ ...refundCall({ id: 'ch_1' }, 'c1'), name: 'Lookup_Charge' }]);
    const error = await caught(run(agentWith(model, [t]), 'look', { context: { user: 'alice' } }));
    expect(error).toBeInstanceOf(ToolCallError);
    expect((error as ToolCallError).error).toBe(boom);
    expect((await s.store.listReceipts()).map((r) => r.result)).toEqual(['allowed', 'failed']);
  });

  it("the user's errorFunction still handles the user's own errors; this library's errors bypass it", async () => {
    const s = setup();
    const seen: unknown[] = [];
    const { tool: t } = refundTool(
      s,
      (args) => {
        if (args.payment_id === 'pay_bad') throw new Error('bad card');
        return 'refunded';
      },
      {
        errorFunction: (_ctx: unknown, error: unknown) => {
          seen.push(error);
          return 'handled by user';
        },
      },
    );
    const model = scripted(
      [refundCall({ payment_id: 'pay_bad', amount: 5 }, 'c1')],
      [refundCall(SMALL, 'c2')],
      [assistantMessage('done')],
      [refundCall(SMALL, 'c3')],
    );
    const agent = agentWith(model, [t]);
    await run(agent, 'one', { context: { user: 'alice' } });
    expect(toolOutputSeen(model, 1, 'c1')).toBe('handled by user');
    const error = await caught(run(agent, 'two', { context: { user: 'alice' } }));
    expect(error).toBeInstanceOf(DuplicateEffect);
    expect(seen).toHaveLength(1);
  });

  it('errorFunction: null is kept: everything propagates (an effect body failure as AmbiguousEffect, cause attached)', async () => {
    const s = setup();
    const boom = new Error('x');
    const { tool: t } = refundTool(
      s,
      () => {
        throw boom;
      },
      { errorFunction: null },
    );
    const error = await caught(run(agentWith(scripted([refundCall(SMALL, 'c1')]), [t]), 'x', { context: { user: 'alice' } }));
    expect(error).toBeInstanceOf(AmbiguousEffect);
    expect((error as AmbiguousEffect).cause).toBe(boom);

    const read = s.protectedTool('stripe.charge.read', {
      name: 'Lookup Charge',
      description: 'read',
      parameters: z.object({ id: z.string() }),
      errorFunction: null,
      execute: async () => {
        throw boom;
      },
    });
    const plainError = await caught(
      run(agentWith(scripted([{ ...refundCall({ id: 'ch_1' }, 'c2'), name: 'Lookup_Charge' }]), [read]), 'x', { context: { user: 'alice' } }),
    );
    expect(unwrap(plainError)).toBe(plainError); // not ours: unwrap leaves it alone
    expect((plainError as ToolCallError).error).toBe(boom);
  });

  it("unwrap reports NotExecuted only when this library established it: never from the cause chain of a body's own error", async () => {
    const s = setup();
    const hidden = new NotExecuted('inner: the remote said nothing happened');
    const wrapped = new Error('the body failed after acting', { cause: hidden });
    const read = s.protectedTool('stripe.charge.read', {
      name: 'Lookup Charge',
      description: 'read',
      parameters: z.object({ id: z.string() }),
      errorFunction: null,
      execute: async () => {
        throw wrapped;
      },
    });
    const error = await caught(
      run(agentWith(scripted([{ ...refundCall({ id: 'ch_1' }, 'c1'), name: 'Lookup_Charge' }]), [read]), 'x', { context: { user: 'alice' } }),
    );
    expect(error).not.toBeInstanceOf(NotExecuted); // it may have acted: not "did not run, safe to retry"
    expect(error).toBeInstanceOf(ToolCallError);
    expect(unwrap(error)).toBe(error);
    expect((error as ToolCallError).error).toBe(wrapped);
    // A NotExecuted nobody established (built by hand, under a ToolCallError) is not reported either.
    expect(unwrap(new ToolCallError('Failed', new NotExecuted('made up') as never))).toBeInstanceOf(ToolCallError);

    // The body itself throwing NotExecuted through protectedTool: the key is settled failed, and run() reports it.
    const t = refundTool(
      s,
      () => {
        throw new NotExecuted('declined before sending');
      },
      { errorFunction: null },
    );
    const direct = await caught(run(agentWith(scripted([refundCall(SMALL, 'c2')]), [t.tool]), 'x', { context: { user: 'alice' } }));
    expect(direct).toBeInstanceOf(NotExecuted);
    expect((await s.store.getEffect('refund:pay_1'))?.state).toBe('failed');
  });

  it('unwrap: finds our error under ToolCallError, leaves others alone, survives cycles, never chains the wrapper onto it', () => {
    const ours = new ActionDenied('rule[2]', 'denied');
    const wrapper = new ToolCallError('Failed to run function tools', ours);
    expect(unwrap(wrapper)).toBe(ours);
    expect(ours.cause).toBeUndefined();
    const a: { error?: unknown } = {};
    const b = { error: a };
    a.error = b;
    expect(unwrap(a)).toBe(a);
    const plain = new Error('plain');
    expect(unwrap(plain)).toBe(plain);
    expect(unwrap('text')).toBe('text');
  });
});

describe('protectedTool options', () => {
  it('needsApproval is refused at run time with a clear error (and is a type error)', () => {
    const s = setup();
    expect(() =>
      s.protectedTool('stripe.refund', {
        name: 'refund',
        description: 'x',
        parameters: z.object({ amount: z.number().int() }),
        // @ts-expect-error needsApproval is not an option: the policy decides
        needsApproval: true,
        execute: async () => 'ok',
      }),
    ).toThrow(/remove `needsApproval`/);
  });

  it('an unknown action is a type error; execute receives the typed arguments; the result is a FunctionTool like tool()', () => {
    const s = setup();
    const t = s.protectedTool('stripe.refund', {
      name: 'refund',
      description: 'x',
      parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
      execute: async (args) => {
        expectTypeOf(args).toEqualTypeOf<{ payment_id: string; amount: number }>();
        return 'ok';
      },
    });
    const plain = tool({
      name: 'refund',
      description: 'x',
      parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
      execute: async () => 'ok',
    });
    expectTypeOf(t).toEqualTypeOf(plain);
    expect(t.type).toBe('function');
    expect(t.name).toBe('refund');
    expect(t.parameters).toEqual(plain.parameters);
    // @ts-expect-error not an action of the policy
    expect(() => s.protectedTool('stripe.wire', { name: 'w', description: 'x', parameters: z.object({}), execute: async () => 'ok' })).not.toThrow();
  });

  it('non-strict JSON-schema parameters are accepted as by tool()', () => {
    const s = setup();
    const t = s.protectedTool('stripe.charge.read', {
      name: 'Lookup Charge',
      description: 'x',
      strict: false,
      parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: true },
      execute: async (args) => {
        expectTypeOf(args).toEqualTypeOf<unknown>();
        return 'ok';
      },
    });
    expect(t.name).toBe('Lookup_Charge');
    expect(t.strict).toBe(false);
  });
});
