import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  Agent,
  MCPServerStdio,
  RunState,
  Runner,
  run as sdkRun,
  computerTool,
  setTraceProcessors,
  setTracingDisabled,
  tool,
  toolNamespace,
  toolSearchTool,
  webSearchTool,
  type FunctionTool,
  type Span,
  type TracingProcessor,
} from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  bindAgentTools,
  bindLocalTools,
  bindProtectedTool,
  createControl,
  CtrlrunError,
  DuplicateEffect,
  memoryStore,
  run,
  verifyReceipts,
  type CompiledPolicy,
  type DecisionResult,
} from '../../src/runtime/index.js';
import { makePolicy, type Ctx } from './helpers.js';
// @ts-expect-error a plain ESM module (the child process imports it too)
import { recordingComputer } from '../helpers/computer-door.mjs';

type Action = 'stripe.refund' | 'stripe.charge.read' | 'desk.refunder' | 'host.computer';

/**
 * makePolicy's actions, plus the agent tool's own: allow, except the input "forbidden" or (for an
 * agent tool with its own parameters) the payment_id "forbidden" (deny); and a computer action.
 */
function agentPolicy(): CompiledPolicy {
  const base = makePolicy();
  const decide = (args: unknown): DecisionResult => {
    const a = args as { input?: unknown; payment_id?: unknown } | null;
    if (a?.input === 'ask a person') return { decision: 'approve', rule: 2, reason: 'rule[2]' };
    return a?.input === 'forbidden' || a?.payment_id === 'forbidden'
      ? { decision: 'deny', rule: 1, reason: 'rule[1]' }
      : { decision: 'allow', rule: 0, reason: 'rule[0]' };
  };
  const allow = (): DecisionResult => ({ decision: 'allow', rule: 0, reason: 'rule[0]' });
  return {
    ...base,
    actions: {
      ...base.actions,
      'desk.refunder': { id: 'desk.refunder', decide, controls: [], approvalsRequired: 1, maxAttempts: 1 },
      'host.computer': { id: 'host.computer', decide: allow, controls: [], approvalsRequired: 1, maxAttempts: 1 },
    },
  };
}

function world() {
  const store = memoryStore();
  const control = createControl({ store, identity: (rc) => (rc.context as Ctx)?.user ?? null });
  const policy = agentPolicy();
  const protectedTool = bindProtectedTool<Action>(control, policy);
  const doors = bindAgentTools<Action>(control, policy);
  const refunds: Array<{ payment_id: string; amount: number }> = [];
  const lookups: string[] = [];
  let failLookups = 0;
  const refund = protectedTool('stripe.refund', {
    name: 'refund',
    description: 'Refund a payment',
    parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
    execute: async (args) => {
      refunds.push(args);
      return 'refunded';
    },
  });
  const lookup = protectedTool('stripe.charge.read', {
    name: 'Lookup Charge',
    description: 'Look a charge up',
    parameters: z.object({ payment_id: z.string() }),
    execute: async ({ payment_id }) => {
      lookups.push(payment_id);
      if (failLookups-- > 0) throw new Error('the charge service timed out');
      return `charge ${payment_id}: 500`;
    },
  });
  const inner = (model: ScriptedModel) => new Agent<Ctx>({ name: 'refunder', instructions: 'Refunds payments', model, tools: [refund, lookup] });
  return {
    store,
    control,
    doors,
    refunds,
    lookups,
    inner,
    refund,
    lookup,
    failNextLookups: (n: number) => {
      failLookups = n;
    },
  };
}

const agentCall = (input: string, callId: string) => functionCall('refunder', { input }, { callId });

/** What the parent model was sent back for a call. */
function seen(model: ScriptedModel, index: number, callId: string): string {
  const input = model.calls[index]?.request.input;
  const item = Array.isArray(input)
    ? input.find((i) => (i as { type?: string; callId?: string }).type === 'function_call_result' && (i as { callId?: string }).callId === callId)
    : undefined;
  return JSON.stringify(item ?? null);
}

