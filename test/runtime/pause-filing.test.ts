import { rmSync } from 'node:fs';
import { RunContext, Runner, run as sdkRun, type FunctionTool, type RunToolApprovalItem } from '@openai/agents';
import { RealtimeAgent, RealtimeSession } from '@openai/agents/realtime';
import { ScriptedRealtimeTransport } from '@openai/agents/realtime/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CtrlrunError, memoryStore, run, unwrap, type Store } from '../../src/runtime/index.js';
import { coreScope } from '../../src/runtime/core/action-core.js';
import { pausedRequest } from '../../src/runtime/core/pause.js';
import { argsHashOf, INTERNALS } from '../../src/runtime/internals.js';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import { cli } from '../helpers/cli.js';
import { tempRepo } from '../cli/operator-helpers.js';
import { agentWith, assistantMessage, refTool, refundCall, refundTool, scripted, setup, type Setup } from './helpers.js';

/**
 * Issue 21 item 5: a call the policy pauses is filed in the store where the pause is decided (the
 * tool's needsApproval), whoever drives the run: the SDK's own `run()`, `Runner.run`, a streamed
 * run, a `RealtimeSession`. No `control.request(state)` is called anywhere in these tests unless
 * a test says so.
 */

const BIG = { payment_id: 'pay_1', amount: 512_345 }; // approve band
const BIG_TEXT = '{"payment_id":"pay_1","amount":512345}';

function pausingAgent(s: Setup, steps = 2) {
  const { tool, calls } = refundTool(s);
  const model = scripted([refundCall(BIG, 'c1')], ...Array.from({ length: steps - 1 }, () => [assistantMessage('done')]));
  return { agent: agentWith(model, [tool]), model, calls };
}

/** The one filed request and the one `requested` receipt, bound to alice and these arguments. */
async function expectFiledOnce(s: Setup) {
  const requests = await s.store.listRequests();
  expect(requests).toHaveLength(1);
  expect(requests[0]).toMatchObject({
    callId: 'c1',
    action: 'stripe.refund',
    toolName: 'refund',
    principal: 'alice',
    state: 'pending',
    policyHash: s.policy.hash,
    argsHash: argsHashOf(BIG_TEXT, undefined),
    args: '{"amount":512345,"payment_id":"pay_1"}',
  });
  const receipts = await s.store.listReceipts();
  expect(receipts.map((r) => [r.result, r.call_id, r.principal, r.args_hash, r.decision])).toEqual([
    ['requested', 'c1', 'alice', requests[0]!.argsHash, 'approve'],
  ]);
}

/** A store whose request methods fail (the database went away) while everything else works. */
function failingRequests(method: 'putRequest' | 'getRequest'): Store {
  const store = memoryStore();
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key === method) return async () => Promise.reject(new Error('SQLITE_IOERR: disk I/O error'));
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

