import { Agent, MCPServerStreamableHttp, run as sdkRun, type MCPServer } from '@openai/agents';
import { filesystem, SandboxAgent, shell } from '@openai/agents/sandbox';
import { assistantMessage, ScriptedModel } from '@openai/agents/testing';
import { afterEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { parsePolicy } from '../../src/policy/load.js';
import { bindHandoffs, bindMcp, bindSandbox, createControl, memoryStore, run, type CompiledPolicy } from '../../src/runtime/index.js';
import { serveStatelessMcp } from '../../src/demo/support-server.js';
import { compileGenerated } from '../helpers/compile-module.js';
import { localSandbox, ScriptedChatCompletionsModel } from '../helpers/sandbox-doors.js';
// @ts-expect-error a plain ESM script (it is also run by node as the stdio server)
import { makeIssuesServer } from '../helpers/mcp-issues-server.mjs';

/**
 * Least exposure (issue 38 item 6) at every door the SDK lets leave a tool out per run: an MCP
 * server's tools (its `toolFilter`), a handoff (its `isEnabled`), a SandboxAgent's capability
 * function tools (their `isEnabled`). For each, through the real Runner: a principal the policy never
 * lets use the action is not offered the tool, another principal is, and `offerAllTools` offers it.
 */

type Ctx = { user: string };

/** alice may use every desk action; bob only desk.read; desk.nuke is denied for every input. */
const POLICY = {
  schema: 'ctrlrun.policy/v7',
  authority: {
    grants: [
      { id: 'alice', subject: { agent: 'desk', user: 'alice' }, actions: ['desk.**'] },
      { id: 'bob', subject: { agent: 'desk', user: 'bob' }, actions: ['desk.read'] },
    ],
  },
  actions: {
    'desk.read': { decision: 'allow' },
    'desk.write': { decision: 'allow' },
    'desk.nuke': { decision: 'deny' },
  },
};

function compiled(policy: object = POLICY, maps: Partial<Pick<CompiledPolicy, 'mcp' | 'handoffs' | 'sandbox'>> = {}): CompiledPolicy {
  return { ...compileGenerated(parsePolicy(YAML.stringify(policy), 'ctrlrun.yaml').value!), ...maps };
}

function control(options: { offerAllTools?: boolean } = {}) {
  return createControl({ store: memoryStore(), identity: (rc) => ({ agent: 'desk', user: (rc.context as Ctx).user }), ...options });
}

/** The names of the tools and handoffs the model was offered on its first call. */
function offeredTo(model: ScriptedModel): string[] {
  const request = model.calls[0]!.request;
  const tools = (request.tools ?? []).map((t) => (t as { name: string }).name);
  const handoffs = (request.handoffs ?? []).map((h) => (h as { toolName: string }).toolName);
  return [...tools, ...handoffs].sort();
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('MCP servers through agent.mcpServers: the guard filters the listing per run', () => {
  /** A real MCP server (streamable HTTP, in this process): create_issue and list_issues. */
  async function issuesServer(options: ConstructorParameters<typeof MCPServerStreamableHttp>[0] | object = {}): Promise<MCPServer> {
    const http = await serveStatelessMcp(() => makeIssuesServer('/dev/null'));
    const server = new MCPServerStreamableHttp({ name: 'issues', url: http.url, cacheToolsList: true, ...options });
    await server.connect();
    cleanups.push(async () => {
      await server.close();
      await http.close();
    });
    return server;
  }

  const MAPS = { mcp: { issues: { list_issues: 'desk.read', create_issue: 'desk.write' } } };

  async function offered(server: MCPServer, user: string): Promise<string[]> {
    const model = new ScriptedModel([[assistantMessage('hi')]]);
    await run(new Agent<Ctx>({ name: 'triage', model, mcpServers: [server] }), 'hello', { context: { user } });
    return offeredTo(model);
  }

  it('per principal, on one server shared by both runs; offerAllTools keeps the listing', async () => {
    const server = bindMcp(control(), compiled(POLICY, MAPS)).protectMcpServer(await issuesServer());
    expect(await offered(server, 'alice')).toEqual(['create_issue', 'list_issues']);
    expect(await offered(server, 'bob')).toEqual(['list_issues']);
    expect(await offered(server, 'alice')).toEqual(['create_issue', 'list_issues']); // the listing cache holds no decision
    const all = bindMcp(control({ offerAllTools: true }), compiled(POLICY, MAPS)).protectMcpServer(await issuesServer());
    expect(await offered(all, 'bob')).toEqual(['create_issue', 'list_issues']);
    expect(all.toolFilter).toBeUndefined(); // the server is left as it was
    const observed = bindMcp(control(), compiled({ ...POLICY, mode: 'observe' }, MAPS)).protectMcpServer(await issuesServer());
    expect(await offered(observed, 'bob')).toEqual(['create_issue', 'list_issues']);
    expect(observed.toolFilter).toBeUndefined();
  });

  it('a tool no manifest entry maps is not offered, even without authority (it is denied for every input)', async () => {
    const { authority: _none, ...open } = POLICY;
    const server = bindMcp(control(), compiled(open, { mcp: { issues: { list_issues: 'desk.read' } } })).protectMcpServer(await issuesServer());
    expect(await offered(server, 'alice')).toEqual(['list_issues']);
    const mapped = bindMcp(control(), compiled(open, MAPS)).protectMcpServer(await issuesServer());
    expect(await offered(mapped, 'bob')).toEqual(['create_issue', 'list_issues']); // no authority: every mapped tool for everyone
  });

  it("the server's own filter is asked first: a static one as the SDK applies it, a callable one", async () => {
    const ctl = control();
    const policy = compiled(POLICY, MAPS);
    const blocked = bindMcp(ctl, policy).protectMcpServer(await issuesServer({ toolFilter: { blockedToolNames: ['list_issues'] } }));
    expect(await offered(blocked, 'alice')).toEqual(['create_issue']);
    const allowed = bindMcp(ctl, policy).protectMcpServer(await issuesServer({ toolFilter: { allowedToolNames: ['list_issues'] } }));
    expect(await offered(allowed, 'alice')).toEqual(['list_issues']);
    const asked: string[] = [];
    const own = async ({ serverName }: { serverName: string }, tool: { name: string }) => {
      asked.push(`${serverName}/${tool.name}`);
      return tool.name === 'create_issue';
    };
    const callable = bindMcp(ctl, policy).protectMcpServer(await issuesServer({ toolFilter: own }));
    expect(await offered(callable, 'alice')).toEqual(['create_issue']);
    expect(await offered(callable, 'bob')).toEqual([]);
    expect(asked.sort()).toEqual(['issues/create_issue', 'issues/create_issue', 'issues/list_issues', 'issues/list_issues']);
  });
});

describe('handoffs: a transfer the principal can never make is not offered', () => {
  async function offered(user: string, options: { offerAllTools?: boolean; isEnabled?: boolean } = {}): Promise<string[]> {
    const { isEnabled, ...controlOptions } = options;
    const { protectHandoff } = bindHandoffs(control(controlOptions), compiled(POLICY, { handoffs: { billing: 'desk.write', auditor: 'desk.nuke' } }));
    const model = new ScriptedModel([[assistantMessage('hi')]]);
    const billing = new Agent<Ctx>({ name: 'billing', instructions: 'bills', model });
    const auditor = new Agent<Ctx>({ name: 'auditor', instructions: 'audits', model });
    const handoffs = [protectHandoff('desk.write', billing, isEnabled === undefined ? {} : { isEnabled }), protectHandoff('desk.nuke', auditor)];
    await run(new Agent<Ctx>({ name: 'desk', instructions: 'route', model, handoffs }), 'hello', { context: { user } });
    return offeredTo(model);
  }

  it('per principal; an action denied for every input for everyone; offerAllTools offers both', async () => {
    expect(await offered('alice')).toEqual(['transfer_to_billing']);
    expect(await offered('bob')).toEqual([]);
    expect(await offered('bob', { offerAllTools: true })).toEqual(['transfer_to_auditor', 'transfer_to_billing']);
  });

  it("the handoff's own isEnabled is asked first", async () => {
    expect(await offered('alice', { isEnabled: false })).toEqual([]);
  });
});

describe("a SandboxAgent's capability function tools: not offered to a principal who can never use them", () => {
  const MAPS = { sandbox: { tools: { exec_command: 'desk.write', apply_patch: 'desk.write', view_image: 'desk.read' } } };

  async function offered(user: string, capability: 'shell' | 'filesystem', options: { offerAllTools?: boolean; chat?: boolean } = {}): Promise<string[]> {
    const box = await localSandbox();
    cleanups.push(box.close);
    const { chat, ...controlOptions } = options;
    const { protectSandboxAgent } = bindSandbox(control(controlOptions), compiled(POLICY, MAPS));
    const model = chat ? new ScriptedChatCompletionsModel([[assistantMessage('hi')]]) : new ScriptedModel([[assistantMessage('hi')]]);
    const capabilities = [capability === 'shell' ? shell() : filesystem()];
    const agent = protectSandboxAgent(new SandboxAgent<Ctx>({ name: 'box', instructions: 'x', model, capabilities }));
    await sdkRun(agent, 'hello', { context: { user }, sandbox: { session: box.session } });
    return offeredTo(model);
  }

  it('shell: exec_command per principal, the unmapped write_stdin for no one; offerAllTools offers both', async () => {
    expect(await offered('alice', 'shell')).toEqual(['exec_command']);
    expect(await offered('bob', 'shell')).toEqual([]);
    expect(await offered('bob', 'shell', { offerAllTools: true })).toEqual(['exec_command', 'write_stdin']);
  });

  it("filesystem: the function-form apply_patch is hidden; the SDK's apply_patch tool has no isEnabled, so it stays offered", async () => {
    expect(await offered('alice', 'filesystem', { chat: true })).toEqual(['apply_patch', 'view_image']);
    expect(await offered('bob', 'filesystem', { chat: true })).toEqual(['view_image']);
    expect(await offered('bob', 'filesystem', { chat: true, offerAllTools: true })).toEqual(['apply_patch', 'view_image']);
    expect(await offered('bob', 'filesystem')).toEqual(['apply_patch', 'view_image']); // refused at the call, as before
  });
});
