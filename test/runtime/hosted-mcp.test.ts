import { Agent, RunState } from '@openai/agents';
import { ScriptedModel, assistantMessage } from '@openai/agents/testing';
import { describe, expect, it } from 'vitest';
import {
  bindHostedMcp,
  createControl,
  memoryStore,
  run,
  verifyReceipts,
  type CompiledAction,
  type CompiledPolicy,
  type DecisionResult,
  type Store,
} from '../../src/runtime/index.js';
import { verifyDecisions } from '../../src/runtime/decision-log.js';

const matched = (decision: DecisionResult['decision'], rule: number): DecisionResult => ({ decision, rule, reason: `rule[${rule}]` });

/** gitmcp.call: pages < 5 allow, < 50 approve, else deny. */
function hostedPolicy(): CompiledPolicy {
  const call: CompiledAction = {
    id: 'gitmcp.call',
    decide(args) {
      const p = (args as { pages?: unknown } | null)?.pages;
      if (typeof p === 'number' && Number.isInteger(p) && p < 5) return matched('allow', 0);
      if (typeof p === 'number' && Number.isInteger(p) && p < 50) return matched('approve', 1);
      return matched('deny', 2);
    },
    controls: [],
    approvalsRequired: 1,
    maxAttempts: 1,
  };
  return { hash: 'd'.repeat(64), mode: 'enforce', actions: { 'gitmcp.call': call }, tools: {}, hostedMcp: { gitmcp: 'gitmcp.call' } };
}

interface Ctx {
  user?: string;
}

/** One "process" on a shared store: its own control and binding. */
function processOn(store: Store, policy = hostedPolicy()) {
  const control = createControl({ store, identity: (rc) => (rc.context as Ctx)?.user ?? null });
  return { control, protectHostedMcp: bindHostedMcp(control, policy) };
}

/** What the Responses API sends for a hosted MCP call that needs approval, as the SDK's OpenAI converter hands it to the runner. */
function approvalRequest(id: string, args: Record<string, unknown>) {
  return {
    type: 'hosted_tool_call' as const,
    id,
    name: 'mcp_approval_request',
    status: 'completed' as const,
    providerData: { type: 'mcp_approval_request', id, server_label: 'gitmcp', name: 'fetch_docs', arguments: JSON.stringify(args) },
  };
}

/** The hosted call's result, as the API returns it after an approval. */
function mcpCall(requestId: string) {
  return {
    type: 'hosted_tool_call' as const,
    id: `mcp_${requestId}`,
    name: 'mcp_call',
    status: 'completed' as const,
    output: 'the docs',
    providerData: { type: 'mcp_call', id: `mcp_${requestId}`, server_label: 'gitmcp', name: 'fetch_docs', arguments: '{}', approval_request_id: requestId },
  };
}

/** The approval responses the model received in its `index`-th call. */
function responsesSent(model: ScriptedModel, index: number): Array<{ id: string; approve: boolean; reason?: string }> {
  const input = model.calls[index]?.request.input;
  if (!Array.isArray(input)) return [];
  return input
    .filter((i) => (i as { name?: string }).name === 'mcp_approval_response')
    .map((i) => {
      const d = (i as unknown as { providerData: { approval_request_id: string; approve: boolean; reason?: string } }).providerData;
      return { id: d.approval_request_id, approve: d.approve, ...(d.reason ? { reason: d.reason } : {}) };
    });
}

function agentWith(model: ScriptedModel, protect: ReturnType<typeof processOn>['protectHostedMcp']) {
  return new Agent<Ctx>({ name: 'docs', model, tools: [protect({ serverLabel: 'gitmcp', serverUrl: 'https://gitmcp.io/openai/openai-agents-js' })] });
}

