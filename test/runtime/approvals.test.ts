import { RunState } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { ApprovalMismatch, bindProtectedTool, createControl, run, type ApprovalMismatchReason } from '../../src/runtime/index.js';
import { argsHashOf } from '../../src/runtime/internals.js';
import { agentWith, assistantMessage, refundCall, refundTool, scripted, sdkBefore, setup, toolOutputSeen, type Setup } from './helpers.js';

/** Before 0.5 `state.reject()` takes no message: the model reads the SDK's fixed text, never "try again". */
const REJECTED_BEFORE_0_5 = 'Tool execution was not approved.';

const BIG = { payment_id: 'pay_1', amount: 512_345 }; // approve band

/** Runs until the approval pause; returns the agent, the result and the body's call log. */
async function pauseOnApproval(s: Setup, extraSteps: number = 1) {
  const { tool, calls } = refundTool(s);
  const steps = [[refundCall(BIG, 'c1')], ...Array.from({ length: extraSteps }, () => [assistantMessage('done')])];
  const model = scripted(...steps);
  const agent = agentWith(model, [tool]);
  const result = await run(agent, 'refund pay_1', { context: { user: 'alice' } });
  return { agent, model, result, calls };
}

/** Another process: its own control on the same store, bound to the same compiled policy. */
function otherProcessControl(s: Setup) {
  const control = createControl({ store: s.store, identity: (rc) => (rc.context as { user?: string })?.user ?? null, clock: s.clock.now });
  bindProtectedTool(control, s.policy);
  return control;
}

async function expectMismatch(promise: Promise<unknown>, reason: ApprovalMismatchReason) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApprovalMismatch);
  expect((error as ApprovalMismatch).reason).toBe(reason);
}

