import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { canonicalHash } from '../../src/runtime/canonical.js';
import { sensitiveHash, verifyDecisionChain, verifyDecisions } from '../../src/runtime/decision-log.js';
import { RunState } from '@openai/agents';
import { attachAnswers } from '../../src/policy-test/answers.js';
import { readStoreCalls } from '../../src/policy-test/store-calls.js';
import { bindProtectedTool, createControl, memoryStore, run, type DecisionEntry, type Store } from '../../src/runtime/index.js';
import { agentWith, assistantMessage, makePolicy, manualClock, refTool, refundCall, refundTool, scripted, setup } from './helpers.js';

const DAY = 86_400_000;

/** A control over `store` whose refund action labels `payment_id` (`data:`), so the log keeps it as its hash. */
function labelled(store: Store, options: { decisionLog?: boolean; mode?: 'enforce' | 'observe' } = {}) {
  const clock = manualClock();
  const control = createControl({
    store,
    identity: ((rc: { context: { user?: string } }) => rc.context?.user ?? null) as never,
    clock: clock.now,
    environment: 'test',
    ...(options.decisionLog !== undefined ? { decisionLog: options.decisionLog } : {}),
  });
  const base = makePolicy(options.mode ? { mode: options.mode } : {});
  const policy = { ...base, actions: { ...base.actions, 'stripe.refund': { ...base.actions['stripe.refund']!, sensitive: ['payment_id'] } } };
  const s = { store, clock, control, policy, protectedTool: bindProtectedTool<'stripe.refund' | 'stripe.charge.read'>(control, policy) };
  return s;
}