describe('protectHostedMcp', () => {
  it('forces requireApproval always and refuses an inline onApproval, a weaker requireApproval, an unmapped server', () => {
    const { protectHostedMcp } = processOn(memoryStore());
    const made = protectHostedMcp({ serverLabel: 'gitmcp', serverUrl: 'https://example.test/mcp' });
    expect(made.providerData).toMatchObject({ type: 'mcp', server_label: 'gitmcp', require_approval: 'always' });
    expect(made.providerData.on_approval).toBeUndefined();
    expect(() => protectHostedMcp({ serverLabel: 'gitmcp', serverUrl: 'x', onApproval: (async () => ({ approve: true })) as never })).toThrow(
      /remove `onApproval`/,
    );
    expect(() => protectHostedMcp({ serverLabel: 'gitmcp', serverUrl: 'x', requireApproval: 'never' as never })).toThrow(/always 'always'/);
    expect(() => protectHostedMcp({ serverLabel: 'other', serverUrl: 'x' })).toThrow(/maps no action to this server/);
  });
});

describe('run() and hosted MCP approval requests (scripted mcp_approval_request items)', () => {
  it('allow: the policy approves, the yes is recorded and sent once; deny: the model gets approve:false with the reason', async () => {
    const store = memoryStore();
    const p = processOn(store);
    const model = new ScriptedModel([
      [approvalRequest('mcpr_small', { pages: 1 }), approvalRequest('mcpr_huge', { pages: 99 })],
      [mcpCall('mcpr_small'), assistantMessage('done')],
    ]);
    const result = await run(agentWith(model, p.protectHostedMcp), 'read the docs', { context: { user: 'alice' } });
    expect(result.interruptions).toEqual([]);
    expect(result.finalOutput).toBe('done');
    const sent = responsesSent(model, 1);
    expect(sent.map((r) => [r.id, r.approve])).toEqual([
      ['mcpr_small', true],
      ['mcpr_huge', false],
    ]);
    expect(sent[1]!.reason).toContain('The call to gitmcp.call was refused (denied by policy: rule[2])');
    const receipts = await store.listReceipts();
    expect(receipts.map((r) => [r.call_id, r.result, r.approvers])).toEqual([
      ['mcpr_small', 'requested', []],
      ['mcpr_small', 'approved', ['ctrlrun:policy']],
      ['mcpr_huge', 'denied', []],
      ['mcpr_small', 'claimed', ['ctrlrun:policy']],
    ]);
    expect((await store.getRequest('mcpr_small'))?.state).toBe('consumed');
    expect((await store.getRequest('mcpr_huge'))?.state).toBe('rejected');
    expect(await verifyReceipts(store)).toEqual({ ok: true, count: 4 });
    // the decision log: one entry per decided call, the policy's answer (allow filed as requested, deny)
    const log = await store.listDecisions!();
    expect(log.map((e) => [e.call_id, e.action, e.decision, e.result, e.reason, e.args, e.principal?.agent])).toEqual([
      ['mcpr_small', 'gitmcp.call', 'allow', 'requested', 'rule[0]', '{"pages":1}', 'alice'],
      ['mcpr_huge', 'gitmcp.call', 'deny', 'denied', 'rule[2]', '{"pages":99}', 'alice'],
    ]);
    expect(await verifyDecisions(store)).toEqual({ ok: true, count: 2 });
  });

  it('approve: pauses, a second person approves in another process, the yes is sent once; a second resume sends no', async () => {
    const store = memoryStore();
    const p1 = processOn(store);
    const m1 = new ScriptedModel([[approvalRequest('mcpr_mid', { pages: 20 })]]);
    const paused = await run(agentWith(m1, p1.protectHostedMcp), 'read', { context: { user: 'alice' } });
    expect(paused.interruptions).toHaveLength(1);
    const pending = await p1.control.resolve(paused.state);
    expect(pending.map((r) => [r.callId, r.action, r.toolName, r.principal, r.state, r.args])).toEqual([
      ['mcpr_mid', 'gitmcp.call', 'gitmcp/fetch_docs', 'alice', 'pending', '{"pages":20}'],
    ]);
    const saved = paused.state.toString();

    const p2 = processOn(store);
    const m2 = new ScriptedModel([[mcpCall('mcpr_mid'), assistantMessage('read it')]]);
    const agent2 = agentWith(m2, p2.protectHostedMcp);
    const state2 = await RunState.fromString(agent2, saved);
    await expect(p2.control.approve(state2, state2.getInterruptions()[0]!, { approver: 'alice' })).rejects.toMatchObject({ reason: 'approver_is_requester' });
    await p2.control.approve(state2, state2.getInterruptions()[0]!, { approver: 'bob' });
    const resumed = await run(agent2, state2);
    expect(resumed.finalOutput).toBe('read it');
    expect(responsesSent(m2, 0).map((r) => [r.id, r.approve])).toEqual([['mcpr_mid', true]]);

    // the same saved state again, approved through the SDK alone: the yes was used, a no is sent
    const p3 = processOn(store);
    const m3 = new ScriptedModel([[assistantMessage('again')]]);
    const agent3 = agentWith(m3, p3.protectHostedMcp);
    const state3 = await RunState.fromString(agent3, saved);
    state3.approve(state3.getInterruptions()[0]!);
    await run(agent3, state3);
    const again = responsesSent(m3, 0);
    expect(again.map((r) => [r.id, r.approve])).toEqual([['mcpr_mid', false]]);
    expect(again[0]!.reason).toContain('already used');
    expect((await store.listReceipts()).map((r) => r.result)).toEqual(['requested', 'refused', 'approved', 'claimed', 'refused']);
    // logged when it paused; the person's answer, the claim and the refused second resume add none
    expect((await store.listDecisions!()).map((e) => [e.call_id, e.decision, e.result])).toEqual([['mcpr_mid', 'approve', 'requested']]);
    expect(await verifyDecisions(store)).toEqual({ ok: true, count: 1 });
    expect(await verifyReceipts(store)).toMatchObject({ ok: true });
  });

  it('issue 38: edits and responses are refused at this door (the provider runs the call); a grant answers the next call in its bounds, naming it', async () => {
    const store = memoryStore();
    const p = processOn(store);
    const m1 = new ScriptedModel([[approvalRequest('mcpr_a', { pages: 20 })]]);
    const paused = await run(agentWith(m1, p.protectHostedMcp), 'read', { context: { user: 'alice' } });
    await p.control.resolve(paused.state);
    expect((await store.getRequest('mcpr_a'))?.door).toEqual({ kind: 'hosted_mcp' });
    const item = paused.state.getInterruptions()[0]!;
    const edit = await p.control.approve(paused.state, item, { approver: 'bob', arguments: { pages: 10 } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(edit).toMatchObject({ reason: 'edit_unsupported', message: expect.stringContaining('the provider runs a hosted MCP call itself') });
    const respond = await p.control.respond(paused.state, item, { approver: 'bob', result: 'the docs say 42' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(respond).toMatchObject({ reason: 'respond_unsupported' });
    // approved, with a grant (pages within bounds): the next request is answered by it, not paused
    await p.control.approve(paused.state, item, { approver: 'bob', grant: { hours: 1, bounds: { pages_lte: 30 } } });
    const [grant] = await p.control.grants();
    const m2 = new ScriptedModel([
      [mcpCall('mcpr_a'), approvalRequest('mcpr_b', { pages: 25 })],
      [mcpCall('mcpr_b'), assistantMessage('read both')],
    ]);
    const agent2 = agentWith(m2, p.protectHostedMcp);
    const resumed = await run(agent2, await RunState.fromString(agent2, paused.state.toString()));
    expect(resumed.interruptions).toEqual([]);
    expect(
      responsesSent(m2, 1)
        .filter((r) => r.id === 'mcpr_b')
        .map((r) => r.approve),
    ).toEqual([true]);
    expect((await store.listReceipts()).filter((r) => r.call_id === 'mcpr_b').map((r) => [r.result, r.approvers, r.approval_grant])).toEqual([
      ['requested', [], undefined],
      ['approved', ['bob'], grant!.id],
      ['claimed', ['bob'], undefined],
    ]);
  });

  it("the claim is bound to the run's principal: a resume acting for another principal sends a no and leaves the approval for the genuine run", async () => {
    const store = memoryStore();
    const p1 = processOn(store);
    const m1 = new ScriptedModel([[approvalRequest('mcpr_who', { pages: 20 })]]);
    const paused = await run(agentWith(m1, p1.protectHostedMcp), 'read', { context: { user: 'alice' } });
    await p1.control.resolve(paused.state);
    const approving = await RunState.fromString(agentWith(new ScriptedModel([]), p1.protectHostedMcp), paused.state.toString());
    await p1.control.approve(approving, approving.getInterruptions()[0]!, { approver: 'bob' });
    const saved = approving.toString();

    // another process whose identity says mallory resumes alice's approved state: the binding differs
    const control = createControl({ store, identity: () => 'mallory' });
    const mallory = { control, protectHostedMcp: bindHostedMcp(control, hostedPolicy()) };
    const mm = new ScriptedModel([[assistantMessage('no docs')]]);
    const agentM = agentWith(mm, mallory.protectHostedMcp);
    await run(agentM, await RunState.fromString(agentM, saved));
    expect(responsesSent(mm, 0).map((r) => [r.id, r.approve])).toEqual([['mcpr_who', false]]);
    expect((await store.listReceipts()).filter((r) => r.result === 'refused').map((r) => r.reason)).toEqual(['approval_mismatch']);
    expect((await store.getRequest('mcpr_who'))?.state).toBe('approved'); // still there for alice

    // alice's own resume claims it and the yes is sent, once
    const p2 = processOn(store);
    const m2 = new ScriptedModel([[mcpCall('mcpr_who'), assistantMessage('read it')]]);
    const agent2 = agentWith(m2, p2.protectHostedMcp);
    const resumed = await run(agent2, await RunState.fromString(agent2, saved));
    expect(resumed.finalOutput).toBe('read it');
    expect(responsesSent(m2, 0).map((r) => [r.id, r.approve])).toEqual([['mcpr_who', true]]);
    expect((await store.listReceipts()).filter((r) => r.result === 'claimed').map((r) => r.principal)).toEqual(['alice']);
  });

  it('an approval the SDK holds with no record in the store (a bare state.approve, alwaysApprove) is sent as a no', async () => {
    const store = memoryStore();
    const p = processOn(store);
    const m1 = new ScriptedModel([[approvalRequest('mcpr_bare', { pages: 30 })]]);
    const agent = agentWith(m1, p.protectHostedMcp);
    const paused = await run(agent, 'read', { context: { user: 'alice' } });
    const m2 = new ScriptedModel([[assistantMessage('ok')]]);
    const agent2 = agentWith(m2, p.protectHostedMcp);
    const state = await RunState.fromString(agent2, paused.state.toString());
    state.approve(state.getInterruptions()[0]!, { alwaysApprove: true });
    let seenByUserFilter = 0;
    await run(agent2, state, {
      callModelInputFilter: ({ modelData }) => {
        seenByUserFilter++;
        return modelData;
      },
    });
    expect(seenByUserFilter).toBe(1); // the user's own filter still runs, before ours
    const sent = responsesSent(m2, 0);
    expect(sent.map((r) => [r.id, r.approve])).toEqual([['mcpr_bare', false]]);
    expect(sent[0]!.reason).toContain('no approval for this call is recorded in the store');
    // run() recorded the request for a person when the run paused; the SDK-only yes was refused
    expect((await store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([
      ['requested', 'rule[1]'],
      ['refused', 'approval_unrecorded'],
    ]);
  });
});