describe('approve: pause, record, claim once', () => {
  it('pauses with the SDK interruption; needsApproval files the pending request once, bound to principal and arguments; request() adds nothing', async () => {
    const s = setup();
    const { result, calls } = await pauseOnApproval(s);
    expect(calls).toEqual([]);
    expect(result.interruptions).toHaveLength(1);
    // filed where the pause was decided, with no call of the app's
    const filed = await s.store.listRequests();
    expect(filed).toHaveLength(1);
    expect(filed[0]).toMatchObject({
      callId: 'c1',
      action: 'stripe.refund',
      toolName: 'refund',
      principal: 'alice',
      state: 'pending',
      policyHash: s.policy.hash,
      argsHash: argsHashOf('{"payment_id":"pay_1","amount":512345}', undefined),
      approvalsRequired: 1,
      answers: [],
    });
    expect(filed[0]!.args).toBe('{"amount":512345,"payment_id":"pay_1"}');
    expect((await s.store.listReceipts()).map((r) => [r.result, r.call_id, r.principal, r.args_hash])).toEqual([
      ['requested', 'c1', 'alice', filed[0]!.argsHash],
    ]);

    // request() (twice) finds the same request: no second request, no second receipt, nothing rewritten
    const pending = await s.control.request(result.state);
    await s.control.request(result.state);
    expect(pending).toEqual(filed);
    expect(await s.store.listRequests()).toEqual(filed);
    expect((await s.store.listReceipts()).map((r) => r.result)).toEqual(['requested']);
  });

  it('another person approves (in another process, from the serialized state): the call runs exactly once', async () => {
    const s = setup();
    const { agent, model, result, calls } = await pauseOnApproval(s);
    await s.control.request(result.state);
    const serialized = result.state.toString();

    const control2 = otherProcessControl(s);
    const restored = await RunState.fromString(agent, serialized);
    const request = await control2.approve(restored, restored.getInterruptions()[0]!, { approver: 'bob', reason: 'looks right' });
    expect(request.state).toBe('approved');
    const resumed = await run(agent, restored);
    expect(resumed.finalOutput).toBe('done');
    expect(calls).toEqual([BIG]);
    expect(toolOutputSeen(model, 1, 'c1')).toBe('refunded');
    expect((await s.store.getRequest('c1'))?.state).toBe('consumed');
    const receipts = await s.store.listReceipts();
    expect(receipts.map((r) => r.result)).toEqual(['requested', 'approved', 'claimed', 'executed']);
    expect(receipts[3]).toMatchObject({ approvers: ['bob'], principal: 'alice', decision: 'approve' });
  });

  it('resolve(state) applies an answer recorded elsewhere (the store) and returns what is still pending', async () => {
    const s = setup();
    const { agent, result, calls } = await pauseOnApproval(s);
    const pending = await s.control.resolve(result.state);
    expect(pending.map((p) => p.callId)).toEqual(['c1']);
    // the CLI / another process answers straight in the store
    await s.store.addAnswer('c1', { approver: 'bob', decision: 'approve', at: s.clock.now() });
    const serialized = result.state.toString();
    const restored = await RunState.fromString(agent, serialized);
    expect(await s.control.resolve(restored)).toEqual([]);
    await run(agent, restored);
    expect(calls).toEqual([BIG]);
  });

  it('the same serialized state restored twice runs the body once; the second resume gets ApprovalMismatch(consumed)', async () => {
    const s = setup();
    const { agent, result, calls } = await pauseOnApproval(s, 2);
    await s.control.approve(result.state, result.interruptions[0]!, { approver: 'bob' });
    const serialized = result.state.toString();

    const first = await RunState.fromString(agent, serialized);
    const second = await RunState.fromString(agent, serialized);
    await run(agent, first);
    await expectMismatch(run(agent, second), 'consumed');
    expect(calls).toEqual([BIG]);
  });

  it('the same state resumed twice at once (two "processes"): exactly one body run', async () => {
    const s = setup();
    const { agent, result, calls } = await pauseOnApproval(s, 2);
    await s.control.approve(result.state, result.interruptions[0]!, { approver: 'bob' });
    const serialized = result.state.toString();
    const [a, b] = await Promise.all([RunState.fromString(agent, serialized), RunState.fromString(agent, serialized)]);
    const outcomes = await Promise.allSettled([run(agent, a), run(agent, b)]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const rejected = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(ApprovalMismatch);
    expect(calls).toHaveLength(1);
  });

  it('a bare state.approve (the filed request unanswered) runs nothing: ApprovalMismatch(unknown)', async () => {
    const s = setup();
    const { agent, result, calls } = await pauseOnApproval(s);
    // the pause filed a pending request (nobody answered it): the SDK's own yes authorizes nothing
    result.state.approve(result.interruptions[0]!);
    await expectMismatch(run(agent, result.state), 'unknown');
    expect(calls).toEqual([]);
    expect((await s.store.getRequest('c1'))?.state).toBe('pending');
    expect((await s.store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([
      ['requested', 'rule[1]'],
      ['refused', 'approval_unknown'],
    ]);
  });

  it('a bare state.approve after a recorded request that nobody approved runs nothing', async () => {
    const s = setup();
    const { agent, result, calls } = await pauseOnApproval(s);
    await s.control.request(result.state);
    result.state.approve(result.interruptions[0]!);
    await expectMismatch(run(agent, result.state), 'unknown');
    expect(calls).toEqual([]);
  });

  it('alwaysApprove does not cover the next call of the same tool', async () => {
    const s = setup();
    const { tool, calls } = refundTool(s);
    const model = scripted([refundCall(BIG, 'c1')], [refundCall({ payment_id: 'pay_2', amount: 600_000 }, 'c2')], [assistantMessage('done')]);
    const agent = agentWith(model, [tool]);
    const first = await run(agent, 'refund', { context: { user: 'alice' } });
    await s.control.approve(first.state, first.interruptions[0]!, { approver: 'bob' });
    // someone also makes it sticky in the SDK state
    first.state.approve(first.interruptions[0]!, { alwaysApprove: true });
    await expectMismatch(run(agent, first.state), 'unknown');
    expect(calls).toEqual([BIG]); // c1 ran (approved in the store); c2 did not
  });

  it('the requester approving their own call is refused and runs nothing', async () => {
    const s = setup();
    const { agent, result, calls } = await pauseOnApproval(s);
    await expectMismatch(s.control.approve(result.state, result.interruptions[0]!, { approver: 'alice' }), 'approver_is_requester');
    expect((await s.store.getRequest('c1'))?.state).toBe('pending');
    // and forcing it through the SDK state authorizes nothing
    result.state.approve(result.interruptions[0]!);
    await expectMismatch(run(agent, result.state), 'unknown');
    expect(calls).toEqual([]);
  });

  it('an approval answered by the principal directly in the store is refused at claim time', async () => {
    const s = setup();
    const { agent, result, calls } = await pauseOnApproval(s);
    await s.control.request(result.state);
    // a store that let it through: simulate by approving as bob, then resuming as bob (principal changes)
    await s.store.addAnswer('c1', { approver: 'bob', decision: 'approve', at: s.clock.now() });
    result.state.approve(result.interruptions[0]!);
    result.state._context.context = { user: 'bob' };
    await expectMismatch(run(agent, result.state), 'mismatch');
    expect(calls).toEqual([]);
  });

  it('editing the serialized arguments after approval runs nothing: ApprovalMismatch(mismatch)', async () => {
    const s = setup();
    const { agent, result, calls } = await pauseOnApproval(s);
    await s.control.approve(result.state, result.interruptions[0]!, { approver: 'bob' });
    const serialized = result.state.toString();
    // every copy of the call in the state (the items, the model response, the SDK's own approval
    // fingerprint) is edited consistently, as an attacker holding the string would
    const edited = serialized.split('512345').join('912345');
    expect(edited).not.toBe(serialized);
    const restored = await RunState.fromString(agent, edited);
    expect(restored.getInterruptions()[0]!.rawItem).toMatchObject({ arguments: expect.stringContaining('912345') });
    await expectMismatch(run(agent, restored), 'mismatch');
    expect(calls).toEqual([]);
  });

  it('M-of-N: two distinct approvers are needed; one yes (repeated) does not approve', async () => {
    const s = setup({ approvalsRequired: 2 });
    const { agent, result, calls } = await pauseOnApproval(s);
    const item = result.interruptions[0]!;
    const once = await s.control.approve(result.state, item, { approver: 'bob' });
    const again = await s.control.approve(result.state, item, { approver: 'bob' });
    expect(once.state).toBe('pending');
    expect(again.state).toBe('pending');
    // still paused: the SDK state was not approved, so resuming pauses again
    const stillPaused = await run(agent, result.state);
    expect(stillPaused.interruptions).toHaveLength(1);
    expect(calls).toEqual([]);
    const done = await s.control.approve(stillPaused.state, stillPaused.interruptions[0]!, { approver: 'carol' });
    expect(done.state).toBe('approved');
    await run(agent, stillPaused.state);
    expect(calls).toEqual([BIG]);
    const executed = (await s.store.listReceipts()).find((r) => r.result === 'executed');
    expect(executed?.approvers).toEqual(['bob', 'carol']);
  });

  it('M-of-N: one approval plus a bare state.approve runs nothing', async () => {
    const s = setup({ approvalsRequired: 2 });
    const { agent, result, calls } = await pauseOnApproval(s);
    await s.control.approve(result.state, result.interruptions[0]!, { approver: 'bob' });
    result.state.approve(result.interruptions[0]!);
    await expectMismatch(run(agent, result.state), 'unknown');
    expect(calls).toEqual([]);
  });

  it('expiry: an approval used after approvalTtlMs (15 min default) runs nothing: ApprovalMismatch(expired)', async () => {
    const s = setup();
    const { agent, result, calls } = await pauseOnApproval(s);
    await s.control.approve(result.state, result.interruptions[0]!, { approver: 'bob' });
    s.clock.advance(15 * 60 * 1000 + 1);
    await expectMismatch(run(agent, result.state), 'expired');
    expect(calls).toEqual([]);
  });

  it('expiry seen by resolve(state): the call is rejected in the state, the model is told, nothing runs', async () => {
    const s = setup();
    const { agent, model, result, calls } = await pauseOnApproval(s);
    await s.control.request(result.state);
    await s.store.addAnswer('c1', { approver: 'bob', decision: 'approve', at: s.clock.now() });
    s.clock.advance(16 * 60 * 1000);
    expect(await s.control.resolve(result.state)).toEqual([]);
    const resumed = await run(agent, result.state);
    expect(resumed.finalOutput).toBe('done');
    expect(toolOutputSeen(model, 1, 'c1')).toContain(sdkBefore('0.5') ? REJECTED_BEFORE_0_5 : 'expired');
    expect(calls).toEqual([]);
  });

  it('expiry: just inside the window it runs', async () => {
    const s = setup();
    const { agent, result, calls } = await pauseOnApproval(s);
    await s.control.approve(result.state, result.interruptions[0]!, { approver: 'bob' });
    s.clock.advance(15 * 60 * 1000);
    await run(agent, result.state);
    expect(calls).toEqual([BIG]);
  });

  it('reject: records the answer, rejects in the SDK state; the model is told it did not run; the run goes on', async () => {
    const s = setup();
    const { agent, model, result, calls } = await pauseOnApproval(s);
    const rejected = await s.control.reject(result.state, result.interruptions[0]!, { approver: 'bob', message: 'too large' });
    expect(rejected.state).toBe('rejected');
    const resumed = await run(agent, result.state);
    expect(resumed.finalOutput).toBe('done');
    expect(calls).toEqual([]);
    const seen = toolOutputSeen(model, 1, 'c1');
    if (sdkBefore('0.5')) {
      expect(seen).toBe(REJECTED_BEFORE_0_5);
      return;
    }
    expect(seen).toContain('stripe.refund');
    expect(seen).toContain('too large');
    expect(seen).toContain('did not run');
  });

  it('a policy bound with another hash to the same control is an error', () => {
    const s = setup();
    expect(() => bindProtectedTool(s.control, { ...s.policy, hash: 'e'.repeat(64) })).toThrow(/already bound/);
    expect(() => bindProtectedTool(s.control, s.policy)).not.toThrow();
  });
});

describe('tool names the SDK sanitizes', () => {
  it("a tool named 'Refund Expert' reaches the model as Refund_Expert; request() maps it back to its action", async () => {
    const s = setup();
    const { z } = await import('zod');
    const calls: unknown[] = [];
    const t = s.protectedTool('stripe.refund', {
      name: 'Refund Expert',
      description: 'refund',
      parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
      execute: async (args) => void calls.push(args),
    });
    const model = scripted([{ ...refundCall(BIG, 'c1'), name: 'Refund_Expert' }], [assistantMessage('done')]);
    const agent = agentWith(model, [t]);
    const paused = await run(agent, 'go', { context: { user: 'alice' } });
    const [request] = await s.control.request(paused.state);
    expect(request).toMatchObject({ action: 'stripe.refund', toolName: 'Refund_Expert' });
    await s.control.approve(paused.state, paused.interruptions[0]!, { approver: 'bob' });
    await run(agent, paused.state);
    expect(calls).toHaveLength(1);
  });

  it('interruptions of tools that are not protected are left alone', async () => {
    const s = setup();
    const { tool: plainTool } = await import('@openai/agents');
    const { z } = await import('zod');
    const plain = plainTool({ name: 'wire', description: 'w', parameters: z.object({}), needsApproval: true, execute: async () => 'ok' });
    const model = scripted([{ ...refundCall({}, 'c1'), name: 'wire' }], [assistantMessage('done')]);
    const paused = await run(agentWith(model, [plain]), 'go', { context: { user: 'alice' } });
    expect(paused.interruptions).toHaveLength(1);
    expect(await s.control.request(paused.state)).toEqual([]);
    expect(await s.control.resolve(paused.state)).toEqual([]);
    await expect(s.control.approve(paused.state, paused.interruptions[0]!, { approver: 'bob' })).rejects.toThrow(/not a call of a tool protected/);
  });
});