describe('protectAgentTool: a protected tool inside agent.asTool()', () => {
  it('the SDK alone: a body failure in the nested run reaches the parent model as "please try again", it retries, the body runs twice', async () => {
    const w = world();
    w.failNextLookups(1);
    const nested = new ScriptedModel([
      [functionCall('Lookup_Charge', { payment_id: 'p1' }, { callId: 'n1' })],
      [functionCall('Lookup_Charge', { payment_id: 'p1' }, { callId: 'n2' })],
      [assistantMessage('charge p1: 500')],
    ]);
    const parent = new ScriptedModel([[agentCall('look up p1', 'a1')], [agentCall('look up p1', 'a2')], [assistantMessage('done')]]);
    const desk = new Agent<Ctx>({ name: 'desk', model: parent, tools: [w.inner(nested).asTool({ toolName: 'refunder', toolDescription: 'refunds' })] });
    const result = await run(desk, 'look p1 up', { context: { user: 'alice' } });
    expect(result.finalOutput).toBe('done');
    expect(seen(parent, 1, 'a1')).toContain('Please try again');
    expect(w.lookups).toEqual(['p1', 'p1']);
  });

  it('a body failure in the nested run stops the run with the error itself: the parent model never retries, the body ran once', async () => {
    const w = world();
    w.failNextLookups(1);
    const nested = new ScriptedModel([[functionCall('Lookup_Charge', { payment_id: 'p1' }, { callId: 'n1' })], [assistantMessage('charge p1: 500')]]);
    const parent = new ScriptedModel([[agentCall('look up p1', 'a1')], [agentCall('look up p1', 'a2')], [assistantMessage('done')]]);
    const desk = new Agent<Ctx>({
      name: 'desk',
      model: parent,
      tools: [w.doors.protectAgentTool('desk.refunder', w.inner(nested), { toolName: 'refunder', toolDescription: 'refunds' })],
    });
    const error = await run(desk, 'look p1 up', { context: { user: 'alice' } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toContain('the charge service timed out');
    expect(w.lookups).toEqual(['p1']);
    expect(parent.calls).toHaveLength(1);
    const results = (await w.store.listReceipts()).map((r) => [r.action, r.result]);
    expect(results).toEqual([
      ['desk.refunder', 'allowed'],
      ['stripe.charge.read', 'allowed'],
      ['stripe.charge.read', 'failed'],
      ['desk.refunder', 'failed'],
    ]);
  });

  it("a refusal inside the nested run reaches the caller as the library's error (DuplicateEffect), not as text", async () => {
    const w = world();
    // the refund of p1 already happened
    const first = new Agent<Ctx>({
      name: 'desk',
      model: new ScriptedModel([[functionCall('refund', { payment_id: 'p1', amount: 500 }, { callId: 'r0' })], [assistantMessage('ok')]]),
      tools: [w.refund],
    });
    await run(first, 'refund p1', { context: { user: 'alice' } });
    expect(w.refunds).toHaveLength(1);

    const nested = new ScriptedModel([[functionCall('refund', { payment_id: 'p1', amount: 500 }, { callId: 'n1' })], [assistantMessage('refunded')]]);
    const parent = new ScriptedModel([[agentCall('refund p1 again', 'a1')], [assistantMessage('done')]]);
    const desk = new Agent<Ctx>({ name: 'desk', model: parent, tools: [w.doors.protectAgentTool('desk.refunder', w.inner(nested), { toolName: 'refunder' })] });
    const error = await run(desk, 'refund p1', { context: { user: 'alice' } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DuplicateEffect);
    expect(w.refunds).toHaveLength(1);
    expect(parent.calls).toHaveLength(1);
    expect(await verifyReceipts(w.store)).toMatchObject({ ok: true });
  });

  it('the call of the agent tool itself is decided: a denied call never starts the nested run and the model is told why', async () => {
    const w = world();
    const nested = new ScriptedModel([[assistantMessage('never')]]);
    const parent = new ScriptedModel([[agentCall('forbidden', 'a1')], [assistantMessage('done')]]);
    const desk = new Agent<Ctx>({ name: 'desk', model: parent, tools: [w.doors.protectAgentTool('desk.refunder', w.inner(nested), { toolName: 'refunder' })] });
    const result = await run(desk, 'go', { context: { user: 'alice' } });
    expect(result.finalOutput).toBe('done');
    expect(nested.calls).toHaveLength(0);
    expect(seen(parent, 1, 'a1')).toContain('desk.refunder');
    expect(seen(parent, 1, 'a1')).toContain('denied by policy');
    expect((await w.store.listReceipts()).map((r) => [r.action, r.result])).toEqual([['desk.refunder', 'denied']]);
  });

  it('an agent tool with its own parameters: typed as asTool types them, and the policy decides on those parameters', async () => {
    const w = world();
    const nested = new ScriptedModel([[assistantMessage('charge p1: 500')]]);
    const parent = new ScriptedModel([
      [functionCall('refunder', { payment_id: 'forbidden' }, { callId: 'a1' })],
      [functionCall('refunder', { payment_id: 'p1' }, { callId: 'a2' })],
      [assistantMessage('done')],
    ]);
    const parameters = z.object({ payment_id: z.string() });
    const agentTool = w.doors.protectAgentTool('desk.refunder', w.inner(nested), {
      toolName: 'refunder',
      toolDescription: 'refunds',
      parameters,
      // typed from `parameters`: a wrong property name here fails the type-check
      inputBuilder: ({ params }) => `look up ${params.payment_id}`,
    });
    const typed: FunctionTool<unknown, typeof parameters> = agentTool;
    expect(typed.name).toBe('refunder');
    const desk = new Agent<Ctx>({ name: 'desk', model: parent, tools: [agentTool] });
    const result = await run(desk, 'go', { context: { user: 'alice' } });
    expect(result.finalOutput).toBe('done');
    expect(seen(parent, 1, 'a1')).toContain('denied by policy');
    // only the allowed call ran the nested agent, with the input built from the parameters
    expect(nested.calls).toHaveLength(1);
    expect(JSON.stringify(nested.calls[0]?.request.input)).toContain('look up p1');
    expect((await w.store.listReceipts()).map((r) => [r.action, r.result])).toEqual([
      ['desk.refunder', 'denied'],
      ['desk.refunder', 'allowed'],
      ['desk.refunder', 'executed'],
    ]);
  });

  it('a nested call that needs a person pauses the parent run; a second person approves; the resume runs it once; a second resume runs nothing', async () => {
    const w = world();
    const nested1 = new ScriptedModel([[functionCall('refund', { payment_id: 'p7', amount: 500_000 }, { callId: 'n7' })]]);
    const parent1 = new ScriptedModel([[agentCall('refund p7', 'a7')]]);
    const agentTool = w.doors.protectAgentTool('desk.refunder', w.inner(nested1), { toolName: 'refunder' });
    const desk = new Agent<Ctx>({ name: 'desk', model: parent1, tools: [agentTool] });
    const paused = await run(desk, 'refund p7', { context: { user: 'alice' } });
    expect(paused.interruptions.map((i) => [i.name, (i.rawItem as { callId?: string }).callId])).toEqual([['refund', 'n7']]);
    expect(w.refunds).toEqual([]);
    const [request] = await w.control.request(paused.state);
    expect([request!.action, request!.principal, request!.state]).toEqual(['stripe.refund', 'alice', 'pending']);
    await w.control.approve(paused.state, paused.interruptions[0]!, { approver: 'bob' });
    const saved = paused.state.toString();

    // resume: the nested model answers, then the parent's
    const nestedModel = new ScriptedModel([[assistantMessage('refunded p7')]]);
    const parentModel = new ScriptedModel([[assistantMessage('done')]]);
    const tool2 = w.doors.protectAgentTool('desk.refunder', w.inner(nestedModel), { toolName: 'refunder' });
    const desk2 = new Agent<Ctx>({ name: 'desk', model: parentModel, tools: [tool2] });
    const state2 = await RunState.fromString(desk2, saved);
    await w.control.resolve(state2);
    const resumed = await run(desk2, state2, { context: { user: 'alice' } });
    expect(resumed.finalOutput).toBe('done');
    expect(w.refunds).toEqual([{ payment_id: 'p7', amount: 500_000 }]);

    // the same saved state again, forced through the SDK: the approval was used
    const desk3 = new Agent<Ctx>({
      name: 'desk',
      model: new ScriptedModel([[assistantMessage('again')]]),
      tools: [w.doors.protectAgentTool('desk.refunder', w.inner(new ScriptedModel([[assistantMessage('x')]])), { toolName: 'refunder' })],
    });
    const state3 = await RunState.fromString(desk3, saved);
    for (const item of state3.getInterruptions()) state3.approve(item);
    const replay = await run(desk3, state3).then(
      () => null,
      (e: unknown) => e,
    );
    expect(replay).toBeInstanceOf(CtrlrunError);
    expect((replay as { reason?: string }).reason).toBe('consumed');
    expect(w.refunds).toHaveLength(1);
  });

  it('the agent tool call itself at approve: filed as it pauses under the tool name, before the nested run starts (issue 21 item 5)', async () => {
    const w = world();
    const nested = new ScriptedModel([[assistantMessage('never asked')]]);
    const parent = new ScriptedModel([[agentCall('ask a person', 'a9')]]);
    const desk = new Agent<Ctx>({ name: 'desk', model: parent, tools: [w.doors.protectAgentTool('desk.refunder', w.inner(nested), { toolName: 'refunder' })] });
    const paused = await sdkRun(desk, 'go', { context: { user: 'alice' } });
    expect(paused.interruptions.map((i) => (i.rawItem as { callId?: string }).callId)).toEqual(['a9']);
    expect(nested.calls).toHaveLength(0);
    const filed = await w.store.listRequests();
    expect(filed.map((r) => [r.callId, r.action, r.toolName, r.principal, r.state, r.args])).toEqual([
      ['a9', 'desk.refunder', 'refunder', 'alice', 'pending', '{"input":"ask a person"}'],
    ]);
    expect(await w.control.request(paused.state)).toEqual(filed);
  });

  it('approve with edits (issue 38): the nested run starts once, with the input the approver wrote, and the model reads what changed', async () => {
    const w = world();
    const parent = new ScriptedModel([[agentCall('ask a person', 'a10')], [assistantMessage('done')]]);
    const nested = new ScriptedModel([[assistantMessage('looked at p7 only')]]);
    const desk = new Agent<Ctx>({ name: 'desk', model: parent, tools: [w.doors.protectAgentTool('desk.refunder', w.inner(nested), { toolName: 'refunder' })] });
    const paused = await run(desk, 'go', { context: { user: 'alice' } });
    expect((await w.store.getRequest('a10'))?.door?.kind).toBe('agent');
    await w.control.approve(paused.state, paused.interruptions[0]!, { approver: 'bob', arguments: { input: 'look at p7 only' } });
    await run(desk, paused.state);
    expect(nested.calls).toHaveLength(1);
    expect(JSON.stringify(nested.calls[0]!.request.input)).toContain('look at p7 only');
    expect(JSON.stringify(nested.calls[0]!.request.input)).not.toContain('ask a person');
    expect(seen(parent, 1, 'a10')).toContain('Approved with changes by bob: input \\"ask a person\\" → \\"look at p7 only\\"');
    expect(seen(parent, 1, 'a10')).toContain('looked at p7 only');
  });

  it('refuses needsApproval and a non-agent', () => {
    const w = world();
    expect(() => w.doors.protectAgentTool('desk.refunder', w.inner(new ScriptedModel([])), { needsApproval: true } as never)).toThrow(/remove `needsApproval`/);
    expect(() => w.doors.protectAgentTool('desk.refunder', {} as never)).toThrow(/pass an Agent/);
  });
});

describe('the nested run inherits traceIncludeSensitiveData: false', () => {
  const spans: Span<any>[] = [];
  const collector: TracingProcessor = {
    onTraceStart: async () => undefined,
    onTraceEnd: async () => undefined,
    onSpanStart: async () => undefined,
    onSpanEnd: async (span) => void spans.push(span),
    shutdown: async () => undefined,
    forceFlush: async () => undefined,
  };
  beforeAll(() => {
    setTraceProcessors([collector]);
    setTracingDisabled(false);
  });
  afterAll(() => {
    setTracingDisabled(true);
    setTraceProcessors([]);
  });

  async function tracedRun(protect: boolean) {
    spans.length = 0;
    const w = world();
    const nested = new ScriptedModel([[functionCall('Lookup_Charge', { payment_id: 'secret-p9' }, { callId: 'n9' })], [assistantMessage('ok')]]);
    const parent = new ScriptedModel([[agentCall('look up secret-p9', 'a9')], [assistantMessage('done')]]);
    const agentTool = protect
      ? w.doors.protectAgentTool('desk.refunder', w.inner(nested), { toolName: 'refunder' })
      : w.inner(nested).asTool({ toolName: 'refunder', toolDescription: '' });
    const desk = new Agent<Ctx>({ name: 'desk', model: parent, tools: [agentTool] });
    await new Runner({ traceIncludeSensitiveData: false, tracingDisabled: false }).run(desk, 'go', { context: { user: 'alice' } });
    const lookupSpan = spans.find(
      (s) => (s.spanData as { type?: string; name?: string }).type === 'function' && (s.spanData as { name?: string }).name === 'Lookup_Charge',
    );
    expect(lookupSpan, 'the nested tool call was traced').toBeDefined();
    return lookupSpan!.spanData as { input?: string; output?: string };
  }

  it('the SDK alone: the nested tool input and output are traced', async () => {
    const data = await tracedRun(false);
    expect(data.input).toContain('secret-p9');
  });

  it('protectAgentTool: the nested tool input and output are not traced', async () => {
    const data = await tracedRun(true);
    expect(data.input ?? '').not.toContain('secret-p9');
    expect(data.output ?? '').not.toContain('secret-p9');
  });
});

describe('protectAgent: the whole graph, through public fields', () => {
  it('names every door it cannot protect (a plain tool, a hosted tool, behind a handoff and an agent tool) and guards MCP servers', () => {
    const w = world();
    const github = new MCPServerStdio({ name: 'github', command: process.execPath, args: ['-e', ''] });
    const plain = tool({ name: 'wire_money', description: 'x', parameters: z.object({ to: z.string() }), execute: async () => 'sent' });
    const inner = new Agent<Ctx>({ name: 'refunder', tools: [w.refund, plain], mcpServers: [github] });
    const billing = new Agent<Ctx>({ name: 'billing', tools: [webSearchTool()] });
    const desk = new Agent<Ctx>({ name: 'desk', tools: [w.doors.protectAgentTool('desk.refunder', inner, { toolName: 'refunder' })], handoffs: [billing] });
    let message = '';
    try {
      w.doors.protectAgent(desk);
    } catch (error) {
      expect(error).toBeInstanceOf(CtrlrunError);
      message = (error as Error).message;
    }
    expect(message).toContain('2 door(s) of desk are not protected');
    expect(message).toContain('agent desk > agent tool refunder > agent refunder: function tool wire_money is not protected');
    expect(message).toContain('agent desk > agent billing: hosted tool web_search');
    // the MCP server was guarded on the server itself (what protectMcpServer does)
    expect(github.toolInputGuardrails?.length).toBe(1);
  });

  it('a computer tool: protectComputerTool passes, a plain computerTool is named', () => {
    const w = world();
    const local = bindLocalTools<Action>(w.control, agentPolicy());
    // a real computer of the door tests' own (nothing is run here: protectAgent only reads the graph)
    const screen = recordingComputer(tmpdir(), path.join(tmpdir(), 'unused-actions.log'));
    const guarded = new Agent<Ctx>({ name: 'desk', tools: [local.protectComputerTool('host.computer', { computer: screen })] });
    expect(w.doors.protectAgent(guarded)).toBe(guarded);
    const open = new Agent<Ctx>({ name: 'desk', tools: [computerTool({ computer: screen })] });
    expect(() => w.doors.protectAgent(open)).toThrow(/agent desk: computer tool computer_use_preview is not protected \(use protectComputerTool\)/);
  });

  it('a fully protected graph is returned as it is', () => {
    const w = world();
    const github = new MCPServerStdio({ name: 'github', command: process.execPath, args: ['-e', ''] });
    const inner = new Agent<Ctx>({ name: 'refunder', tools: [w.refund, w.lookup], mcpServers: [github] });
    const desk = new Agent<Ctx>({ name: 'desk', tools: [w.doors.protectAgentTool('desk.refunder', inner, { toolName: 'refunder' })] });
    expect(w.doors.protectAgent(desk)).toBe(desk);
    expect(github.toolInputGuardrails?.length).toBe(1);
    expect(w.doors.protectAgent(desk)).toBe(desk); // idempotent
    expect(github.toolInputGuardrails?.length).toBe(1);
  });

  // issue 35: protectAgent threw on toolSearchTool() ("hosted tool tool_search runs at OpenAI")
  it('toolSearchTool(): accepted; its deferred tools are doors of the graph, decided when the model calls them', async () => {
    const w = world();
    const deferred = bindProtectedTool<Action>(w.control, agentPolicy())('stripe.refund', {
      name: 'refund',
      description: 'Refund a payment',
      parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
      deferLoading: true,
      execute: async (args) => {
        w.refunds.push(args);
        return 'refunded';
      },
    });
    // the search runs at OpenAI (its default): the response carries the search, the tools it loaded, then the calls
    const loaded = [
      { type: 'tool_search_call' as const, callId: 'ts1', execution: 'server' as const, arguments: { query: 'refund' }, status: 'completed' },
      { type: 'tool_search_output' as const, callId: 'ts1', execution: 'server' as const, status: 'completed', tools: [{ type: 'function', name: 'refund' }] },
    ];
    const model = new ScriptedModel([
      [
        ...loaded,
        functionCall('refund', { payment_id: 'p1', amount: 50 }, { callId: 'c1' }),
        functionCall('refund', { payment_id: 'p2', amount: 5_000_000 }, { callId: 'c2' }),
      ],
      [assistantMessage('done')],
    ]);
    const desk = new Agent<Ctx>({ name: 'desk', model, tools: [toolSearchTool(), deferred] });
    expect(w.doors.protectAgent(desk)).toBe(desk);
    await run(desk, 'refund', { context: { user: 'alice' } });
    // allowed (small) ran; denied (beyond the approve band) did not, and the model was told
    expect(w.refunds).toEqual([{ payment_id: 'p1', amount: 50 }]);
    expect(seen(model, 1, 'c2')).toContain('refused');

    const plain = tool({ name: 'wire_money', description: 'x', parameters: z.object({ to: z.string() }), deferLoading: true, execute: async () => 'sent' });
    const open = new Agent<Ctx>({ name: 'desk', tools: [toolSearchTool(), plain] });
    expect(() => w.doors.protectAgent(open)).toThrow(/agent desk: function tool wire_money is not protected/);
    // a namespace's copies keep what protects them (and an unprotected one is still named)
    const grouped = new Agent<Ctx>({
      name: 'desk',
      tools: [toolSearchTool(), ...toolNamespace({ name: 'billing', description: 'Billing', tools: [w.refund] })],
    });
    expect(w.doors.protectAgent(grouped)).toBe(grouped);
    const openGroup = new Agent<Ctx>({ name: 'desk', tools: toolNamespace({ name: 'billing', description: 'Billing', tools: [w.refund, plain] }) });
    expect(() => w.doors.protectAgent(openGroup)).toThrow(/function tool wire_money is not protected/);
  });

  it("toolSearchTool({ execution: 'client', execute }): what execute returns is checked at run time; an unprotected tool stops the run and runs nothing", async () => {
    const w = world();
    const ran: string[] = [];
    const plain = tool({ name: 'wire_money', description: 'x', parameters: z.object({ to: z.string() }), execute: async ({ to }) => ran.push(to) && 'sent' });
    const search = (returned: FunctionTool<any, any, any>) => toolSearchTool({ execution: 'client', execute: async () => [returned] });
    const searchCall = { type: 'tool_search_call' as const, callId: 'ts1', execution: 'client' as const, arguments: { query: 'money' }, status: 'completed' };
    const scripted = () => new ScriptedModel([[searchCall], [functionCall('wire_money', { to: 'mallory' }, { callId: 'c1' })], [assistantMessage('done')]]);

    const open = new Agent<Ctx>({ name: 'desk', model: scripted(), tools: [search(plain)] });
    expect(w.doors.protectAgent(open)).toBe(open);
    const refused = await run(open, 'wire', { context: { user: 'alice' } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CtrlrunError);
    expect(String((refused as Error).message)).toMatch(/toolSearchTool's execute returned 1 tool\(s\) that are not protected[\s\S]*function tool wire_money/);
    expect(ran).toEqual([]);

    // a protected tool returned by execute is loaded and decided as any other
    const model = new ScriptedModel([[searchCall], [functionCall('refund', { payment_id: 'p9', amount: 70 }, { callId: 'c2' })], [assistantMessage('done')]]);
    const guarded = new Agent<Ctx>({ name: 'desk', model, tools: [search(w.refund)] });
    w.doors.protectAgent(guarded);
    w.doors.protectAgent(guarded); // idempotent: the executor is wrapped once
    await run(guarded, 'refund', { context: { user: 'alice' } });
    expect(w.refunds).toEqual([{ payment_id: 'p9', amount: 70 }]);
  });
});
