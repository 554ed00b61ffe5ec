import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Red team, session 27 (issue 40, "no false green"): the forms the probes found reported as they
 * should be, and the safe code found silent. They stand beside the cases still silent
 * (now tests: red28-*.test.ts): a reader changed to close those must keep these.
 */
const TOOLS = lines(
  "import { protectedTool } from './ctrlrun.generated.js';",
  "export const refund = protectedTool('stripe.refund', { name: 'refund', description: 'r', parameters: {} as never, execute: async () => 'ok' });",
);
const RUN = lines(
  "import { Agent, run, Runner, RunState, type RunResult, type RunToolApprovalItem } from '@openai/agents';",
  "import { refund } from './tools.js';",
  "const agent = new Agent({ name: 'desk', tools: [refund] });",
);
const server = (...body: string[]): Record<string, string> => ({ 'src/tools.ts': TOOLS, 'src/server.ts': RUN + lines(...body) });
const count = (files: Record<string, string>, ruleId: string, file: string): number => lintRepo(files, { project: testProject(), ruleId, file }).length;

const answersReported: Record<string, Record<string, string>> = {
  'the method picked by `if` on the verdict (the control of the computed key)': server(
    "export async function go(yes: boolean) { const r = await run(agent, 'hi'); for (const i of r.interruptions) { if (yes) r.state.approve(i); else r.state.reject(i); } return run(agent, r.state); }",
  ),
  'a stream’s state': server(
    "export async function go() { const s = await run(agent, 'hi', { stream: true }); await s.completed; for (const i of s.interruptions) s.state.approve(i); return run(agent, s.state); }",
  ),
  'a destructured result (`const { interruptions, state } = await run(...)`)': server(
    "export async function go() { const { interruptions, state } = await run(agent, 'hi'); interruptions.forEach((i) => state.approve(i)); return run(agent, state); }",
  ),
  'a state restored with its context, the item found by call id': server(
    "export async function go(saved: string, id: string) { const state = await RunState.fromStringWithContext(agent, saved, {}); const item = state.getInterruptions().find((x) => x.rawItem.type === 'function_call' && x.rawItem.callId === id); if (item) state.approve(item); return run(agent, state); }",
  ),
  'a `Runner` instance’s result': server(
    "const runner = new Runner({ workflowName: 'desk' });",
    "export async function go() { const r = await runner.run(agent, 'hi'); for (const i of r.interruptions) r.state.approve(i); return runner.run(agent, r.state); }",
  ),
  'a result kept in a `Map<string, RunResult>`': server(
    'const pending = new Map<string, RunResult<any, any>>();',
    'export async function go(id: string) { const r = pending.get(id)!; for (const i of r.interruptions) r.state.approve(i); return run(agent, r.state); }',
  ),
  'a class holding the result in a parameter property': server(
    'export class Queue { constructor(private result: RunResult<any, any>) {} approveAll() { for (const i of this.result.interruptions) this.result.state.approve(i); } }',
  ),
  'an object of handlers picked by a computed key (each handler answers by name)': server(
    "export async function go(ok: boolean) { const r = await run(agent, 'hi'); const act = { yes: (i: RunToolApprovalItem) => r.state.approve(i), no: (i: RunToolApprovalItem) => r.state.reject(i) }; for (const i of r.interruptions) act[ok ? 'yes' : 'no'](i); return run(agent, r.state); }",
  ),
};

const realtime = {
  'src/tools.ts': TOOLS,
  'src/voice.ts': lines(
    "import { RealtimeAgent, RealtimeSession } from '@openai/agents/realtime';",
    "import { refund } from './tools.js';",
    "const agent = new RealtimeAgent({ name: 'voice', tools: [refund] });",
    'const session = new RealtimeSession(agent);',
    "session.on('tool_approval_requested', (_ctx, _agent, { approvalItem }) => { void session.approve(approvalItem); });",
  ),
};

