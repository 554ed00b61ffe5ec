import { RealtimeAgent, RealtimeSession } from '@openai/agents/realtime';
import { ScriptedRealtimeTransport } from '@openai/agents/realtime/testing';
import { Agent, RunToolApprovalItem } from '@openai/agents';
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalMismatch } from '../../src/runtime/index.js';
import { refundTool, setup, type Setup } from './helpers.js';

/**
 * Protected tools in a `RealtimeSession` (voice agents, often in a browser), through the SDK's own
 * session and its `ScriptedRealtimeTransport` (the realtime counterpart of ScriptedModel: the
 * model's side is scripted, the session's tool handling is the SDK's). A realtime call pauses by
 * emitting `tool_approval_requested`, with no RunState: `control.requestRealtime` files it and
 * `control.resolveRealtime` applies the answer recorded elsewhere (serve, the CLI).
 */
interface Harness {
  s: Setup;
  session: RealtimeSession<{ user: string }>;
  transport: ScriptedRealtimeTransport;
  calls: Array<{ payment_id: string; amount: number }>;
  outputs: Map<string, string>;
  approvals: RunToolApprovalItem[];
  errors: unknown[];
}

const open: RealtimeSession<{ user: string }>[] = [];
afterEach(() => {
  for (const session of open.splice(0)) session.close();
});

async function connect(s: Setup = setup(), user = 'alice'): Promise<Harness> {
  const { tool, calls } = refundTool(s);
  const agent = new RealtimeAgent<{ user: string }>({ name: 'desk', instructions: 'Refund desk', tools: [tool as never] });
  const transport = new ScriptedRealtimeTransport();
  const session = new RealtimeSession(agent, { transport, context: { user } });
  open.push(session);
  const outputs = new Map<string, string>();
  const approvals: RunToolApprovalItem[] = [];
  const errors: unknown[] = [];
  const send = transport.sendFunctionCallOutput.bind(transport);
  transport.sendFunctionCallOutput = (toolCall, output, startResponse) => {
    outputs.set(toolCall.callId, output);
    send(toolCall, output, startResponse);
  };
  session.on('tool_approval_requested', (_context, _agent, request) => {
    if (request.type === 'function_approval') approvals.push(request.approvalItem);
  });
  session.on('error', (event) => errors.push(event.error));
  await session.connect({ apiKey: 'ek_test' });
  return { s, session, transport, calls, outputs, approvals, errors };
}

