import { ToolCallError } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { ActionDenied, AmbiguousEffect, DuplicateEffect, NotExecuted, run } from '../../src/runtime/index.js';
import { agentWith, assistantMessage, refundCall, refundTool, scripted, setup, toolOutputSeen } from './helpers.js';

const SMALL = { payment_id: 'pay_1', amount: 500 }; // allow band

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (e: unknown) => e,
  );
}

describe('effects through the Runner', () => {
  it('a committed effect key: the second run gets DuplicateEffect from run() (as itself), the body ran once', async () => {
    const s = setup();
    const { tool, calls } = refundTool(s);
    const model = scripted([refundCall(SMALL, 'c1')], [assistantMessage('done')], [refundCall(SMALL, 'c2')], [assistantMessage('unreachable')]);
    const agent = agentWith(model, [tool]);
    await run(agent, 'refund pay_1', { context: { user: 'alice' } });
    const error = await caught(run(agent, 'refund pay_1 again', { context: { user: 'alice' } }));
    expect(error).toBeInstanceOf(DuplicateEffect);
    expect(error).not.toBeInstanceOf(ToolCallError);
    expect((error as DuplicateEffect).key).toBe('refund:pay_1');
    expect((error as DuplicateEffect).state).toBeDefined(); // the run state, to inspect or resume
    expect(calls).toHaveLength(1);
    const results = (await s.store.listReceipts()).map((r) => r.result);
    // one decision receipt per call: the second call's is its outcome (`duplicate`), never `allowed` first
    expect(results).toEqual(['allowed', 'executed', 'duplicate']);
  });

  it('the same key twice in one model turn (the model retries in parallel): one runs, the other is refused', async () => {
    const s = setup();
    const { tool, calls } = refundTool(s);
    const model = scripted([refundCall(SMALL, 'c1'), refundCall(SMALL, 'c2')], [assistantMessage('unreachable')]);
    const error = await caught(run(agentWith(model, [tool]), 'refund', { context: { user: 'alice' } }));
    expect(error).toBeInstanceOf(AmbiguousEffect); // the second saw the first in flight
    expect(calls).toHaveLength(1);
  });

  it('a body that throws (no errorFunction): the key becomes ambiguous, run() throws AmbiguousEffect with the cause; the next attempt is AmbiguousEffect and does not run', async () => {
    const s = setup();
    const boom = new Error('connection reset after commit');
    const { tool, calls } = refundTool(s, () => {
      throw boom;
    });
    const model = scripted([refundCall(SMALL, 'c1')], [refundCall(SMALL, 'c2')]);
    const agent = agentWith(model, [tool]);
    const first = await caught(run(agent, 'refund', { context: { user: 'alice' } }));
    expect(first).toBeInstanceOf(AmbiguousEffect);
    expect((first as AmbiguousEffect).cause).toBe(boom);
    expect((first as Error).message).toContain('ctrlrun-gen effects resolve refund:pay_1');
    expect((await s.store.getEffect('refund:pay_1'))?.state).toBe('ambiguous');
    const second = await caught(run(agent, 'refund again', { context: { user: 'alice' } }));
    expect(second).toBeInstanceOf(AmbiguousEffect);
    expect(calls).toHaveLength(1);
  });

  it("with the user's errorFunction: their handler gets their own error; a model retry in the same run gets AmbiguousEffect (not model text)", async () => {
    const s = setup();
    const handled: unknown[] = [];
    const { tool, calls } = refundTool(
      s,
      () => {
        throw new Error('gateway timeout');
      },
      {
        errorFunction: (_ctx: unknown, error: unknown) => {
          handled.push(error);
          return 'Please try again.';
        },
      },
    );
    const model = scripted([refundCall(SMALL, 'c1')], [refundCall(SMALL, 'c2')], [assistantMessage('unreachable')]);
    const error = await caught(run(agentWith(model, [tool]), 'refund', { context: { user: 'alice' } }));
    expect(handled).toHaveLength(1);
    expect((handled[0] as Error).message).toBe('gateway timeout');
    expect(toolOutputSeen(model, 1, 'c1')).toBe('Please try again.');
    expect(error).toBeInstanceOf(AmbiguousEffect);
    expect(calls).toHaveLength(1);
  });

  it('NotExecuted: the key becomes failed and may be tried again, up to max_attempts; then ActionDenied(max_attempts)', async () => {
    const s = setup({ maxAttempts: 2 });
    const fail = true;
    const { tool, calls } = refundTool(s, () => {
      if (fail) throw new NotExecuted('card network refused before acting');
      return 'refunded';
    });
    const model = scripted([refundCall(SMALL, 'c1')], [refundCall(SMALL, 'c2')], [refundCall(SMALL, 'c3')]);
    const agent = agentWith(model, [tool]);
    const ctx = { context: { user: 'alice' } };
    expect(await caught(run(agent, 'refund', ctx))).toBeInstanceOf(NotExecuted);
    expect(await s.store.getEffect('refund:pay_1')).toMatchObject({ state: 'failed', attempts: 1 });
    expect(await caught(run(agent, 'refund', ctx))).toBeInstanceOf(NotExecuted);
    expect(await s.store.getEffect('refund:pay_1')).toMatchObject({ state: 'failed', attempts: 2 });
    const third = await caught(run(agent, 'refund', ctx));
    expect(third).toBeInstanceOf(ActionDenied);
    expect((third as ActionDenied).reason).toBe('max_attempts');
    expect(calls).toHaveLength(2);
  });

  it('NotExecuted then success on the retry: runs, commits', async () => {
    const s = setup({ maxAttempts: 3 });
    let n = 0;
    const { tool, calls } = refundTool(s, () => {
      if (n++ === 0) throw new NotExecuted();
      return 'refunded';
    });
    const model = scripted([refundCall(SMALL, 'c1')], [refundCall(SMALL, 'c2')], [assistantMessage('done')]);
    const agent = agentWith(model, [tool]);
    expect(await caught(run(agent, 'refund', { context: { user: 'alice' } }))).toBeInstanceOf(NotExecuted);
    const ok = await run(agent, 'refund', { context: { user: 'alice' } });
    expect(ok.finalOutput).toBe('done');
    expect(calls).toHaveLength(2);
    expect(await s.store.getEffect('refund:pay_1')).toMatchObject({ state: 'committed', attempts: 2 });
  });

  it('a crashed attempt (lease over, never settled) makes the key ambiguous; an operator resolving it --failed allows a retry', async () => {
    const s = setup();
    const { tool, calls } = refundTool(s);
    // a process reserved the key, then died mid-body
    await s.store.reserveEffect({ key: 'refund:pay_1', action: 'stripe.refund', attemptId: 'dead', maxAttempts: 3, now: s.clock.now(), leaseMs: 60_000 });
    const model = scripted([refundCall(SMALL, 'c1')], [refundCall(SMALL, 'c2')], [refundCall(SMALL, 'c3')], [assistantMessage('done')]);
    const agent = agentWith(model, [tool]);
    const ctx = { context: { user: 'alice' } };
    expect(await caught(run(agent, 'refund', ctx))).toBeInstanceOf(AmbiguousEffect); // still leased
    s.clock.advance(60_000);
    expect(await caught(run(agent, 'refund', ctx))).toBeInstanceOf(AmbiguousEffect); // lease over: ambiguous
    expect((await s.store.getEffect('refund:pay_1'))?.state).toBe('ambiguous');
    await s.store.resolveEffect('refund:pay_1', 'failed', 'ops@example.com', s.clock.now());
    await run(agent, 'refund', ctx);
    expect(calls).toHaveLength(1);
    expect((await s.store.getEffect('refund:pay_1'))?.state).toBe('committed');
  });

  it('a template that does not resolve is refused before the body (guardrail), and the run goes on', async () => {
    const s = setup();
    const { tool, calls } = refundTool(s);
    const model = scripted([refundCall({ payment_id: '', amount: 5 }, 'c1')], [assistantMessage('ok')]);
    await run(agentWith(model, [tool]), 'refund', { context: { user: 'alice' } });
    expect(calls).toEqual([]);
    expect(toolOutputSeen(model, 1, 'c1')).toContain('payment_id');
    // The resource template resolves first (CTRLRun's order): an empty payment_id refuses the call as resource_template.
    expect((await s.store.listReceipts()).map((r) => [r.reason, r.result])).toEqual([['resource_template', 'refused']]);
  });
});
