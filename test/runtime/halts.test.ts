import { RunState } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { ActionDenied, bindProtectedTool, CtrlrunError, createControl, memoryStore, run, unwrap } from '../../src/runtime/index.js';
import { haltOf, haltWatch } from '../../src/runtime/halts.js';
import { HaltsChanged, isHaltsChanged } from '../../src/runtime/stores/errors.js';
import type { Halt, Store } from '../../src/runtime/types.js';
import { agentWith, assistantMessage, makePolicy, refundCall, refundTool, scripted, setup, toolOutputSeen } from './helpers.js';

const alice = { context: { user: 'alice' } };

describe('halts: one process', () => {
  it('a soft halt of an action refuses its next call (`halted`, a receipt) and the run goes on; lifting it lets the call run', async () => {
    const s = setup();
    const { tool, calls } = refundTool(s);
    const halt = await s.control.halt({ target: 'action', value: 'stripe.refund', reason: 'incident 42', by: 'carol' });
    const model = scripted([refundCall({ payment_id: 'pay_1', amount: 500 }, 'c1')], [assistantMessage('halted, sorry')]);
    const result = await run(agentWith(model, [tool]), 'refund', alice);
    expect(result.finalOutput).toBe('halted, sorry');
    expect(calls).toEqual([]);
    expect(toolOutputSeen(model, 1, 'c1')).toContain('halted by an operator: incident 42');
    const refused = (await s.store.listReceipts()).filter((r) => r.call_id === 'c1');
    expect(refused.map((r) => [r.result, r.reason, r.principal])).toEqual([['refused', 'halted', 'alice']]);

    expect(await s.control.liftHalt(halt.id, { by: 'dave' })).toMatchObject({ id: halt.id });
    const again = scripted([refundCall({ payment_id: 'pay_1', amount: 500 }, 'c2')], [assistantMessage('done')]);
    await run(agentWith(again, [tool]), 'refund', alice);
    expect(calls).toHaveLength(1);
    const trail = (await s.store.listReceipts()).filter((r) => r.action === 'ctrlrun.halt');
    expect(trail.map((r) => [r.result, r.approvers, r.call_id])).toEqual([
      ['halted', ['carol'], halt.id],
      ['lifted', ['dave'], halt.id],
    ]);
  });

  it('a halt this process already knows refuses every later call too, not only the one that read it', async () => {
    const s = setup();
    const { tool, calls } = refundTool(s);
    await s.control.halt({ target: 'action', value: 'stripe.refund', reason: 'incident 43', by: 'carol' });
    for (const id of ['c1', 'c2', 'c3']) {
      const model = scripted([refundCall({ payment_id: 'pay_1', amount: 500 }, id)], [assistantMessage('halted, sorry')]);
      await run(agentWith(model, [tool]), 'refund', alice);
      expect(toolOutputSeen(model, 1, id)).toContain('halted by an operator: incident 43');
    }
    expect(calls).toEqual([]);
    const refused = (await s.store.listReceipts()).filter((r) => r.action === 'stripe.refund');
    expect(refused.map((r) => [r.call_id, r.result, r.reason])).toEqual([
      ['c1', 'refused', 'halted'],
      ['c2', 'refused', 'halted'],
      ['c3', 'refused', 'halted'],
    ]);
  });

  it('a hard halt of a principal ends the run with ActionDenied(halted); another principal still runs', async () => {
    const s = setup();
    const { tool, calls } = refundTool(s);
    await s.control.halt({ target: 'principal', value: 'ALICE ', reason: 'compromised account', hard: true, by: 'carol' });
    const model = scripted([refundCall({ payment_id: 'pay_1', amount: 500 }, 'c1')], [assistantMessage('never')]);
    const error = await run(agentWith(model, [tool]), 'refund', alice).then(
      () => undefined,
      (e: unknown) => unwrap(e),
    );
    expect(error).toBeInstanceOf(ActionDenied);
    expect((error as ActionDenied).reason).toBe('halted');
    expect(model.calls).toHaveLength(1); // the run ended: the model was never asked again
    const bob = scripted([refundCall({ payment_id: 'pay_2', amount: 500 }, 'c2')], [assistantMessage('done')]);
    await run(agentWith(bob, [tool]), 'refund', { context: { user: 'bob' } });
    expect(calls).toEqual([{ payment_id: 'pay_2', amount: 500 }]);
  });

  it('a halt of one run stops only the run the control names that way', async () => {
    const store = memoryStore();
    const control = createControl({
      store,
      identity: (rc) => (rc.context as { user: string }).user,
      run: (rc) => (rc.context as { run?: string }).run ?? null,
    });
    const protectedTool = bindProtectedTool(control, makePolicy());
    const { tool, calls } = refundTool({ protectedTool } as never);
    await control.halt({ target: 'run', value: 'conv-7', reason: 'looping', by: 'carol' });
    const halted = scripted([refundCall({ payment_id: 'pay_1', amount: 500 }, 'c1')], [assistantMessage('ok')]);
    await run(agentWith(halted, [tool]), 'refund', { context: { user: 'alice', run: 'conv-7' } });
    const other = scripted([refundCall({ payment_id: 'pay_2', amount: 500 }, 'c2')], [assistantMessage('ok')]);
    await run(agentWith(other, [tool]), 'refund', { context: { user: 'alice', run: 'conv-8' } });
    expect(calls).toEqual([{ payment_id: 'pay_2', amount: 500 }]);
    expect(toolOutputSeen(halted, 1, 'c1')).toContain('halted');
  });
});

