import { RunState } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { ActionDenied, ApprovalMismatch, run } from '../../src/runtime/index.js';
import { recordAnswer } from '../../src/runtime/answer.js';
import { canonicalHash } from '../../src/runtime/canonical.js';
import { agentWith, assistantMessage, refundCall, refundTool, scripted, setup, toolOutputSeen, type Setup } from './helpers.js';

// SPEC §5.13, issue 38 items 1 and 2, through the SDK's real Runner: approve with edits, reject
// with a message, respond in the tool's place.

const PROPOSED = { payment_id: 'pay_1', amount: 250_000 }; // approve band (100001..1000000)
const EDITED = { payment_id: 'pay_1', amount: 200_000 };

async function pause(s: Setup, args: Record<string, unknown> = PROPOSED, extraSteps = 1) {
  const { tool, calls } = refundTool(s, (a) => `refunded ${a.amount} on ${a.payment_id}`);
  const steps = [[refundCall(args, 'c1')], ...Array.from({ length: extraSteps }, () => [assistantMessage('done')])];
  const model = scripted(...steps);
  const agent = agentWith(model, [tool]);
  const result = await run(agent, 'refund pay_1', { context: { user: 'alice' } });
  expect(result.interruptions).toHaveLength(1);
  return { agent, model, result, calls };
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => null,
    (e: unknown) => e,
  );
}

