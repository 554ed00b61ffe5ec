import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';
import { typeCheck } from '../helpers/typecheck.js';

// Issue 40, item 5: every door can be protected. Tools built in a loop (their names computed) and
// hosted MCP servers made by the app's own helper: init maps them, the codemod protects them,
// check goes green once they are, and stays red until then.
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

function repo(files: Record<string, string>): string {
  const dir = makeTempDir('computed-doors-');
  dirs.push(dir);
  writeFiles(dir, {
    'package.json': JSON.stringify({ name: 'flows', type: 'module' }),
    'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true } }),
    ...files,
  });
  return dir;
}

async function findings(dir: string): Promise<Array<{ ruleId: string; file: string; line: number; message: string }>> {
  const r = await cli(['check', '--format', 'json'], { cwd: dir });
  return (JSON.parse(r.stdout) as { findings: Array<{ ruleId: string; file: string; line: number; message: string }> }).findings;
}

const FLOWS = [
  "import { Agent, run, tool } from '@openai/agents';",
  "import { z } from 'zod';",
  "const flows = [{ id: 'sales' }, { id: 'stock' }];",
  'export const flowTools = flows.map((f) =>',
  '  tool({',
  '    name: `flow_${f.id}`,',
  "    description: 'a flow',",
  '    parameters: z.object({ id: z.string() }),',
  '    errorFunction: null,',
  '    execute: async ({ id }) => `${f.id} ${id}`,',
  '  }),',
  ');',
  "export const desk = new Agent({ name: 'desk', tools: flowTools });",
  "export const answer = (user: string) => run(desk, 'go', { context: { user } });",
  '',
].join('\n');

describe('tools whose names the code computes', () => {
  it('init maps the call by its place, generate and the codemod protect it, check goes green; the manifest type-checks with the app', async () => {
    const dir = repo({ 'src/flows.ts': FLOWS });
    const init = await cli(['init'], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    const manifest = readFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'utf8');
    expect(manifest).toContain('  - tool: { at: "src/flows.ts", names: "*" }\n    action: flow_tools');
    expect(init.stdout).toContain('note: src/flows.ts:5: this tool() computes its name; the tools made there are action flow_tools');
    expect((await cli(['validate'], { cwd: dir })).code).toBe(0);
    // red until protected: the entry maps it, the code still builds it with tool()
    const before = (await findings(dir)).filter((f) => f.ruleId === 'unprotected-tool');
    expect(before.map((f) => `${f.file}:${f.line}`)).toEqual(['src/flows.ts:5']);
    expect(before[0]!.message).toContain("mapped to action 'flow_tools' by their place (`at: src/flows.ts`)");
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    const codemod = await cli(['codemod', '--write', '--allow-dirty'], { cwd: dir });
    expect(codemod.code, codemod.stdout + codemod.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'src/flows.ts'), 'utf8')).toContain("  protectedTool('flow_tools', {");
    const after = await findings(dir);
    expect(after.filter((f) => ['unprotected-tool', 'unmapped-protected-tool', 'unmapped-tool', 'stale-generated'].includes(f.ruleId))).toEqual([]);
    expect(typeCheck(dir)).toEqual([]);
  }, 240_000);

  it('with no entry for its place, check stays red and names the entry to write', async () => {
    const dir = repo({
      'src/flows.ts': FLOWS,
      'ctrlrun.yaml': 'schema: ctrlrun.policy/v6\nactions: {}\n',
      'ctrlrun.tools.yaml': 'schema: ctrlrun.tools/v1\npolicy: ctrlrun.yaml\noutput: src/ctrlrun.generated.ts\ncontrol: src/ctrlrun.control.ts\ntools: []\n',
    });
    const red = (await findings(dir)).filter((f) => f.ruleId === 'unprotected-tool');
    expect(red.map((f) => `${f.file}:${f.line}`)).toEqual(['src/flows.ts:5']);
    const r = await cli(['check'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('- tool: { at: src/flows.ts, in: flowTools, names: "<pattern, e.g. flow_*>" }');
  });
});

describe("hosted MCP servers made by the app's own helper", () => {
  const MCP = [
    "import { Agent, hostedMcpTool } from '@openai/agents';",
    'function makeMcp(label: string) {',
    "  const config = { serverLabel: label, serverUrl: `https://${label}.example/mcp`, requireApproval: 'never' as const };",
    '  return hostedMcpTool(config);',
    '}',
    "export const agent = new Agent({ name: 'docs', tools: [makeMcp('gitmcp'), makeMcp('deepwiki')] });",
    '',
  ].join('\n');

  it('init maps each label the helper is called with, the codemod protects the helper, check goes green', async () => {
    const dir = repo({ 'src/agent.ts': MCP });
    const init = await cli(['init'], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).not.toContain('cannot be mapped');
    const manifest = readFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'utf8');
    expect(manifest).toContain('- hosted_mcp: { server_label: deepwiki }');
    expect(manifest).toContain('- hosted_mcp: { server_label: gitmcp }');
    expect((await findings(dir)).filter((f) => f.ruleId === 'hosted-mcp-unguarded').map((f) => f.message)).toEqual([
      "hostedMcpTool() for 'deepwiki', 'gitmcp': `requireApproval` is not 'always', so some of the server's tools run with no approval.",
    ]);
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    const codemod = await cli(['codemod', '--write', '--allow-dirty'], { cwd: dir });
    expect(codemod.code, codemod.stdout + codemod.stderr).toBe(0);
    const text = readFileSync(path.join(dir, 'src/agent.ts'), 'utf8');
    expect(text).toContain('return protectHostedMcp(config);');
    expect(text).not.toContain('requireApproval');
    expect((await findings(dir)).filter((f) => f.ruleId === 'hosted-mcp-unguarded')).toEqual([]);
    expect(typeCheck(dir)).toEqual([]);
  }, 240_000);

  it('a label the manifest does not map leaves the helper as it is: the codemod says which, check stays red', async () => {
    const dir = repo({ 'src/agent.ts': MCP });
    expect((await cli(['init'], { cwd: dir })).code).toBe(0);
    const manifestFile = path.join(dir, 'ctrlrun.tools.yaml');
    writeFiles(dir, {
      'ctrlrun.tools.yaml': readFileSync(manifestFile, 'utf8').replace(
        / {2}# hostedMcpTool[^\n]*\n {2}- hosted_mcp: \{ server_label: gitmcp \}\n {4}action: [^\n]*\n/,
        '',
      ),
    });
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    const codemod = await cli(['codemod', '--write', '--allow-dirty'], { cwd: dir });
    expect(codemod.code).toBe(1);
    expect(codemod.stdout).toContain("the manifest maps no action to hosted MCP server 'gitmcp'");
    expect(readFileSync(path.join(dir, 'src/agent.ts'), 'utf8')).toContain('return hostedMcpTool(config);');
    expect((await findings(dir)).some((f) => f.ruleId === 'hosted-mcp-unguarded')).toBe(true);
  });
});