const PATHS = JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@/*': ['src/*'] } } });
const doorsReported: Record<string, { files: Record<string, string>; ruleId: string; file: string }> = {
  'an SDK `tool()` imported through a tsconfig `paths` barrel': {
    files: {
      'tsconfig.json': PATHS,
      'src/lib/sdk.ts': "export * from '@openai/agents';\n",
      'src/tools.ts': lines(
        "import { tool } from '@/lib/sdk';",
        "export const r = tool({ name: 'refund', description: 'r', parameters: {} as never, execute: async () => 'ok', errorFunction: null });",
      ),
    },
    ruleId: 'unprotected-tool',
    file: 'src/tools.ts',
  },
  'a copy made by `Object.assign({}, tool, { invoke })`': {
    files: { 'src/tools.ts': TOOLS + lines("export const fast = Object.assign({}, refund, { invoke: async () => 'done' });") },
    ruleId: 'invoke-replaced',
    file: 'src/tools.ts',
  },
  "copies made in a `map` with another `invoke` (a logging wrapper that skips the tool's own)": {
    files: { 'src/tools.ts': TOOLS + lines("export const logged = [refund].map((t) => ({ ...t, invoke: async () => 'skipped' }));") },
    ruleId: 'invoke-replaced',
    file: 'src/tools.ts',
  },
  "`invoke` written by a literal key (`refund['invoke'] = fn`)": {
    files: { 'src/tools.ts': TOOLS + lines("refund['invoke'] = async () => 'done';") },
    ruleId: 'invoke-replaced',
    file: 'src/tools.ts',
  },
  '`new Handoff(agent, invoke)` (the control of the subclass)': {
    files: {
      'src/agent.ts': lines(
        "import { Agent, Handoff } from '@openai/agents';",
        'declare function page(args: string): Promise<void>;',
        "const oncall = new Agent({ name: 'oncall' });",
        "export const desk = new Agent({ name: 'desk', handoffs: [new Handoff(oncall, async (_ctx, args) => { await page(args); return oncall; })] });",
      ),
    },
    ruleId: 'unprotected-handoff',
    file: 'src/agent.ts',
  },
  'a subclass of `MCPServerStdio` in `mcpServers`': {
    files: {
      'src/agent.ts': lines(
        "import { Agent, MCPServerStdio } from '@openai/agents';",
        "class Github extends MCPServerStdio { constructor() { super({ name: 'github', fullCommand: 'gh' }); } }",
        "export const desk = new Agent({ name: 'desk', mcpServers: [new Github()] });",
      ),
    },
    ruleId: 'mcp-server-unguarded',
    file: 'src/agent.ts',
  },
  'an in-process server of a class implementing `MCPServer`': {
    files: {
      'src/agent.ts': lines(
        "import { Agent, type MCPServer } from '@openai/agents';",
        "class InProc implements MCPServer { cacheToolsList = false; name = 'inproc'; async connect() {} async close() {} async listTools() { return []; } async callTool() { return [] as never; } async invalidateToolsCache() {} }",
        "export const desk = new Agent({ name: 'desk', mcpServers: [new InProc()] });",
      ),
    },
    ruleId: 'mcp-server-unguarded',
    file: 'src/agent.ts',
  },
};

const safe: Record<string, { files: Record<string, string>; file: string }> = {
  "the app's own pending approvals (`pending.get(id)?.approve()`)": {
    files: server('const pending = new Map<string, { approve(): void }>();', 'export function ok(id: string) { pending.get(id)?.approve(); }'),
    file: 'src/server.ts',
  },
  "a computed key on the app's own interface (`r[yes ? 'approve' : 'reject'](id)`)": {
    files: server(
      'interface Review { approve(id: string): void; reject(id: string): void }',
      "export function ok(r: Review, id: string, yes: boolean) { r[yes ? 'approve' : 'reject'](id); }",
    ),
    file: 'src/server.ts',
  },
  'the protected local doors as the generated module makes them': {
    files: {
      'src/agent.ts': lines(
        "import { Agent, type Computer, type Editor, type Shell } from '@openai/agents';",
        "import { protectApplyPatchTool, protectComputerTool, protectShellTool } from './ctrlrun.generated.js';",
        'declare const shell: Shell; declare const editor: Editor; declare const computer: Computer;',
        "const sh = protectShellTool('host.shell', { shell });",
        "const ap = protectApplyPatchTool('repo.patch', { editor });",
        "const pc = protectComputerTool('browser.use', { computer });",
        "export const desk = new Agent({ name: 'desk', tools: [sh, ap, pc] });",
      ),
    },
    file: 'src/agent.ts',
  },
  'a guarded MCP server': {
    files: {
      'src/agent.ts': lines(
        "import { Agent, MCPServerStdio } from '@openai/agents';",
        "import { protectMcpServer } from './ctrlrun.generated.js';",
        "const github = protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
        "export const desk = new Agent({ name: 'desk', mcpServers: [github] });",
      ),
    },
    file: 'src/agent.ts',
  },
};

/** The rules whose silence the pending cases are about: none of them may speak on the safe code. */
const DOOR_RULES = ['sdk-approval', 'invoke-replaced', 'mcp-server-unguarded', 'unprotected-door', 'object-literal-tool'];

describe('red team, session 27: answers through the SDK that check reports', () => {
  for (const [name, files] of Object.entries(answersReported))
    it(`sdk-approval: ${name}`, () => expect(count(files, 'sdk-approval', 'src/server.ts')).toBeGreaterThan(0));
  it('sdk-approval: a realtime request’s destructured `approvalItem`', () => expect(count(realtime, 'sdk-approval', 'src/voice.ts')).toBeGreaterThan(0));
});

describe('red team, session 27: doors that check reports', () => {
  for (const [name, c] of Object.entries(doorsReported)) it(`${c.ruleId}: ${name}`, () => expect(count(c.files, c.ruleId, c.file)).toBeGreaterThan(0));
});

describe('red team, session 27: safe code that stays silent', () => {
  for (const [name, c] of Object.entries(safe))
    it(`no finding: ${name}`, () => {
      for (const ruleId of DOOR_RULES) expect(count(c.files, ruleId, c.file), ruleId).toBe(0);
    });
});
