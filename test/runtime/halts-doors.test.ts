import { Agent, MCPServerStreamableHttp } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serveStatelessMcp } from '../../src/demo/support-server.js';
import {
  ActionDenied,
  bindHandoffs,
  bindHostedMcp,
  bindLocalTools,
  bindMcp,
  createControl,
  memoryStore,
  run,
  unwrap,
  type CompiledPolicy,
  type Store,
} from '../../src/runtime/index.js';
// @ts-expect-error a plain ESM module
import { localPolicy, realShell, shellCall } from '../helpers/local-doors.mjs';
// @ts-expect-error a plain ESM script
import { makeIssuesServer } from '../helpers/mcp-issues-server.mjs';
// @ts-expect-error a plain ESM module
import { mcpPolicy } from '../helpers/mcp-policy.mjs';
import { agentWith, refundCall, refundTool, scripted, setup, toolOutputSeen } from './helpers.js';

/**
 * The halt stage reaches every door (issue 38 item 5): a function tool's call the policy would
 * pause, a shell command, a handoff, a hosted MCP call the policy answers, and an MCP server's tool
 * whose halt was set by another process after this one read the halts.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-halt-doors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const alice = { context: { user: 'alice' } };
const thrown = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => unwrap(e),
  );

describe('a halt at every door', () => {
  it('a call the policy would send to a person is refused, never paused nor filed', async () => {
    const s = setup();
    const { tool, calls } = refundTool(s);
    await s.control.halt({ target: 'principal', value: 'alice', reason: 'under review', by: 'carol' });
    const model = scripted([refundCall({ payment_id: 'pay_1', amount: 500_000 }, 'c1')], [assistantMessage('ok')]);
    const result = await run(agentWith(model, [tool]), 'refund', alice);
    expect(result.interruptions).toEqual([]);
    expect(await s.store.getRequest('c1')).toBeNull();
    expect(calls).toEqual([]);
    expect(toolOutputSeen(model, 1, 'c1')).toContain('halted by an operator: under review');
  });

  it('a shell command: a soft halt is read by the model; a hard one ends the run', async () => {
    const log = path.join(dir, 'shell.log');
    const store = memoryStore();
    const control = createControl({ store, identity: (rc) => (rc.context as { user?: string }).user ?? null });
    const shell = bindLocalTools(control, localPolicy()).protectShellTool('host.shell', { shell: realShell(log, dir) });
    const halt = await control.halt({ target: 'action', value: 'host.shell', reason: 'maintenance', by: 'carol' });
    const soft = new ScriptedModel([[shellCall('s1', ['echo hi'])], [assistantMessage('ok')]]);
    await run(new Agent({ name: 'ops', model: soft, tools: [shell] }), 'go', alice);
    expect(JSON.stringify(soft.calls[1]!.request.input)).toContain('halted');
    await control.liftHalt(halt.id, { by: 'carol' });
    await control.halt({ target: 'action', value: 'host.shell', reason: 'maintenance', hard: true, by: 'carol' });
    const hard = new ScriptedModel([[shellCall('s2', ['echo hi'])], [assistantMessage('never')]]);
    const error = await thrown(run(new Agent({ name: 'ops', model: hard, tools: [shell] }), 'go', alice));
    expect(error).toBeInstanceOf(ActionDenied);
    expect((error as ActionDenied).reason).toBe('halted');
    expect(() => readFileSync(log, 'utf8')).toThrow(); // no command ever ran
    expect((await store.listReceipts()).filter((r) => r.reason === 'halted').map((r) => r.call_id)).toEqual(['s1', 's2']);
  });

  it('a handoff: a soft halt keeps the conversation where it is; a hard one ends the run', async () => {
    const store = memoryStore();
    const control = createControl({ store, identity: (rc) => (rc.context as { user?: string }).user ?? null });
    const policy = {
      hash: 'd'.repeat(64),
      mode: 'enforce',
      actions: {
        'desk.billing': {
          id: 'desk.billing',
          decide: () => ({ decision: 'allow', rule: 0, reason: 'rule[0]' }),
          controls: [],
          approvalsRequired: 1,
          maxAttempts: 1,
        },
      },
      tools: {},
      handoffs: { billing: 'desk.billing' },
    } as CompiledPolicy;
    const { protectHandoff } = bindHandoffs(control, policy);
    const handedOff: string[] = [];
    const agents = (model: ScriptedModel) => {
      const billing = new Agent({ name: 'billing', instructions: 'bills', model });
      return new Agent({
        name: 'desk',
        instructions: 'route',
        model,
        handoffs: [protectHandoff('desk.billing', billing, { inputType: z.object({}), onHandoff: () => void handedOff.push('billing') })],
      });
    };
    const halt = await control.halt({ target: 'all', reason: 'freeze', by: 'carol' });
    const soft = new ScriptedModel([[functionCall('transfer_to_billing', {}, { callId: 'h1' })], [assistantMessage('stayed')]]);
    const stayed = await run(agents(soft), 'bill me', alice);
    expect(stayed.lastAgent?.name).toBe('desk');
    await control.liftHalt(halt.id, { by: 'carol' });
    await control.halt({ target: 'all', reason: 'freeze', hard: true, by: 'carol' });
    const hard = new ScriptedModel([[functionCall('transfer_to_billing', {}, { callId: 'h2' })], [assistantMessage('never')]]);
    expect(((await thrown(run(agents(hard), 'bill me', alice))) as ActionDenied).reason).toBe('halted');
    expect(handedOff).toEqual([]);
  });

  it('a hosted MCP call the policy allows: a soft halt sends a no with the reason; a hard one ends the run', async () => {
    const store = memoryStore();
    const control = createControl({ store, identity: (rc) => (rc.context as { user?: string }).user ?? null });
    const policy = {
      hash: 'd'.repeat(64),
      mode: 'enforce',
      actions: {
        'gitmcp.call': {
          id: 'gitmcp.call',
          decide: () => ({ decision: 'allow', rule: 0, reason: 'rule[0]' }),
          controls: [],
          approvalsRequired: 1,
          maxAttempts: 1,
        },
      },
      tools: {},
      hostedMcp: { gitmcp: 'gitmcp.call' },
    } as CompiledPolicy;
    const protect = bindHostedMcp(control, policy);
    const request = (id: string) => ({
      type: 'hosted_tool_call' as const,
      id,
      name: 'mcp_approval_request',
      status: 'completed' as const,
      providerData: { type: 'mcp_approval_request', id, server_label: 'gitmcp', name: 'fetch_docs', arguments: '{}' },
    });
    const agent = (model: ScriptedModel) =>
      new Agent({ name: 'docs', model, tools: [protect({ serverLabel: 'gitmcp', serverUrl: 'https://gitmcp.example/mcp' })] });
    const halt = await control.halt({ target: 'action', value: 'gitmcp.call', reason: 'vendor incident', by: 'carol' });
    const soft = new ScriptedModel([[request('r1')], [assistantMessage('ok')]]);
    await run(agent(soft), 'docs', alice);
    const sent = JSON.stringify(soft.calls[1]!.request.input);
    expect(sent).toContain('"approve":false');
    expect(sent).toContain('halted by an operator: vendor incident');
    await control.liftHalt(halt.id, { by: 'carol' });
    await control.halt({ target: 'action', value: 'gitmcp.call', reason: 'vendor incident', hard: true, by: 'carol' });
    const hard = new ScriptedModel([[request('r2')], [assistantMessage('never')]]);
    expect(((await thrown(run(agent(hard), 'docs', alice))) as ActionDenied).reason).toBe('halted');
  });

  it("an MCP server's tool, halted by another process after this one read the halts: the model reads it, the server runs nothing", async () => {
    const log = path.join(dir, 'issues.log');
    const remote = await serveStatelessMcp(() => makeIssuesServer(log));
    const store: Store = memoryStore();
    const server = new MCPServerStreamableHttp({ name: 'issues', url: remote.url, cacheToolsList: true });
    try {
      const app = createControl({ store, identity: (rc) => (rc.context as { user?: string }).user ?? null });
      const operator = createControl({ store, identity: () => null });
      bindMcp(app, mcpPolicy() as CompiledPolicy).protectMcpServer(server);
      await server.connect();
      const agent = (model: ScriptedModel) => new Agent({ name: 'triage', model, mcpServers: [server] });
      const first = new ScriptedModel([[functionCall('list_issues', {}, { callId: 'm1' })], [assistantMessage('ok')]]);
      await run(agent(first), 'list', alice); // the app has read the halts: none
      await operator.halt({ target: 'all', reason: 'freeze', by: 'carol' });
      const second = new ScriptedModel([[functionCall('create_issue', { title: 'x', priority: 1 }, { callId: 'm2' })], [assistantMessage('ok')]]);
      await run(agent(second), 'file', alice);
      expect(JSON.stringify(second.calls[1]!.request.input)).toContain('halted by an operator: freeze');
      expect(() => readFileSync(log, 'utf8')).toThrow();
    } finally {
      await server.close();
      await remote.close();
    }
  });
});
