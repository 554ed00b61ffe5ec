import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { requireBuilt } from '../helpers/paths.js';
import { removeDir } from '../helpers/temp-repo.js';
import { typeCheck } from '../helpers/typecheck.js';
import { committedRepo, TSCONFIG_NODENEXT, userLoop } from './loop-helpers.js';

/**
 * MCP without hand work (issue 35): two small apps whose MCP server is defined in the repository
 * (`@modelcontextprotocol/sdk`), through the user's loop (init → generate → codemod --write →
 * check, each exit 0) and then the app's own type-check. One reaches the agent through
 * `connectMcpServers(...).active`; the other converts the tools with `getAllMcpTools` and
 * `mcpToFunctionTool`. Needs `npm run build` first: the apps' type-check resolves the generated
 * module's and the control's `ctrlrun-gen/runtime` imports to dist/'s types (CI builds first).
 */
const dirs: string[] = [];
beforeEach(() => requireBuilt("the apps' type-check resolves `ctrlrun-gen/runtime` to dist/'s types"));
afterAll(() => dirs.forEach(removeDir));

const SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'issues', version: '1.0.0' });
server.registerTool('create_issue', { description: 'Create an issue', inputSchema: { title: z.string() } }, async ({ title }) => ({
  content: [{ type: 'text', text: \`created \${title}\` }],
}));
server.registerTool('list_issues', { description: 'List issues', inputSchema: {} }, async () => ({ content: [{ type: 'text', text: '0 issues' }] }));
await server.connect(new StdioServerTransport());
`;

const files = (agent: string) => ({
  'package.json': JSON.stringify({ name: 'triage', private: true, type: 'module' }),
  'tsconfig.json': TSCONFIG_NODENEXT,
  'src/mcp/server.ts': SERVER,
  'src/agent.ts': agent,
});

const CONNECTED = `import { Agent, MCPServerStdio, connectMcpServers } from '@openai/agents';

const issues = new MCPServerStdio({ name: 'issues', command: 'node', args: ['dist/mcp/server.js'] });

export async function triage(): Promise<Agent> {
  await using servers = await connectMcpServers([issues], { connectInParallel: true });
  return new Agent({ name: 'triage', instructions: 'Files issues.', mcpServers: servers.active });
}
`;

const CONVERTED = `import { Agent, MCPServerStdio, getAllMcpTools, mcpToFunctionTool } from '@openai/agents';

const issues = new MCPServerStdio({ name: 'issues', fullCommand: 'npx tsx src/mcp/server.ts' });

export async function triage(): Promise<Agent[]> {
  await issues.connect();
  const all = new Agent({ name: 'all', instructions: 'Files issues.', tools: await getAllMcpTools({ mcpServers: [issues], convertSchemasToStrict: true }) });
  const listed = (await issues.listTools()).filter((t) => t.name !== 'list_issues');
  const some = new Agent({ name: 'some', instructions: 'Files issues.', tools: listed.map((t) => mcpToFunctionTool(t, issues, false)) });
  return [all, some];
}
`;

async function checkFindings(dir: string): Promise<string[]> {
  const r = await cli(['check', '--format', 'json'], { cwd: dir });
  expect(r.code, r.stdout).toBe(0);
  return (JSON.parse(r.stdout) as { findings: Array<{ ruleId: string; severity: string }> }).findings.map((f) => `${f.severity} ${f.ruleId}`).sort();
}

describe('MCP apps through the loop (issue 35)', () => {
  it('a server defined in the repo, reaching the agent through connectMcpServers(...).active', async () => {
    const dir = committedRepo(dirs, 'mcp-connected-', files(CONNECTED));
    const said = await userLoop(dir);
    expect(said).toContain('note: MCP server "issues": 2 tools mapped (create_issue, list_issues), read from its registrations at src/mcp/server.ts:5');
    expect(readFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'utf8')).toContain(
      '  - mcp: { server: issues, tool: create_issue }\n    action: issues.create_issue',
    );
    expect(readFileSync(path.join(dir, 'src/agent.ts'), 'utf8')).toContain('await connectMcpServers([protectMcpServer(issues)], { connectInParallel: true });');
    // the server door cannot pause, and init's actions start at approve: said as a warning, not an open door
    expect(await checkFindings(dir)).toEqual(['warning mcp-calls-refused', 'warning tracing-sensitive-data']);
    expect(typeCheck(dir)).toEqual([]);
  }, 120_000);

  it('getAllMcpTools and mcpToFunctionTool: rewritten to the protected variants', async () => {
    const dir = committedRepo(dirs, 'mcp-converted-', files(CONVERTED));
    const said = await userLoop(dir);
    expect(said).toContain('note: MCP server "issues": 2 tools mapped');
    const agent = readFileSync(path.join(dir, 'src/agent.ts'), 'utf8');
    expect(agent).toContain('tools: await protectMcpTools([issues], { convertSchemasToStrict: true })');
    expect(agent).toContain('listed.map((t) => protectMcpFunctionTool(t, issues, false))');
    expect(agent).toContain("import { Agent, MCPServerStdio } from '@openai/agents';");
    expect(await checkFindings(dir)).toEqual(['warning tracing-sensitive-data']);
    expect(typeCheck(dir)).toEqual([]);
  }, 120_000);
});
