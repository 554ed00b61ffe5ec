// The core refuses, and runs nothing, on every branch where what it was given cannot be trusted: a
// store that lies or answers a malformed row, a decision function that throws, an identity that
// throws or returns junk, a receipt that cannot be written. Driven through a fake door (the calls
// the function-tool door makes: guardrail, then execute) over a fake store (the memory store with
// one method replaced), and through the real Runner where the SDK's path matters.
import type { RunContext } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createActionCore } from '../../src/runtime/core/action-core.js';
import { bindPolicy } from '../../src/runtime/core/bind-policy.js';
import {
  ActionDenied,
  ApprovalMismatch,
  bindProtectedTool,
  createControl,
  CtrlrunError,
  memoryStore,
  run,
  type ApprovalRequest,
  type CompiledAction,
  type CompiledPolicy,
  type Store,
} from '../../src/runtime/index.js';
import { canonicalHash } from '../../src/runtime/canonical.js';
import { agentWith, assistantMessage, functionCall, manualClock, scripted } from './helpers.js';

const ask: CompiledAction = {
  id: 'pay.ask',
  decide: () => ({ decision: 'approve', rule: 0, reason: 'rule[0]' }),
  controls: [],
  approvalsRequired: 1,
  maxAttempts: 3,
};
const effect = (args: unknown) => ({ ok: true as const, value: `pay:${(args as { id: string }).id}` });
const policy: CompiledPolicy = {
  hash: 'p'.repeat(64),
  mode: 'enforce',
  environment: 'test',
  actions: {
    'pay.ask': ask,
    'pay.ask.effect': { ...ask, id: 'pay.ask.effect', effect },
    'pay.allow': { ...ask, id: 'pay.allow', decide: () => ({ decision: 'allow', rule: 0, reason: 'rule[0]' }) },
    'pay.allow.effect': { ...ask, id: 'pay.allow.effect', decide: () => ({ decision: 'allow', rule: 0, reason: 'rule[0]' }), effect },
    'pay.throws': {
      ...ask,
      id: 'pay.throws',
      decide: () => {
        throw new Error('compiled function bug');
      },
    },
  },
  tools: {},
};

const ARGS = { id: 'p1', amount: 5 };

/** A control over `store` (the memory store unless a test replaces one of its methods). */
function controlOver(store: Store, identity: (rc: RunContext<unknown>) => unknown = (rc) => (rc.context as { user?: string }).user ?? null) {
  const clock = manualClock();
  const control = createControl({ store, identity: identity as never, clock: clock.now, receiptKey: null });
  return { control, internals: bindPolicy(control, policy, 'test'), clock };
}

/** The fake door: the function-tool door's two calls (guardrail, then execute) for one call. */
async function callThrough(internals: ReturnType<typeof bindPolicy>, action: string, body: () => unknown, callId = 'c1') {
  const core = createActionCore(internals, policy, action, {});
  const context = { context: { user: 'alice' } } as unknown as RunContext<unknown>;
  const toolCall = { callId, arguments: JSON.stringify(ARGS) };
  const gate = await core.checkCall({ context, toolCall });
  if (gate.behavior.type !== 'allow') return { refused: gate.behavior.message };
  return { output: await core.execute(ARGS, context, { toolCall }, body) };
}

/** An approved request for call c1 by alice, answered by bob, in `store`. */
async function approvedRequest(store: Store, action: string, at: number): Promise<ApprovalRequest> {
  await store.putRequest({
    callId: 'c1',
    action,
    toolName: action,
    argsHash: canonicalHash(ARGS),
    args: JSON.stringify(ARGS),
    policyHash: policy.hash,
    principal: 'alice',
    approvalsRequired: 1,
    createdAt: at,
  });
  const answered = await store.addAnswer('c1', { approver: 'bob', decision: 'approve', at });
  if (answered.outcome !== 'recorded' || answered.request.state !== 'approved') throw new Error('setup: not approved');
  return answered.request;
}

