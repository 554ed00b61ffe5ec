import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverMcpTools, discoveryRefusal } from '../../src/init/discover-mcp.js';
import { linkDefinitions, type McpClient } from '../../src/init/mcp-tools.js';
import { parseManifest } from '../../src/manifest/load.js';
import { parsePolicy } from '../../src/policy/load.js';
import { serveStatelessMcp } from '../../src/demo/support-server.js';
import { mcpServerDefinitions } from '../../src/scan/mcp-definitions.js';
import { cli } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';
// @ts-expect-error a plain ESM script (it is also run by node as the stdio server)
import { makeIssuesServer } from '../helpers/mcp-issues-server.mjs';

/**
 * init maps the tools of MCP servers without hand work (issue 35): from the registrations of a
 * server defined in the repository, or, with `--discover-mcp`, from the server itself (a real MCP
 * server of `@modelcontextprotocol/sdk`, over stdio and over HTTP on 127.0.0.1).
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const ISSUES_SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'issues-server', version: '1.0.0' });
server.registerTool('create_issue', { description: 'Create an issue', inputSchema: { title: z.string() } }, async ({ title }) => ({
  content: [{ type: 'text', text: title }],
}));
server.tool('list_issues', 'List issues', async () => ({ content: [{ type: 'text', text: '0 issues' }] }));
await server.connect(new StdioServerTransport());
`;

const AGENT = (command: string) => `import { Agent, MCPServerStdio } from '@openai/agents';

const issues = new MCPServerStdio({ name: 'issues', ${command} });

export const agent = new Agent({ name: 'triage', instructions: 'Files issues.', mcpServers: [issues] });
`;

function repo(files: Record<string, string>): string {
  const dir = makeTempDir('init-mcp-tools-');
  dirs.push(dir);
  writeFiles(dir, {
    'package.json': JSON.stringify({ name: 'triage', type: 'module' }),
    'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', strict: true } }),
    ...files,
  });
  return dir;
}

const manifestOf = (dir: string) => {
  const m = parseManifest(readFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'utf8'), path.join(dir, 'ctrlrun.tools.yaml'));
  expect(m.diagnostics).toEqual([]);
  return m.value!.tools.flatMap((t) => (t.kind === 'mcp' ? [`${t.server}/${t.tool} -> ${t.action}`] : []));
};

describe('an MCP server defined in the repository: its registrations name its tools', () => {
  it('mapped when the client runs its file (a build of it too); the actions start at approve; generate accepts the files', async () => {
    const dir = repo({ 'src/mcp/server.ts': ISSUES_SERVER, 'src/agent.ts': AGENT("command: 'node', args: ['dist/mcp/server.js']") });
    const init = await cli(['init'], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain(
      'note: MCP server "issues": 2 tools mapped (create_issue, list_issues), read from its registrations at src/mcp/server.ts:5; each action starts at decision: approve',
    );
    expect(init.stdout).not.toContain('lists its tools only at run time');
    expect(manifestOf(dir)).toEqual(['issues/create_issue -> issues.create_issue', 'issues/list_issues -> issues.list_issues']);
    const policy = parsePolicy(readFileSync(path.join(dir, 'ctrlrun.yaml'), 'utf8'), path.join(dir, 'ctrlrun.yaml'));
    expect(policy.diagnostics).toEqual([]);
    expect(Object.entries(policy.value!.actions).map(([id, a]) => `${id}: ${a.rules.map((r) => r.decision).join()}`)).toEqual([
      'issues.create_issue: approve',
      'issues.list_issues: approve',
    ]);
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    expect(readFileSync(path.join(dir, 'src/ctrlrun.generated.ts'), 'utf8')).toMatch(
      /issues: \{\s*create_issue: 'issues\.create_issue',\s*list_issues: 'issues\.list_issues'/,
    );

    // a tool registered since: init --force adds it, and keeps the rest as they are
    writeFileSync(
      path.join(dir, 'src/mcp/server.ts'),
      ISSUES_SERVER.replace(
        'await server.connect',
        "server.registerTool('close_issue', { inputSchema: {} }, async () => ({ content: [] }));\nawait server.connect",
      ),
    );
    const again = await cli(['init', '--force'], { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(manifestOf(dir)).toEqual([
      'issues/create_issue -> issues.create_issue',
      'issues/list_issues -> issues.list_issues',
      'issues/close_issue -> issues.close_issue',
    ]);
    expect(readFileSync(path.join(dir, 'ctrlrun.yaml'), 'utf8')).toContain(
      '# tool "close_issue" of MCP server "issues" (src/mcp/server.ts:5; added by init --force)',
    );
  });

  it('linked by name when the client names no file (an HTTP server); a definition no client runs, and a name init cannot read, are said', async () => {
    const dir = repo({
      'src/mcp/server.ts': ISSUES_SERVER.replace("name: 'issues-server'", "name: 'issues'").replace(
        "server.tool('list_issues'",
        "server.registerTool(process.env.TOOL_NAME ?? 'x', { inputSchema: {} }, async () => ({ content: [] }));\nserver.tool('list_issues'",
      ),
      // a test's own server of the same name is the test's: were it counted, the client could be either, and none would be mapped
      'test/fake-issues.ts':
        "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst fake = new McpServer({ name: 'issues', version: '1' });\nfake.tool('fake', async () => ({ content: [] }));\n",
      'src/other.ts':
        "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst lonely = new McpServer({ name: 'lonely', version: '1' });\nlonely.registerTool('ping', {}, async () => ({ content: [] }));\n",
      'src/agent.ts': AGENT('')
        .replace("MCPServerStdio({ name: 'issues',  })", "MCPServerStreamableHttp({ name: 'issues', url: 'http://127.0.0.1:3001/mcp' })")
        .replace('MCPServerStdio }', 'MCPServerStreamableHttp }'),
    });
    const init = await cli(['init'], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    expect(manifestOf(dir)).toEqual(['issues/create_issue -> issues.create_issue', 'issues/list_issues -> issues.list_issues']);
    expect(init.stdout).toContain(
      'note: MCP server "issues": a registration at src/mcp/server.ts names its tool with a value init cannot read; map that tool by hand',
    );
    expect(init.stdout).toContain(
      'note: src/other.ts:2 defines MCP server "lonely" (tools ping), but no agent here runs it by a command or name init can read: map its tools as `- mcp: { server: <the name your client gives it>, tool: ping }`',
    );
  });

  it('a client two definitions could be is linked to none (init does not guess); a test file never counts', () => {
    const defs = [
      ...mcpServerDefinitions(
        'src/a.ts',
        "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst s = new McpServer({ name: 'x' });\ns.tool('a', async () => ({}));\n",
      ),
      ...mcpServerDefinitions(
        'src/b.ts',
        "import { McpServer as M } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst s = new M({ name: 'x' });\ns.registerTool('b', {}, async () => ({}));\n",
      ),
    ];
    expect(defs.map((d) => [d.file, d.name, d.tools.map((t) => t.name)])).toEqual([
      ['src/a.ts', 'x', ['a']],
      ['src/b.ts', 'x', ['b']],
    ]);
    const client: McpClient = { name: 'x', places: [] };
    expect(linkDefinitions([client], defs).size).toBe(0);
    // the command names one of them: that one
    expect(linkDefinitions([{ ...client, launch: { transport: 'stdio', fullCommand: 'npx tsx src/b.ts' } }], defs).get('x')?.file).toBe('src/b.ts');
    // another package's McpServer, or none: nothing
    expect(
      mcpServerDefinitions('src/c.ts', "import { McpServer } from 'other';\nconst s = new McpServer({ name: 'x' });\ns.tool('c', async () => ({}));\n"),
    ).toEqual([]);
  });
});

describe('init --discover-mcp: the server says which tools it lists', () => {
  const SCRIPT = path.join(REPO_ROOT, 'test/helpers/mcp-issues-server.mjs');

  it('a stdio server started by its literal command, and an HTTP server on 127.0.0.1, list their tools; without the flag nothing is started', async () => {
    const logs = makeTempDir('discover-log-');
    dirs.push(logs);
    const http = await serveStatelessMcp(() => makeIssuesServer(path.join(logs, 'log')));
    try {
      const dir = repo({
        'src/agent.ts': `import { Agent, MCPServerStdio, MCPServerStreamableHttp } from '@openai/agents';

const local = new MCPServerStdio({ name: 'local', command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(SCRIPT)}] });
const remote = new MCPServerStreamableHttp({ name: 'remote', url: ${JSON.stringify(http.url)} });
const far = new MCPServerStreamableHttp({ name: 'far', url: 'https://mcp.example.com/mcp' });

export const agent = new Agent({ name: 'triage', instructions: 'x', mcpServers: [local, remote, far] });
`,
      });
      const without = await cli(['init'], { cwd: dir });
      expect(without.code).toBe(0);
      expect(manifestOf(dir)).toEqual([]);
      expect(without.stdout).toContain('MCP server "local" lists its tools only at run time');

      const init = await cli(['init', '--force', '--discover-mcp'], { cwd: dir });
      expect(init.code, init.stderr).toBe(0);
      expect(manifestOf(dir)).toEqual([
        'local/create_issue -> local.create_issue',
        'local/list_issues -> local.list_issues',
        'remote/create_issue -> remote.create_issue',
        'remote/list_issues -> remote.list_issues',
      ]);
      expect(init.stdout).toContain('note: MCP server "local": 2 tools mapped (create_issue, list_issues), listed by starting it (--discover-mcp)');
      expect(init.stdout).toContain(
        'note: --discover-mcp: MCP server "far" was not listed: mcp.example.com is not this machine: init asks only servers on the loopback interface',
      );
    } finally {
      await http.close();
    }
  }, 60_000);

  it('bounded in time: a server that never answers is given up on, and closed', async () => {
    const started = Date.now();
    const [outcome] = await discoverMcpTools(
      [{ name: 'mute', places: [], launch: { transport: 'stdio', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] } }],
      REPO_ROOT,
      { timeoutMs: 800 },
    );
    expect(outcome).toEqual({ server: 'mute', problem: 'it did not answer within 1 s' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('asks only what it can read and reach: a literal command, a loopback URL', () => {
    expect(discoveryRefusal(undefined)).toMatch(/not literals/);
    expect(discoveryRefusal({ transport: 'stdio' })).toBe('it names no command');
    expect(discoveryRefusal({ transport: 'http', url: 'http://localhost:8080/mcp' })).toBeUndefined();
    expect(discoveryRefusal({ transport: 'sse', url: 'http://127.0.0.2/sse' })).toBeUndefined();
    expect(discoveryRefusal({ transport: 'http', url: 'http://10.0.0.5/mcp' })).toMatch(/not this machine/);
    expect(discoveryRefusal({ transport: 'http', url: 'not a url' })).toMatch(/does not parse/);
  });
});