/** The model calls `refund` over the transport; resolves once the session answered the model or asked for a person. */
async function modelCalls(h: Harness, callId: string, args: Record<string, unknown>): Promise<void> {
  const asked = h.approvals.length;
  h.transport.emit('function_call', { type: 'function_call', name: 'refund', callId, arguments: JSON.stringify(args), responseId: `resp_${callId}` });
  for (let i = 0; i < 200 && !h.outputs.has(callId) && h.approvals.length === asked && h.errors.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
}

const BIG = { payment_id: 'pay_1', amount: 512_345 }; // approve band

describe('protected tools in a RealtimeSession', () => {
  it('allow runs once; deny is refused with the policy words and never runs', async () => {
    const h = await connect();
    await modelCalls(h, 'c_small', { payment_id: 'pay_1', amount: 4500 });
    await modelCalls(h, 'c_huge', { payment_id: 'pay_2', amount: 9_000_000 });
    expect(h.calls).toEqual([{ payment_id: 'pay_1', amount: 4500 }]);
    expect(h.outputs.get('c_small')).toBe('refunded');
    expect(h.outputs.get('c_huge')).toMatch(/stripe\.refund was refused \(denied by policy: rule\[2\]\)/);
    expect((await h.s.store.listReceipts()).map((r) => [r.call_id, r.result])).toEqual([
      ['c_small', 'allowed'],
      ['c_small', 'executed'],
      ['c_huge', 'denied'],
    ]);
  });

  it('approve: pauses, requestRealtime files it, another person approves elsewhere, resolveRealtime runs it exactly once', async () => {
    const h = await connect();
    await modelCalls(h, 'c1', BIG);
    expect(h.approvals).toHaveLength(1);
    expect(h.calls).toEqual([]);
    expect(h.outputs.has('c1')).toBe(false);

    const request = await h.s.control.requestRealtime(h.session, h.approvals[0]!);
    expect(request).toMatchObject({ callId: 'c1', action: 'stripe.refund', principal: 'alice', state: 'pending' });
    expect(await h.s.control.requestRealtime(h.session, h.approvals[0]!)).toMatchObject({ callId: 'c1' }); // idempotent
    expect(await h.s.store.listRequests()).toHaveLength(1);

    // still pending: nothing happens
    expect(await h.s.control.resolveRealtime(h.session, h.approvals[0]!)).toMatchObject({ state: 'pending' });
    expect(h.calls).toEqual([]);

    // the answer comes from elsewhere (serve, the CLI): the store, as another process would write it
    await h.s.store.addAnswer('c1', { approver: 'bob', decision: 'approve', at: h.s.clock.now() });
    const resolved = await h.s.control.resolveRealtime(h.session, h.approvals[0]!);
    expect(resolved).toMatchObject({ state: 'consumed' });
    expect(h.calls).toEqual([BIG]);
    expect(h.outputs.get('c1')).toBe('refunded');
    const receipts = (await h.s.store.listReceipts()).filter((r) => r.call_id === 'c1');
    expect(receipts.map((r) => r.result)).toEqual(['requested', 'claimed', 'executed']);
    expect(receipts[2]!.approvers).toEqual(['bob']);

    // resolving again runs nothing: the approval was used
    await h.s.control.resolveRealtime(h.session, h.approvals[0]!);
    expect(h.calls).toHaveLength(1);
    expect(h.errors).toEqual([]);
  });

  it('a rejection reaches the model with who said no, and the body never runs', async () => {
    const h = await connect();
    await modelCalls(h, 'c1', BIG);
    await h.s.control.requestRealtime(h.session, h.approvals[0]!);
    await h.s.store.addAnswer('c1', { approver: 'bob', decision: 'reject', reason: 'not this customer', at: h.s.clock.now() });
    expect(await h.s.control.resolveRealtime(h.session, h.approvals[0]!)).toMatchObject({ state: 'rejected' });
    expect(h.calls).toEqual([]);
    expect(h.outputs.get('c1')).toMatch(/refused \(rejected by bob: not this customer\)\. It did not run/);
  });

  it('issue 38: an approval with edits runs the edited call once in the session, the model told what changed; a response is read in its place', async () => {
    const h = await connect();
    await modelCalls(h, 'c1', BIG);
    await modelCalls(h, 'c2', { payment_id: 'pay_2', amount: 600_000 });
    await h.s.control.requestRealtime(h.session, h.approvals[0]!);
    await h.s.control.requestRealtime(h.session, h.approvals[1]!);
    // answered elsewhere (the store, as serve writes it): an edit for c1, a response for c2
    const edited = { payment_id: 'pay_1', amount: 400_000 };
    const { canonicalHash } = await import('../../src/runtime/canonical.js');
    await h.s.store.addAnswer('c1', {
      approver: 'bob',
      decision: 'approve',
      at: h.s.clock.now(),
      args: '{"amount":400000,"payment_id":"pay_1"}',
      argsHash: canonicalHash(edited),
    });
    await h.s.store.addAnswer('c2', { approver: 'bob', decision: 'respond', result: 'pay_2 was refunded last week', at: h.s.clock.now() });
    expect(await h.s.control.resolveRealtime(h.session, h.approvals[0]!)).toMatchObject({ state: 'consumed' });
    await h.s.control.resolveRealtime(h.session, h.approvals[1]!);
    expect(h.calls).toEqual([edited]);
    expect(h.outputs.get('c1')).toContain('Approved with changes by bob: amount 512345 → 400000');
    expect(h.outputs.get('c2')).toBe('pay_2 was refunded last week');
    expect(h.errors).toEqual([]);
  });

  it("the session's own approve, with no recorded approval, runs nothing", async () => {
    const h = await connect();
    await modelCalls(h, 'c1', BIG);
    await h.s.control.requestRealtime(h.session, h.approvals[0]!);
    const error = await h.session.approve(h.approvals[0]!).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApprovalMismatch);
    expect(h.calls).toEqual([]);
  });

  it('an approval expires: resolveRealtime refuses the call to the model', async () => {
    const h = await connect();
    await modelCalls(h, 'c1', BIG);
    await h.s.control.requestRealtime(h.session, h.approvals[0]!);
    await h.s.store.addAnswer('c1', { approver: 'bob', decision: 'approve', at: h.s.clock.now() });
    h.s.clock.advance(16 * 60_000);
    await h.s.control.resolveRealtime(h.session, h.approvals[0]!);
    expect(h.calls).toEqual([]);
    expect(h.outputs.get('c1')).toMatch(/its approval expired/);
  });

  it('refuses what is not a session and an item of a tool it does not protect', async () => {
    const h = await connect();
    await modelCalls(h, 'c1', BIG);
    await expect(h.s.control.requestRealtime({} as never, h.approvals[0]!)).rejects.toThrow(/take the RealtimeSession and the approvalItem/);
    const plain = new RunToolApprovalItem({ type: 'function_call', name: 'send_email', callId: 'c9', arguments: '{}' }, new Agent({ name: 'x', tools: [] }));
    await expect(h.s.control.requestRealtime(h.session, plain)).rejects.toThrow(/not a call of a tool protected by this control/);
    await expect(h.s.control.resolveRealtime(h.session, plain)).rejects.toThrow(/not a call of a tool protected by this control/);
  });
});