function counter() {
  const ran = { n: 0 };
  return {
    ran,
    body: () => {
      ran.n++;
      return 'done';
    },
  };
}

describe('a store that lies about an approval', () => {
  for (const [name, lie, reason] of [
    ["answers another call's approval", (r: ApprovalRequest) => ({ ...r, callId: 'c2' }), 'approval_mismatch'],
    [
      'answers an approval given by the requester',
      (r: ApprovalRequest) => ({ ...r, answers: [{ approver: 'Alice', decision: 'approve' as const, at: r.decidedAt! }] }),
      'approval_approver_is_requester',
    ],
    ['answers an approval for other arguments', (r: ApprovalRequest) => ({ ...r, argsHash: 'x'.repeat(64) }), 'approval_mismatch'],
    ['answers an approval that was never decided', (r: ApprovalRequest) => ({ ...r, decidedAt: undefined }), 'approval_expired'],
  ] as const) {
    it(`claimApproval ${name}: ApprovalMismatch, a refusal receipt, nothing runs`, async () => {
      const real = memoryStore();
      const store: Store = {
        ...real,
        claimApproval: async (callId, now, binding) => {
          const claimed = await real.claimApproval(callId, now, binding);
          return claimed.outcome === 'claimed' ? { outcome: 'claimed', request: lie(claimed.request) } : claimed;
        },
      };
      const { internals, clock } = controlOver(store);
      await approvedRequest(store, 'pay.ask', clock.now());
      const { ran, body } = counter();
      await expect(callThrough(internals, 'pay.ask', body)).rejects.toBeInstanceOf(ApprovalMismatch);
      expect(ran.n).toBe(0);
      expect((await store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([['refused', reason]]);
    });
  }

  it("the reservation uses up an approval and answers with another call's: refused, the key released, nothing runs", async () => {
    const real = memoryStore();
    const store: Store = {
      ...real,
      reserveEffect: async (input) => {
        const reserved = await real.reserveEffect(input);
        return reserved.outcome === 'reserved' && reserved.claimed ? { ...reserved, claimed: { ...reserved.claimed, callId: 'c2' } } : reserved;
      },
    };
    const { internals, clock } = controlOver(store);
    await approvedRequest(store, 'pay.ask.effect', clock.now());
    const { ran, body } = counter();
    await expect(callThrough(internals, 'pay.ask.effect', body)).rejects.toBeInstanceOf(ApprovalMismatch);
    expect(ran.n).toBe(0);
    expect((await store.getEffect('pay:p1'))?.state).toBe('failed');
    expect((await store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([['refused', 'approval_mismatch']]);
  });

  it('the reservation reports success but not the approval it used up: refused, released, nothing runs', async () => {
    const real = memoryStore();
    const store: Store = {
      ...real,
      reserveEffect: async (input) => {
        const reserved = await real.reserveEffect(input);
        return reserved.outcome === 'reserved' ? { outcome: 'reserved', effect: reserved.effect } : reserved;
      },
    };
    const { internals, clock } = controlOver(store);
    await approvedRequest(store, 'pay.ask.effect', clock.now());
    const { ran, body } = counter();
    await expect(callThrough(internals, 'pay.ask.effect', body)).rejects.toBeInstanceOf(ApprovalMismatch);
    expect(ran.n).toBe(0);
    expect((await store.getEffect('pay:p1'))?.state).toBe('failed');
  });

  it('a malformed row (answers not a list): the control fails, nothing runs', async () => {
    const real = memoryStore();
    const store: Store = {
      ...real,
      getRequest: async (id) => {
        const r = await real.getRequest(id);
        return r && ({ ...r, answers: null } as unknown as ApprovalRequest);
      },
    };
    const { internals, clock } = controlOver(store);
    await approvedRequest(store, 'pay.ask.effect', clock.now());
    const { ran, body } = counter();
    await expect(callThrough(internals, 'pay.ask.effect', body)).rejects.toThrow(/control failed before the body/);
    expect(ran.n).toBe(0);
    expect(await store.getEffect('pay:p1')).toBeNull();
  });

  it('an unknown reservation outcome: refused, released, nothing runs', async () => {
    const real = memoryStore();
    const settled: string[] = [];
    const store: Store = {
      ...real,
      reserveEffect: async (input) => ({ ...(await real.reserveEffect(input)), outcome: 'maybe' }) as never,
      settleEffect: async (key, attemptId, state, now) => {
        settled.push(`${key}:${state}`);
        return real.settleEffect(key, attemptId, state, now);
      },
    };
    const { internals } = controlOver(store);
    const { ran, body } = counter();
    await expect(callThrough(internals, 'pay.allow.effect', body)).rejects.toThrow(/unknown outcome/);
    expect(ran.n).toBe(0);
    expect(settled).toEqual(['pay:p1:failed']);
  });
});

describe('a receipt that cannot be written', () => {
  it('the decision receipt fails: nothing runs, and the reservation is released', async () => {
    const real = memoryStore();
    const store: Store = {
      ...real,
      appendReceipt: async () => {
        throw new Error('disk full');
      },
    };
    const { internals } = controlOver(store);
    const { ran, body } = counter();
    await expect(callThrough(internals, 'pay.allow.effect', body)).rejects.toThrow(/disk full/);
    expect(ran.n).toBe(0);
    expect((await store.getEffect('pay:p1'))?.state).toBe('failed');
  });

  it('without an effect key too: nothing runs', async () => {
    const real = memoryStore();
    const store: Store = {
      ...real,
      appendReceipt: async () => {
        throw new Error('disk full');
      },
    };
    const { ran, body } = counter();
    await expect(callThrough(controlOver(store).internals, 'pay.allow', body)).rejects.toThrow(/disk full/);
    expect(ran.n).toBe(0);
  });

  it('the outcome receipt fails after the body ran: the caller is told the outcome was not recorded', async () => {
    const real = memoryStore();
    let writes = 0;
    const store: Store = {
      ...real,
      appendReceipt: async (b) => {
        if (++writes > 1) throw new Error('disk full');
        return real.appendReceipt(b);
      },
    };
    const { ran, body } = counter();
    await expect(callThrough(controlOver(store).internals, 'pay.allow', body)).rejects.toThrow(/ran, but recording its outcome failed \(disk full\)/);
    expect(ran.n).toBe(1);
  });
});

describe('an identity that cannot be trusted', () => {
  for (const [name, identity, expected] of [
    [
      'throws',
      () => {
        throw new Error('session store down');
      },
      /identity\(runContext\) threw \(session store down\)/,
    ],
    ['returns a number', () => 42, /must return a string/],
    ['returns { agent } of another type', () => ({ agent: 7 }), /must return a string/],
    ['returns a principal with a control character', () => 'alice\nbob', /unusable principal/],
    ['rejects (a promise)', () => Promise.reject(new Error('session store down')), /identity\(runContext\) threw \(session store down\)/],
    ['resolves to a number (a promise)', async () => 42, /must return a string/],
  ] as const) {
    it(`identity ${name}: a CtrlrunError, no receipt of an allow, nothing runs`, async () => {
      const store = memoryStore();
      const { ran, body } = counter();
      const failed = callThrough(controlOver(store, identity as never).internals, 'pay.allow', body);
      await expect(failed).rejects.toBeInstanceOf(CtrlrunError);
      await expect(failed).rejects.toThrow(expected);
      expect(ran.n).toBe(0);
      expect((await store.listReceipts()).filter((r) => r.result === 'allowed')).toEqual([]);
    });
  }

  it('identity null: refused no_principal, with its receipt', async () => {
    const store = memoryStore();
    const { ran, body } = counter();
    const out = await callThrough(controlOver(store, () => null).internals, 'pay.allow', body);
    expect(out).toMatchObject({ refused: expect.stringContaining('no principal') });
    expect(ran.n).toBe(0);
    expect((await store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([['refused', 'no_principal']]);
  });

  // identity answered synchronously is resolved without a turn (internals.ts whoNow); an answer by
  // promise (or any thenable, as `await` takes it) must be waited for and checked the same way
  for (const [name, identity] of [
    ['a promise', async () => 'alice'],
    // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose (await takes it as a promise)
    ['a thenable that is not a Promise', () => ({ then: (resolve: (v: string) => void) => resolve('alice') })],
  ] as const) {
    it(`identity answering by ${name}: the call runs once, its receipts name the principal`, async () => {
      const store = memoryStore();
      const { ran, body } = counter();
      expect(await callThrough(controlOver(store, identity as never).internals, 'pay.allow', body)).toMatchObject({ output: expect.anything() });
      expect(ran.n).toBe(1);
      expect((await store.listReceipts()).map((r) => [r.result, r.principal])).toEqual([
        ['allowed', 'alice'],
        ['executed', 'alice'],
      ]);
    });
  }

  it('identity resolving to null (a promise): refused no_principal, with its receipt', async () => {
    const store = memoryStore();
    const { ran, body } = counter();
    const out = await callThrough(controlOver(store, async () => null).internals, 'pay.allow', body);
    expect(out).toMatchObject({ refused: expect.stringContaining('no principal') });
    expect(ran.n).toBe(0);
    expect((await store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([['refused', 'no_principal']]);
  });

  it('the wrapper alone (no guardrail ran) refuses a null principal too', async () => {
    const store = memoryStore();
    const core = createActionCore(controlOver(store, () => null).internals, policy, 'pay.allow', {});
    const context = { context: {} } as unknown as RunContext<unknown>;
    const { ran, body } = counter();
    await expect(core.execute(ARGS, context, { toolCall: { callId: 'c1', arguments: JSON.stringify(ARGS) } }, body)).rejects.toBeInstanceOf(ActionDenied);
    expect(ran.n).toBe(0);
  });
});

describe('through the real Runner', () => {
  it('a compiled decision function that throws denies the call: the body never runs, the receipt says denied', async () => {
    const store = memoryStore();
    const control = createControl({ store, identity: (rc) => (rc.context as { user: string }).user, receiptKey: null });
    let ran = 0;
    const t = bindProtectedTool(control, policy)('pay.throws', {
      name: 'pay',
      description: 'pay',
      parameters: z.object({ id: z.string(), amount: z.number().int() }),
      execute: async () => {
        ran++;
        return 'paid';
      },
    });
    const model = scripted([functionCall('pay', ARGS, { callId: 'c1' })], [assistantMessage('ok')]);
    const result = await run(agentWith(model, [t]), 'pay', { context: { user: 'alice' } });
    expect(result.interruptions).toEqual([]);
    expect(ran).toBe(0);
    expect((await store.listReceipts()).map((r) => [r.result, r.decision, r.reason])).toEqual([['denied', 'deny', 'no_matching_rule']]);
  });
});

describe("an allowed call's approvers", () => {
  for (const action of ['pay.allow', 'pay.allow.effect']) {
    it(`are its own (${action}): a door that changes the list it was handed changes no other call's receipts`, async () => {
      const store = memoryStore();
      const core = createActionCore(controlOver(store).internals, policy, action, {});
      const context = { context: { user: 'alice' } } as unknown as RunContext<unknown>;
      const authorized = async (id: string, callId: string) => {
        const args = { id, amount: 5 };
        const auth = await core.authorize(args, context, callId, { arguments: JSON.stringify(args) });
        if (auth.kind !== 'enforce') throw new Error('setup: not enforced');
        return auth;
      };
      const first = await authorized('p1', 'c1');
      expect(first.approvers).toEqual([]);
      first.approvers.push('mallory');
      await core.finish(first, { ok: true, output: 'done' });
      const second = await authorized('p2', 'c2');
      expect(second.approvers).toEqual([]);
      await core.finish(second, { ok: true, output: 'done' });
      const receipts = await store.listReceipts();
      expect(receipts.filter((r) => r.call_id === 'c2').map((r) => [r.result, r.approvers])).toEqual([
        ['allowed', []],
        ['executed', []],
      ]);
    });
  }
});