describe('the decision log, written by the core through the Runner', () => {
  it('one entry per decided call (allow and deny), beside its receipt: the inputs as the decision saw them, a labelled argument only as its hash', async () => {
    const s = labelled(memoryStore());
    const { tool } = refundTool(s);
    const model = scripted(
      [refundCall({ payment_id: 'pay_1', amount: 500 }, 'c1'), refundCall({ payment_id: 'pay_2', amount: 5_000_000 }, 'c2')],
      [assistantMessage('done')],
    );
    await run(agentWith(model, [tool]), 'refund', { context: { user: 'alice' } });
    const receipts = await s.store.listReceipts();
    // the guardrail refuses c2 before c1's body runs: sorted by call id
    const log = (await s.store.listDecisions!()).sort((a, b) => (a.call_id! < b.call_id! ? -1 : 1));
    expect(log.map((e) => [e.call_id, e.decision, e.result, e.reason, e.rule])).toEqual([
      ['c1', 'allow', 'allowed', 'rule[0]', 0],
      ['c2', 'deny', 'denied', 'rule[2]', 2],
    ]);
    const first = log[0]!;
    expect(first).toMatchObject({
      action: 'stripe.refund',
      tool: 'refund',
      args: `{"amount":500,"payment_id":"${sensitiveHash(await s.store.decisionKey!(), 'pay_1')}"}`,
      hashed: ['payment_id'],
      args_hash: canonicalHash({ payment_id: 'pay_1', amount: 500 }),
      environment: 'test',
      effect_key: 'refund:pay_1',
      resource: 'payment:pay_1',
      policy_hash: s.policy.hash,
      mode: 'enforce',
    });
    expect(first.principal).toEqual({ agent: 'alice', user: null });
    // the value itself is nowhere in the entry's arguments (its effect key and resource, as on the receipt, are the templates')
    expect(log.map((e) => e.args).join()).not.toMatch(/pay_[12]/);
    // a keyed hash: the bare SHA-256 a dictionary of likely values would give is not there
    expect(first.args).toMatch(/"payment_id":"hmac-sha256:[0-9a-f]{64}"/);
    expect(first.args).not.toContain(canonicalHash('pay_1'));
    // bound to the receipt written with it (the decision receipt, not the outcome)
    const bound = receipts.find((r) => r.seq === first.receipt_seq)!;
    expect([bound.hash, bound.result, bound.call_id]).toEqual([first.receipt_hash, 'allowed', 'c1']);
    expect(await verifyDecisions(s.store)).toEqual({ ok: true, count: 2 });
  });

  it('without labels the arguments are kept as canonical JSON that hashes to the receipt; an observed call is logged after its body', async () => {
    const s = setup({ mode: 'observe' });
    const { tool, calls } = refundTool(s);
    const model = scripted([refundCall({ payment_id: 'pay_9', amount: 5_000_000 }, 'c9')], [assistantMessage('done')]);
    await run(agentWith(model, [tool]), 'refund', { context: { user: 'bob' } });
    expect(calls).toHaveLength(1);
    const [entry] = await s.store.listDecisions!();
    expect(entry).toMatchObject({ call_id: 'c9', decision: 'deny', mode: 'observe', args: '{"amount":5000000,"payment_id":"pay_9"}', hashed: [] });
    expect(await verifyDecisions(s.store)).toEqual({ ok: true, count: 1 });
  });

  it('a paused call is logged when it pauses (pending calls replay), and its resume adds no second entry', async () => {
    const s = labelled(memoryStore());
    const { tool, calls } = refundTool(s);
    const model = scripted([refundCall({ payment_id: 'pay_3', amount: 500_000 }, 'c3')], [assistantMessage('done')]);
    const agent = agentWith(model, [tool]);
    const paused = await run(agent, 'refund', { context: { user: 'alice' } });
    expect(paused.interruptions).toHaveLength(1);
    // pending: the entry is there already, bound to the `requested` receipt, and replay reads it
    const pending = await s.store.listDecisions!();
    expect(pending.map((e) => [e.call_id, e.decision, e.result, e.reason, e.rule, e.effect_key])).toEqual([
      ['c3', 'approve', 'requested', 'rule[1]', 1, 'refund:pay_3'],
    ]);
    expect(pending[0]!.principal).toEqual({ agent: 'alice', user: null });
    expect(pending[0]!.args).not.toContain('pay_3');
    expect(await verifyDecisions(s.store)).toEqual({ ok: true, count: 1 });
    expect((await readStoreCalls(s.store))!.map((c) => [c.callId, c.recorded?.decision])).toEqual([['c3', 'approve']]);
    await s.control.request(paused.state);
    await s.control.approve(paused.state, paused.interruptions[0]!, { approver: 'bob' });
    await run(agent, await RunState.fromString(agent, paused.state.toString()));
    expect(calls).toHaveLength(1);
    expect((await s.store.listReceipts()).map((r) => r.result)).toEqual(['requested', 'approved', 'claimed', 'executed']);
    // one entry a call: the claim's receipt writes none
    expect((await s.store.listDecisions!()).map((e) => [e.seq, e.call_id, e.result])).toEqual([[1, 'c3', 'requested']]);
    expect(await verifyDecisions(s.store)).toEqual({ ok: true, count: 1 });
  });

  it('a pause the core cannot bind (an integer beyond 2^53) is logged by control.request, once', async () => {
    const s = labelled(memoryStore());
    const { tool, calls } = refTool(s);
    const text = '{"payment_id":"pay_4","amount":500000,"ref":9007199254740993}';
    const agent = agentWith(scripted([refundCall(text, 'c4')], [assistantMessage('done')]), [tool]);
    const paused = await run(agent, 'refund', { context: { user: 'alice' } });
    expect(await s.store.listDecisions!()).toEqual([]); // not filed at the pause: control.request files it
    await s.control.request(paused.state);
    await s.control.request(paused.state); // idempotent: no second receipt, no second entry
    expect((await s.store.listDecisions!()).map((e) => [e.call_id, e.result, e.principal?.agent])).toEqual([['c4', 'requested', 'alice']]);
    await s.control.approve(paused.state, paused.interruptions[0]!, { approver: 'bob' });
    await run(agent, await RunState.fromString(agent, paused.state.toString()));
    expect(calls).toHaveLength(1);
    expect((await s.store.listDecisions!()).map((e) => [e.call_id, e.result])).toEqual([['c4', 'requested']]);
    expect(await verifyDecisions(s.store)).toEqual({ ok: true, count: 1 });
  });

  it('an optional field left out: logged once, at the pause that filed it as strict mode writes it; the claim in that form writes none', async () => {
    const s = labelled(memoryStore());
    const calls: unknown[] = [];
    const tool = s.protectedTool('stripe.refund', {
      name: 'refund',
      description: 'Refund a payment',
      parameters: z.object({ payment_id: z.string(), amount: z.number().int(), note: z.string().optional() }),
      execute: async (a) => void calls.push(a),
    });
    const agent = agentWith(scripted([refundCall({ payment_id: 'pay_4', amount: 500_000 }, 'c4')], [assistantMessage('done')]), [tool]);
    const paused = await run(agent, 'refund', { context: { user: 'alice' } });
    expect((await s.store.listDecisions!()).map((e) => [e.call_id, e.result])).toEqual([['c4', 'requested']]);
    await s.control.request(paused.state); // idempotent: no second entry
    await s.control.approve(paused.state, paused.interruptions[0]!, { approver: 'bob' });
    await run(agent, await RunState.fromString(agent, paused.state.toString()));
    expect(calls).toHaveLength(1);
    expect((await s.store.listDecisions!()).map((e) => [e.call_id, e.result])).toEqual([['c4', 'requested']]);
    expect(await verifyDecisions(s.store)).toEqual({ ok: true, count: 1 });
  });

  it("an operator's answer stays in the receipts and the request; replay and receipts log show it beside the entry", async () => {
    const s = labelled(memoryStore());
    const { tool } = refundTool(s);
    const model = scripted(
      [refundCall({ payment_id: 'pay_5', amount: 500_000 }, 'c5'), refundCall({ payment_id: 'pay_6', amount: 600_000 }, 'c6')],
      [assistantMessage('done')],
    );
    const paused = await run(agentWith(model, [tool]), 'refund', { context: { user: 'alice' } });
    expect(paused.interruptions).toHaveLength(2);
    const answered = async () => {
      const calls = (await readStoreCalls(s.store))!;
      await attachAnswers(s.store, calls);
      return calls.map((c) => [c.callId, c.answer]);
    };
    expect(await answered()).toEqual([
      ['c5', 'pending'],
      ['c6', 'pending'],
    ]);
    const [five, six] = paused.interruptions;
    await s.control.approve(paused.state, five!, { approver: 'bob' });
    await s.control.reject(paused.state, six!, { approver: 'carol', message: 'too large' });
    expect(await answered()).toEqual([
      ['c5', 'approved by bob'],
      ['c6', 'rejected by carol: too large'],
    ]);
    // the answers are receipts (signed where the operator has a key), not log entries
    expect((await s.store.listDecisions!()).map((e) => e.result)).toEqual(['requested', 'requested']);
    expect((await s.store.listReceipts()).map((r) => r.result)).toEqual(['requested', 'requested', 'approved', 'rejected']);
  });

  it("a labelled value's hash is keyed by its store: the same value hashes alike in one store, unlike in another", async () => {
    const hashOf = async (store: Store, callId: string) => {
      const s = labelled(store);
      const { tool } = refundTool(s);
      // the second call in one store is refused as a duplicate effect: it is logged all the same
      await run(agentWith(scripted([refundCall({ payment_id: 'pay_7', amount: 500 }, callId)], [assistantMessage('done')]), [tool]), 'refund', {
        context: { user: 'alice' },
      }).catch(() => undefined);
      const entries = await store.listDecisions!();
      return (JSON.parse(entries[entries.length - 1]!.args) as { payment_id: string }).payment_id;
    };
    const one = memoryStore();
    const a = await hashOf(one, 'c1');
    expect(await hashOf(one, 'c2')).toBe(a);
    expect(a).toBe(sensitiveHash(await one.decisionKey!(), 'pay_7'));
    expect(await hashOf(memoryStore(), 'c3')).not.toBe(a);
    // a store without a key of its own: hashed under a key of this process, still not the bare hash
    const { decisionKey: _k, ...keyless } = memoryStore();
    const k = await hashOf(keyless as Store, 'c4');
    expect(k).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(k).not.toBe(a);
  });

  it('decisionLog: false keeps no log; the receipts are written as before', async () => {
    const s = labelled(memoryStore(), { decisionLog: false });
    const { tool } = refundTool(s);
    await run(agentWith(scripted([refundCall({ payment_id: 'pay_1', amount: 500 }, 'c1')], [assistantMessage('done')]), [tool]), 'refund', {
      context: { user: 'alice' },
    });
    expect((await s.store.listReceipts()).map((r) => r.result)).toEqual(['allowed', 'executed']);
    expect(await s.store.listDecisions!()).toEqual([]);
  });

  it("the application never prunes: a month later both entries are there, and `retentionDays` is refused (pruning is an operator's act)", async () => {
    const s = labelled(memoryStore());
    const { tool } = refundTool(s);
    await run(agentWith(scripted([refundCall({ payment_id: 'pay_1', amount: 500 }, 'c1')], [assistantMessage('done')]), [tool]), 'refund', {
      context: { user: 'alice' },
    });
    s.clock.advance(40 * DAY);
    await run(agentWith(scripted([refundCall({ payment_id: 'pay_2', amount: 500 }, 'c2')], [assistantMessage('done')]), [tool]), 'refund', {
      context: { user: 'alice' },
    });
    expect((await s.store.listDecisions!()).map((e) => [e.seq, e.call_id])).toEqual([
      [1, 'c1'],
      [2, 'c2'],
    ]);
    expect(await verifyDecisions(s.store)).toEqual({ ok: true, count: 2 });
    expect(() => createControl({ store: memoryStore(), identity: () => 'a', decisionLog: { retentionDays: 1 } as never })).toThrow(/operator's act/);
    expect(() => createControl({ store: memoryStore(), identity: () => 'a', decisionLog: { keepDays: 1 } as never })).toThrow(/no option "keepDays"/);
  });

  it("a custom store may change the entry it is given: the principal is its own copy, not the identity's kept answer", async () => {
    const store = memoryStore();
    const append = store.appendDecision!.bind(store);
    const principals: unknown[] = [];
    store.appendDecision = async (body) => {
      // a store that tags what it keeps (strict mode: a frozen object would throw here)
      (body.principal as { agent: string; tagged?: boolean }).tagged = true;
      principals.push(body.principal);
      return append(body);
    };
    const s = labelled(store);
    const { tool, calls } = refundTool(s);
    for (const id of ['1', '2']) {
      await run(agentWith(scripted([refundCall({ payment_id: `pay_${id}`, amount: 500 }, `c${id}`)], [assistantMessage('done')]), [tool]), 'refund', {
        context: { user: 'alice' },
      });
    }
    expect(calls).toHaveLength(2);
    expect(principals).toHaveLength(2);
    expect(principals[0]).not.toBe(principals[1]);
  });

  it('a store that cannot record the entry stops the call: the body does not run', async () => {
    const store = memoryStore();
    store.appendDecision = async () => {
      throw new Error('disk full');
    };
    const s = labelled(store);
    const { tool, calls } = refundTool(s);
    await expect(
      run(agentWith(scripted([refundCall({ payment_id: 'pay_1', amount: 500 }, 'c1')], [assistantMessage('done')]), [tool]), 'refund', {
        context: { user: 'alice' },
      }),
    ).rejects.toThrow(/disk full/);
    expect(calls).toEqual([]);
  });

  it('without labels too: the entry is written before the body, and one the store cannot record stops the call', async () => {
    // an action with no `data:` labels takes the writer's other branch (core/receipt.ts, receiptThenEntry)
    for (const fails of [false, true]) {
      const store = memoryStore();
      const append = store.appendDecision!.bind(store);
      store.appendDecision = async (body) => {
        await new Promise((resolve) => setTimeout(resolve, 5)); // a slow store: the body must wait for it
        if (fails) throw new Error('disk full');
        return append(body);
      };
      const s = setup({ store });
      const entriesAtBody: number[] = [];
      const { tool, calls } = refundTool(s, async () => {
        entriesAtBody.push((await store.listDecisions!()).length);
        return 'ok';
      });
      const running = run(agentWith(scripted([refundCall({ payment_id: 'pay_1', amount: 500 }, 'c1')], [assistantMessage('done')]), [tool]), 'refund', {
        context: { user: 'alice' },
      });
      if (fails) {
        await expect(running).rejects.toThrow(/disk full/);
        expect(calls).toEqual([]);
      } else {
        await running;
        expect(entriesAtBody).toEqual([1]);
      }
    }
  });
});

describe('verifyDecisionChain', () => {
  async function recorded() {
    const s = labelled(memoryStore());
    const { tool } = refundTool(s);
    const model = scripted(
      [refundCall({ payment_id: 'p1', amount: 1 }, 'c1'), refundCall({ payment_id: 'p2', amount: 2 }, 'c2'), refundCall({ payment_id: 'p3', amount: 3 }, 'c3')],
      [assistantMessage('done')],
    );
    await run(agentWith(model, [tool]), 'refund', { context: { user: 'alice' } });
    return { entries: await s.store.listDecisions!(), receipts: await s.store.listReceipts() };
  }
  const edit = (entries: DecisionEntry[], i: number, change: Partial<DecisionEntry>) => entries.map((e, n) => (n === i ? { ...e, ...change } : e));

  it('names the first break: content altered, a link broken, an entry missing, an entry not bound to its receipt', async () => {
    const { entries, receipts } = await recorded();
    expect(verifyDecisionChain(entries, receipts)).toEqual({ ok: true, count: 3 });
    expect(verifyDecisionChain(edit(entries, 1, { decision: 'deny' }), receipts)).toEqual({ ok: false, seq: 2, break: 'content_altered' });
    expect(verifyDecisionChain(edit(entries, 1, { prev_hash: 'f'.repeat(64) }), receipts)).toMatchObject({ ok: false, seq: 2 });
    expect(verifyDecisionChain([entries[0]!, entries[2]!], receipts)).toEqual({ ok: false, seq: 2, break: 'missing' });
    // a first entry at seq 1 must start from the genesis hash even when the chain is short
    const { decisionHash: rehash } = await import('../../src/runtime/decision-log.js');
    const { hash: _first, ...unlinked } = { ...entries[0]!, prev_hash: 'f'.repeat(64) };
    expect(verifyDecisionChain([{ ...unlinked, hash: rehash(unlinked) }])).toEqual({ ok: false, seq: 1, break: 'link_broken' });
    // re-hashed after an edit: the chain holds, the receipt binding does not
    const { hash: _h, ...rest } = { ...entries[2]!, args: '{"amount":3000000,"payment_id":"x"}', hashed: [] };
    const { decisionHash } = await import('../../src/runtime/decision-log.js');
    const forged = { ...rest, hash: decisionHash(rest) };
    expect(verifyDecisionChain([entries[0]!, entries[1]!, forged])).toEqual({ ok: true, count: 3 });
    expect(verifyDecisionChain([entries[0]!, entries[1]!, forged], receipts)).toEqual({ ok: false, seq: 3, break: 'receipt_mismatch' });
    const otherReceipt = receipts.map((r) => (r.seq === entries[0]!.receipt_seq ? { ...r, hash: '0'.repeat(64) } : r));
    expect(verifyDecisionChain(entries, otherReceipt)).toEqual({ ok: false, seq: 1, break: 'receipt_mismatch' });
  });
});

describe("the memory store's decision log keeps its own copies", () => {
  const body = (n: number) => ({
    at: 2_000_000_000_000 + n,
    action: 'stripe.refund',
    tool: 'refund',
    call_id: `c${n}`,
    args: `{"amount":${n}}`,
    hashed: ['note'],
    args_hash: 'a'.repeat(64),
    principal: { agent: 'desk', user: 'alice' },
    environment: 'production',
    task: null,
    decision: 'allow' as const,
    rule: 0,
    reason: 'rule[0]',
    effect_key: null,
    resource: null,
    policy_hash: 'p'.repeat(64),
    mode: 'enforce' as const,
    result: 'allowed',
    receipt_seq: n + 1,
    receipt_hash: 'r'.repeat(64),
  });

  it('a caller changing the body it appended, the entry it got back or the entries it listed changes nothing stored', async () => {
    const store = memoryStore();
    const sent = body(1);
    const got = await store.appendDecision!(sent);
    sent.hashed.push('sent');
    sent.principal.user = 'mallory';
    got.hashed.push('got');
    got.principal!.user = 'eve';
    const [listed] = await store.listDecisions!();
    listed!.hashed.push('listed');
    listed!.principal!.agent = 'other';
    const stored = await store.listDecisions!();
    expect(stored.map((e) => [e.hashed, e.principal])).toEqual([[['note'], { agent: 'desk', user: 'alice' }]]);
    expect(verifyDecisionChain(stored)).toEqual({ ok: true, count: 1 });
  });

  it('the copy keeps the fields Object.keys names: not a symbol-keyed one, not an enumerable one inherited', async () => {
    const store = memoryStore();
    const tag = Symbol('tag');
    await store.appendDecision!({ ...body(1), [tag]: { shared: true } } as never);
    const proto = Object.prototype as Record<string, unknown>;
    proto['inherited'] = { x: 1 };
    let listed: DecisionEntry | undefined;
    try {
      [listed] = await store.listDecisions!();
    } finally {
      delete proto['inherited'];
    }
    expect(Object.getOwnPropertySymbols(listed)).toEqual([]);
    expect(Object.keys(listed!)).not.toContain('inherited');
    expect(Object.keys(listed!.principal!)).toEqual(['agent', 'user']);
  });

  it('a value that is not plain data (a Date) inside an entry is copied too', async () => {
    const store = memoryStore();
    const when = new Date(0);
    await store.appendDecision!({ ...body(1), extra: { when } } as never);
    when.setTime(5);
    const [listed] = await store.listDecisions!();
    const copied = (listed as unknown as { extra: { when: Date } }).extra.when;
    expect(copied).toBeInstanceOf(Date);
    expect(copied.getTime()).toBe(0);
  });
});