describe('halts: another process sharing the store (two controls, two copies)', () => {
  it('a halt set elsewhere after this process read the halts refuses its next call at the decision receipt; lifting it elsewhere lets the next run', async () => {
    const store = memoryStore();
    const app = setup({ store });
    const operator = createControl({ store, identity: () => null });
    const { tool, calls } = refundTool(app);
    const first = scripted([refundCall({ payment_id: 'pay_1', amount: 500 }, 'c1')], [assistantMessage('done')]);
    await run(agentWith(first, [tool]), 'refund', alice); // the app's copy: no halts
    expect(calls).toHaveLength(1);

    const halt = await operator.halt({ target: 'all', reason: 'freeze', by: 'carol' });
    const second = scripted([refundCall({ payment_id: 'pay_2', amount: 500 }, 'c2')], [assistantMessage('halted')]);
    await run(agentWith(second, [tool]), 'refund', alice);
    expect(calls).toHaveLength(1);
    expect(toolOutputSeen(second, 1, 'c2')).toContain('halted by an operator: freeze');
    const c2 = (await store.listReceipts()).filter((r) => r.call_id === 'c2');
    expect(c2.map((r) => [r.result, r.reason])).toEqual([['refused', 'halted']]);

    await operator.liftHalt(halt.id, { by: 'carol' });
    const third = scripted([refundCall({ payment_id: 'pay_3', amount: 500 }, 'c3')], [assistantMessage('done')]);
    await run(agentWith(third, [tool]), 'refund', alice);
    expect(calls.map((c) => c.payment_id)).toEqual(['pay_1', 'pay_3']);
  });

  // the retry is the receipt write's own rejection handler (core/receipt.ts): with no log entry to chain it on, it is still there
  it('without a decision log, a halt set elsewhere is still found at the decision receipt', async () => {
    const store = memoryStore();
    const control = createControl({ store, identity: (rc) => (rc.context as { user: string }).user, decisionLog: false });
    const operator = createControl({ store, identity: () => null });
    const { tool, calls } = refundTool({ protectedTool: bindProtectedTool(control, makePolicy()) } as never);
    const first = scripted([refundCall({ payment_id: 'pay_1', amount: 500 }, 'c1')], [assistantMessage('done')]);
    await run(agentWith(first, [tool]), 'refund', alice);
    await operator.halt({ target: 'all', reason: 'freeze', by: 'carol' });
    const second = scripted([refundCall({ payment_id: 'pay_2', amount: 500 }, 'c2')], [assistantMessage('halted')]);
    await run(agentWith(second, [tool]), 'refund', alice);
    expect(calls.map((c) => c.payment_id)).toEqual(['pay_1']);
    expect(toolOutputSeen(second, 1, 'c2')).toContain('halted by an operator: freeze');
    const c2 = (await store.listReceipts()).filter((r) => r.call_id === 'c2');
    expect(c2.map((r) => [r.result, r.reason])).toEqual([['refused', 'halted']]);
  });
});