describe('approve with edits', () => {
  it('an edited refund runs once with the edited amount, the model reads what changed, and the receipts and log keep proposed, approved and ran', async () => {
    const s = setup();
    const { agent, model, result, calls } = await pause(s);
    const request = await s.control.approve(result.state, result.interruptions[0]!, { approver: 'bob', arguments: EDITED });
    expect(request.state).toBe('approved');
    expect(request.answers[0]).toMatchObject({
      approver: 'bob',
      decision: 'approve',
      argsHash: canonicalHash(EDITED),
      args: '{"amount":200000,"payment_id":"pay_1"}',
    });
    const resumed = await run(agent, result.state);
    expect(resumed.finalOutput).toBe('done');
    expect(calls).toEqual([EDITED]);
    const seen = toolOutputSeen(model, 1, 'c1')!;
    expect(seen).toContain('Approved with changes by bob: amount 250000 → 200000');
    expect(seen).toContain('refunded 200000 on pay_1');

    const receipts = await s.store.listReceipts();
    expect(receipts.map((r) => r.result)).toEqual(['requested', 'approved', 'claimed', 'executed']);
    const [requested, approved, claimed, executed] = receipts;
    expect(requested!.args_hash).toBe(canonicalHash(PROPOSED));
    expect(approved).toMatchObject({
      args_hash: canonicalHash(PROPOSED),
      edit: { proposed_args_hash: canonicalHash(PROPOSED), approved_args_hash: canonicalHash(EDITED), edited_by: 'bob' },
    });
    const ran = {
      proposed_args_hash: canonicalHash(PROPOSED),
      approved_args_hash: canonicalHash(EDITED),
      ran_args_hash: canonicalHash(EDITED),
      edited_by: 'bob',
    };
    expect(claimed).toMatchObject({ args_hash: canonicalHash(EDITED), approvers: ['bob'], effect_key: 'refund:pay_1', edit: ran });
    expect(executed).toMatchObject({ args_hash: canonicalHash(EDITED), edit: ran });
    // the edited call was decided again: its decision log entry, beside the pause's
    const log = await s.store.listDecisions!();
    expect(log.map((e) => [e.result, e.args])).toEqual([
      ['requested', '{"amount":250000,"payment_id":"pay_1"}'],
      ['claimed', '{"amount":200000,"payment_id":"pay_1"}'],
    ]);
    expect(log[1]!.edit).toEqual(ran);
  });

  it('a second resume of the edited approval is refused (consumed) and runs nothing more', async () => {
    const s = setup();
    const { agent, result, calls } = await pause(s, PROPOSED, 2);
    await s.control.approve(result.state, result.interruptions[0]!, { approver: 'bob', arguments: EDITED });
    const serialized = result.state.toString();
    const [a, b] = await Promise.all([RunState.fromString(agent, serialized), RunState.fromString(agent, serialized)]);
    await run(agent, a);
    const second = await rejection(run(agent, b));
    expect(second).toBeInstanceOf(ApprovalMismatch);
    expect((second as ApprovalMismatch).reason).toBe('consumed');
    expect(calls).toEqual([EDITED]);
  });

  it('two resumes at once: the edited call runs exactly once', async () => {
    const s = setup();
    const { agent, result, calls } = await pause(s, PROPOSED, 2);
    await s.control.approve(result.state, result.interruptions[0]!, { approver: 'bob', arguments: EDITED });
    const serialized = result.state.toString();
    const [a, b] = await Promise.all([RunState.fromString(agent, serialized), RunState.fromString(agent, serialized)]);
    const outcomes = await Promise.allSettled([run(agent, a), run(agent, b)]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(calls).toEqual([EDITED]);
  });

  it('an edit into deny is refused when it is given: nothing recorded, the call stays pending', async () => {
    const s = setup();
    const { result, calls } = await pause(s);
    const error = await rejection(
      s.control.approve(result.state, result.interruptions[0]!, { approver: 'bob', arguments: { payment_id: 'pay_1', amount: 2_000_000 } }),
    );
    expect(error).toBeInstanceOf(ActionDenied);
    expect((error as ActionDenied).reason).toBe('edit_denied');
    expect((await s.store.getRequest('c1'))?.answers).toEqual([]);
    expect(calls).toEqual([]);
    expect((await s.store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([
      ['requested', 'rule[1]'],
      ['refused', 'edit_denied'],
    ]);
  });

  it("an edit the tool's schema refuses is refused when it is given", async () => {
    const s = setup();
    const { result } = await pause(s);
    for (const [edit, code] of [
      [{ payment_id: 'pay_1', amount: 'lots' }, 'edit_schema'],
      [{ payment_id: 'pay_1' }, 'edit_schema'],
      ['{"payment_id":"pay_1","amount":2.5}', 'edit_invalid'],
      ['not json', 'edit_invalid'],
    ] as const) {
      const error = await rejection(s.control.approve(result.state, result.interruptions[0]!, { approver: 'bob', arguments: edit }));
      expect((error as ActionDenied).reason).toBe(code);
    }
    expect((await s.store.getRequest('c1'))?.answers).toEqual([]);
  });

  it('an edit into deny written straight to the store (no surface checked it) is refused by the run: the body never runs', async () => {
    const s = setup();
    const { agent, result, calls } = await pause(s);
    const denied = { payment_id: 'pay_1', amount: 2_000_000 };
    await s.store.addAnswer('c1', {
      approver: 'bob',
      decision: 'approve',
      at: s.clock.now(),
      args: '{"amount":2000000,"payment_id":"pay_1"}',
      argsHash: canonicalHash(denied),
    });
    await s.control.resolve(result.state);
    const error = await rejection(run(agent, result.state));
    expect(error).toBeInstanceOf(ActionDenied);
    expect((error as ActionDenied).reason).toBe('edit_denied');
    expect(calls).toEqual([]);
    expect((await s.store.listReceipts()).at(-1)).toMatchObject({ result: 'refused', reason: 'edit_denied' });
  });

  it('stored edited arguments that are not the ones their hash binds are refused by the run', async () => {
    const s = setup();
    const { agent, result, calls } = await pause(s);
    await s.store.addAnswer('c1', {
      approver: 'bob',
      decision: 'approve',
      at: s.clock.now(),
      args: '{"amount":900000,"payment_id":"pay_1"}',
      argsHash: canonicalHash(EDITED),
    });
    await s.control.resolve(result.state);
    const error = await rejection(run(agent, result.state));
    expect((error as ActionDenied).reason).toBe('edit_mismatch');
    expect(calls).toEqual([]);
  });

  it("a stored edit the door cannot run, or one the tool's schema refuses, is refused by the run: the body never runs", async () => {
    // a structured tool (outputSchema) runs only what the model wrote: an edit written straight to the store is edit_unsupported
    const s = setup();
    const { z } = await import('zod');
    const structured = refundTool(s, () => ({ id: 're_1' }), { outputSchema: z.object({ id: z.string() }) });
    const agent = agentWith(scripted([refundCall(PROPOSED, 'c1')], [assistantMessage('done')]), [structured.tool]);
    const paused = await run(agent, 'refund', { context: { user: 'alice' } });
    await s.store.addAnswer('c1', {
      approver: 'bob',
      decision: 'approve',
      at: s.clock.now(),
      args: '{"amount":200000,"payment_id":"pay_1"}',
      argsHash: canonicalHash(EDITED),
    });
    await s.control.resolve(paused.state);
    expect(((await rejection(run(agent, paused.state))) as ActionDenied).reason).toBe('edit_unsupported');
    expect(structured.calls).toEqual([]);
    // an edit bound by its hash that the tool's schema refuses (a string amount): edit_invalid, nothing runs
    const t = setup();
    const { agent: a2, result, calls } = await pause(t);
    const bad = { payment_id: 'pay_1', amount: 'lots' };
    await t.store.addAnswer('c1', {
      approver: 'bob',
      decision: 'approve',
      at: t.clock.now(),
      args: '{"amount":"lots","payment_id":"pay_1"}',
      argsHash: canonicalHash(bad),
    });
    await t.control.resolve(result.state);
    const error = await rejection(run(a2, result.state));
    expect((error as ActionDenied).reason).toBe('edit_invalid');
    expect(calls).toEqual([]);
    expect((await t.store.listReceipts()).at(-1)).toMatchObject({ result: 'refused', reason: 'edit_invalid' });
  });

  it('edited arguments that are not JSON at all (a BigInt, a cycle) are edit_invalid; nothing is recorded', async () => {
    const s = setup();
    const { result } = await pause(s);
    const cycle: Record<string, unknown> = { payment_id: 'pay_1' };
    cycle.self = cycle;
    for (const edit of [{ payment_id: 'pay_1', amount: 200_000n }, cycle]) {
      const error = await rejection(s.control.approve(result.state, result.interruptions[0]!, { approver: 'bob', arguments: edit }));
      expect((error as ActionDenied).reason).toBe('edit_invalid');
      expect((error as Error).message).toMatch(/not JSON/);
    }
    expect((await s.store.getRequest('c1'))?.answers).toEqual([]);
  });

  it('a surface with no policy for the action cannot decide an edit or a grant: edit_undecided, grant_undecided, one refused receipt each', async () => {
    const s = setup();
    await pause(s);
    const edit = await recordAnswer(s.store, 'c1', { approver: 'bob', decision: 'approve', at: s.clock.now(), arguments: EDITED });
    expect(edit).toMatchObject({ outcome: 'refused', code: 'edit_undecided' });
    const grant = await recordAnswer(s.store, 'c1', { approver: 'bob', decision: 'approve', at: s.clock.now(), grant: { hours: 1 } });
    expect(grant).toMatchObject({ outcome: 'refused', code: 'grant_undecided' });
    expect((await s.store.getRequest('c1'))?.answers).toEqual([]);
    expect((await s.store.listReceipts()).filter((r) => r.result === 'refused').map((r) => r.reason)).toEqual(['edit_undecided', 'grant_undecided']);
  });

  it("a door whose SDK runs the model's own item refuses an edit, its reason naming the door", async () => {
    const s = setup();
    await pause(s);
    const request = (await s.store.getRequest('c1'))!;
    await s.store.putRequest({ ...request, callId: 'sh1', door: { kind: 'shell', schema: { type: 'object' } } });
    const out = await recordAnswer(s.store, 'sh1', { approver: 'bob', decision: 'approve', at: s.clock.now(), arguments: EDITED }, { decide: () => undefined });
    expect(out).toMatchObject({ outcome: 'refused', code: 'edit_unsupported' });
    expect((out as { message: string }).message).toMatch(/shell command the model wrote/);
  });

  it('M-of-N: two approvers must approve the same edit; the one approving other arguments is refused', async () => {
    const s = setup({ approvalsRequired: 2 });
    const { agent, model, result, calls } = await pause(s);
    const item = result.interruptions[0]!;
    const first = await s.control.approve(result.state, item, { approver: 'bob', arguments: EDITED });
    expect(first.state).toBe('pending');
    // as proposed, or another edit: refused, nothing recorded
    for (const other of [undefined, { payment_id: 'pay_1', amount: 150_000 }]) {
      const error = await rejection(s.control.approve(result.state, item, { approver: 'carol', ...(other ? { arguments: other } : {}) }));
      expect((error as ActionDenied).reason).toBe('edit_mismatch');
    }
    expect((await s.store.getRequest('c1'))?.answers.map((a) => a.approver)).toEqual(['bob']);
    const second = await s.control.approve(result.state, item, { approver: 'carol', arguments: EDITED });
    expect(second.state).toBe('approved');
    await run(agent, result.state);
    expect(calls).toEqual([EDITED]);
    expect(toolOutputSeen(model, 1, 'c1')).toContain('amount 250000 → 200000');
    expect((await s.store.listReceipts()).find((r) => r.result === 'claimed')?.approvers).toEqual(['bob', 'carol']);
  });

  it('an approval that changes nothing is an approval as proposed (no edit recorded, no note)', async () => {
    const s = setup();
    const { agent, model, result, calls } = await pause(s);
    const request = await s.control.approve(result.state, result.interruptions[0]!, { approver: 'bob', arguments: { amount: 250_000, payment_id: 'pay_1' } });
    expect(request.answers[0]!.argsHash).toBeUndefined();
    await run(agent, result.state);
    expect(calls).toEqual([PROPOSED]);
    expect(toolOutputSeen(model, 1, 'c1')).toBe('refunded 250000 on pay_1');
  });

  it('a structured tool (outputSchema) files no schema and refuses edits, with the reason', async () => {
    const s = setup();
    const { z } = await import('zod');
    const { tool } = refundTool(s, () => ({ id: 're_1' }), { outputSchema: z.object({ id: z.string() }) });
    const agent = agentWith(scripted([refundCall(PROPOSED, 'c1')], [assistantMessage('done')]), [tool]);
    const result = await run(agent, 'refund', { context: { user: 'alice' } });
    expect((await s.store.getRequest('c1'))?.door).toEqual({ kind: 'function' });
    const error = await rejection(s.control.approve(result.state, result.interruptions[0]!, { approver: 'bob', arguments: EDITED }));
    expect((error as ActionDenied).reason).toBe('edit_unsupported');
    expect((error as Error).message).toMatch(/structured output/);
  });
});

describe('reject with a message, respond in the tool’s place', () => {
  it("a rejection's message reaches the model as the refusal's reason; nothing runs", async () => {
    const s = setup();
    const { agent, model, result, calls } = await pause(s);
    await s.control.reject(result.state, result.interruptions[0]!, { approver: 'bob', message: 'this customer was refunded yesterday' });
    await run(agent, result.state);
    expect(calls).toEqual([]);
    expect(toolOutputSeen(model, 1, 'c1')).toContain('rejected by bob: this customer was refunded yesterday');
  });

  it("a response: the body does not run, the model reads the result as the tool's, the receipt says responded", async () => {
    const s = setup();
    const { agent, model, result, calls } = await pause(s);
    const request = await s.control.respond(result.state, result.interruptions[0]!, { approver: 'bob', result: 'Refund re_77 was already issued on 2 May.' });
    expect(request.state).toBe('rejected');
    expect(request.answers[0]).toMatchObject({ decision: 'respond', result: 'Refund re_77 was already issued on 2 May.' });
    await run(agent, result.state);
    expect(calls).toEqual([]);
    expect(toolOutputSeen(model, 1, 'c1')).toBe('Refund re_77 was already issued on 2 May.');
    const receipts = await s.store.listReceipts();
    expect(receipts.map((r) => r.result)).toEqual(['requested', 'responded']);
    expect(receipts[1]!.response_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a response given elsewhere (the store) is applied by resolve: the model reads it, nothing runs', async () => {
    const s = setup();
    const { agent, model, result, calls } = await pause(s);
    await s.store.addAnswer('c1', { approver: 'bob', decision: 'respond', result: 'Done by hand.', at: s.clock.now() });
    const restored = await RunState.fromString(agent, result.state.toString());
    await s.control.resolve(restored);
    await run(agent, restored);
    expect(calls).toEqual([]);
    expect(toolOutputSeen(model, 1, 'c1')).toBe('Done by hand.');
  });

  it('an empty response, or one past 16000 characters, is refused; the requester cannot respond to their own call', async () => {
    const s = setup();
    const { result } = await pause(s);
    expect(((await rejection(s.control.respond(result.state, result.interruptions[0]!, { approver: 'bob', result: ' ' }))) as ActionDenied).reason).toBe(
      'respond_empty',
    );
    const long = await rejection(s.control.respond(result.state, result.interruptions[0]!, { approver: 'bob', result: 'x'.repeat(16_001) }));
    expect((long as ActionDenied).reason).toBe('respond_too_long');
    const own = await rejection(s.control.respond(result.state, result.interruptions[0]!, { approver: 'alice', result: 'ok' }));
    expect((own as ApprovalMismatch).reason).toBe('approver_is_requester');
    expect((await s.store.getRequest('c1'))?.state).toBe('pending');
  });
});