describe('a paused call is filed wherever the run is driven', () => {
  const repos: string[] = [];
  afterEach(() => {
    for (const root of repos.splice(0)) rmSync(root, { recursive: true, force: true });
  });

  it("the SDK's own run(): filed in the SQLite store; `approvals list` shows it, `approvals approve` finds it, the resumed call runs once", async () => {
    const repo = tempRepo();
    repos.push(repo.root);
    const store = sqliteStore({ path: repo.dbPath });
    try {
      const s = setup({ store });
      const { agent, calls } = pausingAgent(s);
      const result = await sdkRun(agent, 'refund pay_1', { context: { user: 'alice' } });
      expect(result.interruptions).toHaveLength(1);
      expect(calls).toEqual([]);
      await expectFiledOnce(s);

      const cliIn = (args: string[]) => cli(args, { cwd: repo.nested, env: { NO_COLOR: '1' } });
      const listed = await cliIn(['approvals', 'list', '--pending']);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toMatch(/c1\s+pending\s+stripe\.refund\s+alice\s+0\/1/);
      const approved = await cliIn(['approvals', 'approve', 'c1', '--as', 'bob']);
      expect(approved.code, approved.stderr).toBe(0);
      expect(approved.stdout).toMatch(/Approved c1 \(stripe\.refund\) as bob \(1\/1\)/);

      // the app applies the answer recorded by the CLI and resumes: the body runs once
      expect(await s.control.resolve(result.state)).toEqual([]);
      const resumed = await sdkRun(agent, result.state, { context: { user: 'alice' } });
      expect(resumed.finalOutput).toBe('done');
      expect(calls).toEqual([BIG]);
      expect((await store.getRequest('c1'))?.state).toBe('consumed');
      expect((await store.listReceipts()).map((r) => r.result)).toEqual(['requested', 'approved', 'claimed', 'executed']);
      // the decision log: one entry, written at the pause; `receipts log` shows the CLI's answer beside it
      expect((await store.listDecisions!()).map((e) => [e.call_id, e.decision, e.result])).toEqual([['c1', 'approve', 'requested']]);
      const log = await cliIn(['receipts', 'log', '--json']);
      expect(log.code, log.stderr).toBe(0);
      expect(JSON.parse(log.stdout)).toEqual([expect.objectContaining({ call_id: 'c1', answer: { state: 'consumed', approvedBy: ['bob'], rejectedBy: [] } })]);
    } finally {
      await store.close();
    }
  });

  it('Runner.run: filed once, bound to the principal and the arguments', async () => {
    const s = setup();
    const { agent, calls } = pausingAgent(s);
    const result = await new Runner().run(agent, 'refund pay_1', { context: { user: 'alice' } });
    expect(result.interruptions).toHaveLength(1);
    expect(calls).toEqual([]);
    await expectFiledOnce(s);
  });

  it('a streamed run: filed by the time the stream pauses', async () => {
    const s = setup();
    const { agent, calls } = pausingAgent(s);
    const result = await sdkRun(agent, 'refund pay_1', { context: { user: 'alice' }, stream: true });
    for await (const _event of result) void _event;
    await result.completed;
    expect(result.interruptions).toHaveLength(1);
    expect(calls).toEqual([]);
    await expectFiledOnce(s);
  });

  it('resuming with the call still unanswered asks needsApproval again: no second request, no second receipt, nothing rewritten', async () => {
    const s = setup();
    const { agent, calls } = pausingAgent(s, 3);
    const first = await sdkRun(agent, 'refund pay_1', { context: { user: 'alice' } });
    const filed = await s.store.getRequest('c1');
    const again = await sdkRun(agent, first.state, { context: { user: 'alice' } });
    expect(again.interruptions).toHaveLength(1);
    expect(await s.store.getRequest('c1')).toEqual(filed);
    expect(await s.control.request(again.state)).toEqual([filed]);
    expect(calls).toEqual([]);
    await expectFiledOnce(s);
  });

  it('a request under the same call id for other arguments is never rebound: the call stays unrun and resolve refuses it', async () => {
    const s = setup();
    const other = {
      callId: 'c1',
      action: 'stripe.refund',
      toolName: 'refund',
      argsHash: argsHashOf('{"payment_id":"pay_9","amount":600000}', undefined)!,
      args: '{"amount":600000,"payment_id":"pay_9"}',
      policyHash: s.policy.hash,
      principal: 'alice',
      approvalsRequired: 1,
      createdAt: 1,
    };
    const before = await s.store.putRequest(other);
    const { agent, model, calls } = pausingAgent(s, 2);
    const result = await sdkRun(agent, 'refund pay_1', { context: { user: 'alice' } });
    expect(result.interruptions).toHaveLength(1);
    expect(await s.store.listRequests()).toEqual([before]);
    expect(await s.store.listReceipts()).toEqual([]);
    // answering the other call's request does not let this one run
    await s.store.addAnswer('c1', { approver: 'bob', decision: 'approve', at: s.clock.now() });
    await s.control.resolve(result.state);
    await run(agent, result.state, { context: { user: 'alice' } });
    expect(calls).toEqual([]);
    expect(model.calls).toHaveLength(2);
    expect((await s.store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([['refused', 'approval_mismatch']]);
  });

  it('another process filing between the read and the write: its request stands, no receipt of ours', async () => {
    const store = memoryStore();
    const raced: Store = new Proxy(store, {
      get(target, key, receiver) {
        if (key === 'getRequest') {
          return async (callId: string) => {
            // the other process writes its request for this call just after our read
            await target.putRequest({
              callId,
              action: 'stripe.refund',
              toolName: 'refund',
              argsHash: argsHashOf(BIG_TEXT, undefined)!,
              args: '{"amount":512345,"payment_id":"pay_1"}',
              policyHash: 'f'.repeat(64),
              principal: 'alice',
              approvalsRequired: 1,
              createdAt: 7,
            });
            return null;
          };
        }
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const s = setup({ store: raced });
    const { agent } = pausingAgent(s);
    await sdkRun(agent, 'refund pay_1', { context: { user: 'alice' } });
    expect((await store.listRequests()).map((r) => r.createdAt)).toEqual([7]);
    expect(await store.listReceipts()).toEqual([]);
  });

  for (const method of ['putRequest', 'getRequest'] as const) {
    it(`the store failing (${method}) while filing: the run stops with a CtrlrunError saying so; the body never runs`, async () => {
      const s = setup({ store: failingRequests(method) });
      const { agent, calls } = pausingAgent(s);
      const error = await sdkRun(agent, 'refund pay_1', { context: { user: 'alice' } }).then(
        () => null,
        (e: unknown) => unwrap(e),
      );
      expect(error).toBeInstanceOf(CtrlrunError);
      expect((error as CtrlrunError).message).toMatch(
        /stripe\.refund needs a person's approval, but its request could not be filed in the store \(SQLITE_IOERR: disk I\/O error\); the call did not run/,
      );
      expect((error as CtrlrunError).callId).toBe('c1');
      expect(calls).toEqual([]);
      // ctrlrun's own run() hands it back as itself too
      const again = await run(pausingAgent(s).agent, 'refund pay_1', { context: { user: 'alice' } }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(again).toBeInstanceOf(CtrlrunError);
    });
  }

  it('what needsApproval cannot bind exactly is not filed: no call id; an integer the SDK parse rounded (control.request files it from the text)', () => {
    const s = setup();
    const scope = coreScope(s.control[INTERNALS], s.policy, 'stripe.refund', {});
    expect(pausedRequest(scope, { callId: 'c1', toolName: 'refund' }, 'alice', BIG, 5)).toMatchObject({
      callId: 'c1',
      principal: 'alice',
      createdAt: 5,
      approvalsRequired: 1,
    });
    expect(pausedRequest(scope, { callId: undefined, toolName: 'refund' }, 'alice', BIG, 5)).toBeNull();
    expect(pausedRequest(scope, { callId: '', toolName: 'refund' }, 'alice', BIG, 5)).toBeNull();
    // JSON.parse('9007199254740993') is 9007199254740992: a hash of it would bind other arguments than the model's
    expect(pausedRequest(scope, { callId: 'c1', toolName: 'refund' }, 'alice', { ...BIG, ref: JSON.parse('9007199254740993') as number }, 5)).toBeNull();
  });

  it('a call its zod schema refuses, asked before the SDK validates (SDK 0.5): no pause, nothing filed, no null the model never sent', async () => {
    const s = setup();
    const tool = s.protectedTool('stripe.refund', {
      name: 'refund',
      description: 'Refund a payment',
      parameters: z.object({ payment_id: z.string(), amount: z.number().int(), reason: z.string() }) as never,
      execute: async () => 'refunded',
    }) as FunctionTool;
    const ask = (input: unknown, callId: string) => tool.needsApproval(new RunContext<unknown>({ user: 'alice' }), input as never, callId);
    // an older SDK hands needsApproval JSON.parse of the text, unvalidated: `reason` left out, `payment_id` of the wrong type
    expect(await ask({ payment_id: 'pay_1', amount: 512_345 }, 'c1')).toBe(false);
    expect(await ask({ payment_id: 42, amount: 512_345, reason: 'moved' }, 'c2')).toBe(false);
    expect(await s.store.listRequests()).toEqual([]);
    expect(await s.store.listReceipts()).toEqual([]);
    // what the schema admits still pauses, filed as sent
    expect(await ask({ payment_id: 'pay_1', amount: 512_345, reason: 'moved' }, 'c3')).toBe(true);
    expect((await s.store.listRequests()).map((r) => [r.callId, r.args])).toEqual([['c3', '{"amount":512345,"payment_id":"pay_1","reason":"moved"}']]);
  });

  it("a zod tool's optional field the model filled: filed at the pause", async () => {
    const s = setup();
    const tool = s.protectedTool('stripe.refund', {
      name: 'refund',
      description: 'Refund a payment',
      parameters: z.object({ payment_id: z.string(), amount: z.number().int(), note: z.string().optional() }),
      execute: async () => 'refunded',
    });
    const text = '{"payment_id":"pay_1","amount":512345,"note":"late"}';
    const agent = agentWith(scripted([refundCall(text, 'c1')], [assistantMessage('done')]), [tool]);
    await sdkRun(agent, 'refund pay_1', { context: { user: 'alice' } });
    expect(await s.store.getRequest('c1')).toMatchObject({ argsHash: argsHashOf(text, undefined) });
  });

  it('a JSON-schema tool (strict: false) whose optional property the model leaves out: the SDK passes the text as parsed; the request binds it as sent', async () => {
    const s = setup();
    const tool = s.protectedTool('stripe.refund', {
      name: 'refund',
      description: 'Refund a payment',
      strict: false,
      parameters: {
        type: 'object',
        properties: { payment_id: { type: 'string' }, amount: { type: 'integer' }, note: { type: 'string' } },
        required: ['payment_id', 'amount'],
        additionalProperties: true,
      },
      execute: async () => 'refunded',
    });
    const agent = agentWith(scripted([refundCall(BIG_TEXT, 'c1')], [assistantMessage('done')]), [tool]);
    const result = await sdkRun(agent, 'refund pay_1', { context: { user: 'alice' } });
    expect(await s.store.getRequest('c1')).toMatchObject({ argsHash: argsHashOf(BIG_TEXT, undefined), args: '{"amount":512345,"payment_id":"pay_1"}' });
    expect(await s.control.approve(result.state, result.interruptions[0]!, { approver: 'bob' })).toMatchObject({ state: 'approved' });
  });

  it('an integer beyond 2^53 in a paused call: not filed at the pause; control.request(state) files it bound to the exact text', async () => {
    const s = setup();
    const { tool, calls } = refTool(s, { strict: true });
    const text = '{"payment_id":"pay_1","amount":512345,"ref":9007199254740993}';
    const agent = agentWith(scripted([refundCall(text, 'c1')], [assistantMessage('done')]), [tool]);
    const result = await sdkRun(agent, 'refund pay_1', { context: { user: 'alice' } });
    expect(result.interruptions).toHaveLength(1);
    expect(await s.store.listRequests()).toEqual([]);
    const [filed] = await s.control.request(result.state);
    expect(filed).toMatchObject({ callId: 'c1', argsHash: argsHashOf(text, undefined), args: '{"amount":512345,"payment_id":"pay_1","ref":9007199254740993}' });
    expect(calls).toEqual([]);
  });
});

describe('a paused call in a RealtimeSession is filed with no requestRealtime', () => {
  const open: RealtimeSession<{ user: string }>[] = [];
  afterEach(() => {
    for (const session of open.splice(0)) session.close();
  });

  it('the session asks for approval: the request is in the store; an answer recorded elsewhere runs the call once', async () => {
    const s = setup();
    const { tool, calls } = refundTool(s);
    const agent = new RealtimeAgent<{ user: string }>({ name: 'desk', instructions: 'Refund desk', tools: [tool as never] });
    const transport = new ScriptedRealtimeTransport();
    const session = new RealtimeSession(agent, { transport, context: { user: 'alice' } });
    open.push(session);
    const outputs = new Map<string, string>();
    const send = transport.sendFunctionCallOutput.bind(transport);
    transport.sendFunctionCallOutput = (toolCall, output, startResponse) => {
      outputs.set(toolCall.callId, output);
      send(toolCall, output, startResponse);
    };
    const approvals: RunToolApprovalItem[] = [];
    session.on('tool_approval_requested', (_c, _a, request) => {
      if (request.type === 'function_approval') approvals.push(request.approvalItem);
    });
    await session.connect({ apiKey: 'ek_test' });
    transport.emit('function_call', { type: 'function_call', name: 'refund', callId: 'c1', arguments: JSON.stringify(BIG), responseId: 'resp_c1' });
    for (let i = 0; i < 200 && approvals.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(approvals).toHaveLength(1);
    await expectFiledOnce(s);

    await s.store.addAnswer('c1', { approver: 'bob', decision: 'approve', at: s.clock.now() });
    expect(await s.control.resolveRealtime(session, approvals[0]!)).toMatchObject({ state: 'consumed' });
    expect(calls).toEqual([BIG]);
    expect(outputs.get('c1')).toBe('refunded');
    expect((await s.store.listReceipts()).map((r) => r.result)).toEqual(['requested', 'claimed', 'executed']);
  });
});
