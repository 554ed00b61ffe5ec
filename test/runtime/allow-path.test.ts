// The allow path without frames of its own. The common allowed call (no budget, no effect key, the halts already read by an earlier call of
// the control) is authorized without a frame of its own: the body's hook awaits the decision
// receipt's write itself (core/run-call.ts), and other doors get it through `core.authorize`
// (core/authorize.ts, settledAuthorization). SPEC §5's order still holds there: the receipt is
// written before the body, and a receipt that cannot be written stops the call.
import type { RunContext } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createActionCore } from '../../src/runtime/core/action-core.js';
import { bindPolicy } from '../../src/runtime/core/bind-policy.js';
import { bindProtectedTool, createControl, CtrlrunError, memoryStore, run, type Store } from '../../src/runtime/index.js';
import { ALLOW_PAY_POLICY, agentWith, assistantMessage, functionCall, scripted } from './helpers.js';

const policy = ALLOW_PAY_POLICY;
const ARGS = { id: 'p1' };
const alice = { context: { user: 'alice' } } as unknown as RunContext<unknown>;

/** A memory store whose `allowed` receipts can be made to fail, or to land late, with what happened in order. */
function watchedStore() {
  const real = memoryStore();
  const seen: string[] = [];
  const mode = { fail: false, late: false };
  const store: Store = {
    ...real,
    appendReceipt: async (body, options) => {
      if (body.result === 'allowed' && mode.fail) throw new Error('disk full');
      if (body.result === 'allowed' && mode.late) await new Promise((resolve) => setTimeout(resolve, 10));
      const receipt = await real.appendReceipt(body, options);
      seen.push(`receipt ${body.result}`);
      return receipt;
    },
  };
  return { store, seen, mode };
}

const control = (store: Store) => createControl({ store, identity: (rc) => (rc.context as { user: string }).user, receiptKey: null });

describe('the common allowed call through the body hook', () => {
  const payTool = (store: Store, seen: string[]) =>
    bindProtectedTool(control(store), policy)('pay.allow', {
      name: 'pay',
      description: 'pay',
      parameters: z.object({ id: z.string() }),
      execute: async ({ id }: { id: string }) => {
        seen.push(`body ${id}`);
        return 'paid';
      },
    });
  const call = (id: string, callId: string) => scripted([functionCall('pay', { id }, { callId })], [assistantMessage('done')]);

  it('its decision receipt is written before the body runs, even when the write is slow', async () => {
    const { store, seen, mode } = watchedStore();
    const tool = payTool(store, seen);
    await run(agentWith(call('p1', 'c1'), [tool]), 'pay', { context: { user: 'alice' } }); // the halts read once
    mode.late = true;
    await run(agentWith(call('p2', 'c2'), [tool]), 'pay', { context: { user: 'alice' } });
    expect(seen).toEqual(['receipt allowed', 'body p1', 'receipt executed', 'receipt allowed', 'body p2', 'receipt executed']);
  });

  it('a decision receipt that cannot be written stops the call: the body does not run', async () => {
    const { store, seen, mode } = watchedStore();
    const tool = payTool(store, seen);
    await run(agentWith(call('p1', 'c1'), [tool]), 'pay', { context: { user: 'alice' } });
    mode.fail = true;
    const error = await run(agentWith(call('p2', 'c2'), [tool]), 'pay', { context: { user: 'alice' } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CtrlrunError);
    expect(String((error as Error).message)).toMatch(/disk full/);
    expect(seen).toEqual(['receipt allowed', 'body p1', 'receipt executed']);
  });
});

describe('the common allowed call through core.authorize (the doors whose body the SDK runs)', () => {
  const authorizeTwice = async (store: Store, mode: { fail: boolean; late: boolean }, seen: string[]) => {
    const core = createActionCore(bindPolicy(control(store), policy, 'test'), policy, 'pay.allow', {});
    const toolCall = () => ({ arguments: JSON.stringify(ARGS) });
    const first = await core.authorize(ARGS, alice, 'c1', toolCall()); // the halts read once
    expect(first.kind).toBe('enforce');
    mode.late = true;
    const second = core.authorize(ARGS, alice, 'c2', toolCall()).then((auth) => {
      seen.push('authorized');
      return auth;
    });
    return second;
  };

  it('resolves only once its decision receipt is written', async () => {
    const { store, seen, mode } = watchedStore();
    const auth = await authorizeTwice(store, mode, seen);
    expect(auth.kind).toBe('enforce');
    expect(seen).toEqual(['receipt allowed', 'receipt allowed', 'authorized']);
  });

  it('rejects when its decision receipt cannot be written', async () => {
    const { store, seen, mode } = watchedStore();
    const core = createActionCore(bindPolicy(control(store), policy, 'test'), policy, 'pay.allow', {});
    await core.authorize(ARGS, alice, 'c1', { arguments: JSON.stringify(ARGS) });
    mode.fail = true;
    await expect(core.authorize(ARGS, alice, 'c2', { arguments: JSON.stringify(ARGS) })).rejects.toThrow(/disk full/);
    expect(seen).toEqual(['receipt allowed']);
  });
});

describe('the hooks before the body answer with a promise, never a throw', () => {
  // a schema that fails once the tool is made: both hooks run it as they read the arguments (the
  // clock is no longer read there: a policy without grants decides without the time)
  const brokenSchemaTool = () => {
    const parameters = z.object({ id: z.string() });
    const made = bindProtectedTool(control(memoryStore()), policy)('pay.allow', { name: 'pay', description: 'pay', parameters, execute: async () => 'paid' });
    parameters.safeParse = () => {
      throw new Error('schema broke');
    };
    return made;
  };

  it("needsApproval: the control's failure is the promise's rejection", async () => {
    let answer: unknown;
    expect(() => {
      answer = brokenSchemaTool().needsApproval(alice as never, ARGS, 'c1');
    }).not.toThrow();
    await expect(answer).rejects.toThrow(/schema broke/);
  });

  it("the guardrail: the control's failure is the promise's rejection, as a CtrlrunError", async () => {
    const guardrail = brokenSchemaTool().inputGuardrails?.[0] as unknown as { run: (data: unknown) => Promise<unknown> };
    let answer: unknown;
    expect(() => {
      answer = guardrail.run({ context: alice, toolCall: { callId: 'c1', arguments: JSON.stringify(ARGS) } });
    }).not.toThrow();
    await expect(answer).rejects.toThrow(CtrlrunError);
    await expect(answer).rejects.toThrow(/did not run: the control failed \(schema broke\)/);
  });

  it('needsApproval answers a call it does not pause with false', async () => {
    const tool = bindProtectedTool(control(memoryStore()), policy)('pay.allow', {
      name: 'pay',
      description: 'pay',
      parameters: z.object({ id: z.string() }),
      execute: async () => 'paid',
    });
    await expect(tool.needsApproval(alice as never, ARGS, 'c1')).resolves.toBe(false);
  });
});