describe('halts: the edges', () => {
  it('an approved call resumed after another process halted it is refused without using up its approval; lifted, the same state runs once', async () => {
    const s = setup();
    const { tool, calls } = refundTool(s);
    const big = { payment_id: 'pay_1', amount: 512_345 };
    const agent = agentWith(scripted([refundCall(big, 'c1')], [assistantMessage('halted')], [assistantMessage('done')]), [tool]);
    const paused = await run(agent, 'refund', alice); // this process has read the halts: none
    await s.control.approve(paused.state, paused.interruptions[0]!, { approver: 'bob' });
    const saved = paused.state.toString();
    const operator = createControl({ store: s.store, identity: () => null });
    const halt = await operator.halt({ target: 'all', reason: 'freeze', by: 'carol' });
    await run(agent, await RunState.fromString(agent, saved));
    expect(calls).toEqual([]);
    expect((await s.store.getRequest('c1'))!.state).toBe('approved');
    await operator.liftHalt(halt.id, { by: 'carol' });
    await run(agent, await RunState.fromString(agent, saved));
    expect(calls).toEqual([big]);
  });

  it('a store whose halts keep changing under one call fails it closed after five tries; nothing runs', async () => {
    const inner = memoryStore();
    let epoch = 0;
    let tries = 0;
    // every conditional append is refused as stale for the first 8 tries (a 9th would be let through)
    const store: Store = Object.assign(Object.create(inner) as Store, {
      readHalts: async () => ({ epoch: ++epoch, halts: [] }),
      appendReceipt: async (body: Parameters<Store['appendReceipt']>[0], options?: { haltEpoch?: number }) => {
        if (options?.haltEpoch !== undefined && tries++ < 8) throw new HaltsChanged(epoch + 1);
        return inner.appendReceipt(body, options);
      },
    });
    const s = setup({ store });
    const { tool, calls } = refundTool(s);
    const model = scripted([refundCall({ payment_id: 'pay_1', amount: 500 }, 'c1')], [assistantMessage('done')]);
    const error = await run(agentWith(model, [tool]), 'refund', alice).then(
      () => undefined,
      (e: unknown) => unwrap(e),
    );
    expect(isHaltsChanged(error)).toBe(true);
    expect(tries).toBe(5);
    expect(calls).toEqual([]);
  });

  it('run(runContext) is asked only while a halt names a run; then one that throws or is not a string stops the call', async () => {
    for (const [runOf, message] of [
      [
        () => {
          throw new Error('no conversation');
        },
        'run(runContext) threw (no conversation)',
      ],
      [() => 7, 'run(runContext) must return a string or null, got number'],
    ] as const) {
      const store = memoryStore();
      const control = createControl({ store, identity: (rc) => (rc.context as { user: string }).user, run: runOf as never });
      const { tool, calls } = refundTool({ protectedTool: bindProtectedTool(control, makePolicy()) } as never);
      const first = scripted([refundCall({ payment_id: 'pay_1', amount: 500 }, 'c1')], [assistantMessage('done')]);
      await run(agentWith(first, [tool]), 'refund', alice);
      expect(calls).toHaveLength(1); // no halt names a run: never asked
      await control.halt({ target: 'run', value: 'conv-7', reason: 'looping', by: 'carol' });
      const second = scripted([refundCall({ payment_id: 'pay_2', amount: 500 }, 'c2')], [assistantMessage('done')]);
      const error = await run(agentWith(second, [tool]), 'refund', alice).then(
        () => undefined,
        (e: unknown) => unwrap(e),
      );
      expect(error).toBeInstanceOf(CtrlrunError);
      expect((error as Error).message).toContain(message);
      expect(calls).toHaveLength(1);
    }
  });
});

describe('haltOf', () => {
  const h = (target: Halt['target'], value: string | null, hard = false): Halt => ({
    id: `${target}:${value}`,
    target,
    value,
    hard,
    reason: 'r',
    by: 'op',
    at: 0,
  });
  const call = { action: 'a.b', principal: 'alice', run: () => 'r1' };
  it('matches by target; a hard halt wins; an unknown target stops everything', () => {
    expect(haltOf([h('action', 'a.c'), h('principal', 'bob'), h('run', 'r2')], call)).toBeUndefined();
    expect(haltOf([h('action', 'a.b')], call)?.target).toBe('action');
    expect(haltOf([h('run', 'r1')], call)?.target).toBe('run');
    expect(haltOf([h('principal', 'alice'), h('all', null, true)], call)?.hard).toBe(true);
    expect(haltOf([{ ...h('all', null), target: 'tenant' as never }], call)).toBeDefined();
    expect(haltOf([h('principal', 'alice')], { ...call, principal: null })).toBeUndefined();
  });
  it('asks the run id only when a halt names a run', () => {
    let asked = 0;
    haltOf([h('action', 'x')], {
      ...call,
      run: () => {
        asked++;
        return 'r1';
      },
    });
    expect(asked).toBe(0);
  });
});

describe('haltWatch', () => {
  const reading = (epochs: number[]) => {
    let reads = 0;
    const store = { kind: 'memory', readHalts: async () => ({ epoch: epochs[Math.min(reads++, epochs.length - 1)]!, halts: [] }) } as unknown as Store;
    return { watch: haltWatch(store), reads: () => reads };
  };

  it('reads again until the epoch it is asked about, at most three more times', async () => {
    const behind = reading([1, 2, 3, 4]);
    expect((await behind.watch.refresh(3)).epoch).toBe(3);
    expect(behind.reads()).toBe(3);
    const stuck = reading([1]);
    expect((await stuck.watch.refresh(5)).epoch).toBe(1);
    expect(stuck.reads()).toBe(4);
  });

  it('an older read never replaces a newer one', async () => {
    const { watch } = reading([5, 3]);
    await watch.refresh();
    expect((await watch.refresh()).epoch).toBe(5);
    expect(watch.known()!.epoch).toBe(5);
  });

  it('a store without halts has none, and nothing is read', async () => {
    const watch = haltWatch({ kind: 'memory' } as unknown as Store);
    expect(watch.kept).toBe(false);
    expect(watch.known()).toEqual({ epoch: 0, halts: [] });
    expect(await watch.refresh(7)).toEqual({ epoch: 0, halts: [] });
  });
});
