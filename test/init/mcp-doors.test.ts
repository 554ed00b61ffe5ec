import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/manifest/load.js';
import { parsePolicy } from '../../src/policy/load.js';
import { findServers, planActions, renderManifest } from '../../src/init/render.js';
import { scanSource } from '../../src/scan/index.js';
import type { RepoScan } from '../../src/scan/types.js';
import { cli } from '../helpers/cli.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

const AGENT = `import { Agent, MCPServerStdio, hostedMcpTool, tool } from '@openai/agents';
import { z } from 'zod';

const files = new MCPServerStdio({ name: 'filesystem', fullCommand: 'npx -y @modelcontextprotocol/server-filesystem ./' });

export const lookup = tool({ name: 'lookup', description: 'Look up', parameters: z.object({ id: z.string() }), execute: async ({ id }) => id });

export const agent = new Agent({
  name: 'desk',
  tools: [lookup, hostedMcpTool({ serverLabel: 'gitmcp', serverUrl: 'https://gitmcp.io/openai/codex' })],
  mcpServers: [files],
});
`;

function repo(files: Record<string, string>): string {
  const dir = makeTempDir('init-mcp-');
  dirs.push(dir);
  writeFiles(dir, {
    'package.json': JSON.stringify({ name: 'desk', type: 'module' }),
    'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', strict: true } }),
    ...files,
  });
  return dir;
}

function scanOf(files: Record<string, string>): RepoScan {
  return {
    root: '/repo',
    files: Object.entries(files).map(([file, text]) => scanSource(file, text)),
    filesConsidered: Object.keys(files).length,
  } as RepoScan;
}

describe('init proposes manifest entries for MCP doors', () => {
  it('a hosted MCP server gets a hosted_mcp entry and an action; an MCP server of mcpServers a commented mcp entry; generate accepts the files', async () => {
    const dir = repo({ 'src/agent.ts': AGENT });
    const init = await cli(['init'], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('note: hosted MCP server "gitmcp" is action gitmcp.call (decision: approve); protect it with protectHostedMcp');
    expect(init.stdout).toMatch(
      /note: src\/agent\.ts:11: MCP server "filesystem" lists its tools only at run time: map each as `- mcp: \{ server: filesystem, tool: <tool> \}`/,
    );

    const policyText = readFileSync(path.join(dir, 'ctrlrun.yaml'), 'utf8');
    const policy = parsePolicy(policyText, path.join(dir, 'ctrlrun.yaml'));
    expect(policy.diagnostics).toEqual([]);
    expect(Object.keys(policy.value!.actions).sort()).toEqual(['gitmcp.call', 'lookup']);
    expect(policy.value!.actions['gitmcp.call']!.rules.map((r) => r.decision)).toEqual(['approve']);
    expect(policyText).toContain('# hosted MCP server "gitmcp" (hostedMcpTool at src/agent.ts:10): every call it asks to approve');

    const manifestText = readFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'utf8');
    const manifest = parseManifest(manifestText, path.join(dir, 'ctrlrun.tools.yaml'));
    expect(manifest.diagnostics).toEqual([]);
    expect(manifest.value!.tools.map((t) => (t.kind === 'hosted_mcp' ? [t.kind, t.serverLabel, t.action] : [t.kind, t.action]))).toEqual([
      ['function', 'lookup'],
      ['hosted_mcp', 'gitmcp', 'gitmcp.call'],
    ]);
    expect(manifestText).toContain('  # - mcp: { server: filesystem, tool: <tool> }\n  #   action: filesystem.<tool>');

    const generate = await cli(['generate'], { cwd: dir });
    expect(generate.code, generate.stdout + generate.stderr).toBe(0);
    const generated = readFileSync(path.join(dir, 'src/ctrlrun.generated.ts'), 'utf8');
    expect(generated).toMatch(/hostedMcp: \{\s*gitmcp: 'gitmcp\.call'/);

    // the operator fills in a tool of the MCP server: init --force keeps it and proposes nothing more for that server
    writeFileSync(path.join(dir, 'ctrlrun.tools.yaml'), `${manifestText}  - mcp: { server: filesystem, tool: read_file }\n    action: gitmcp.call\n`);
    const again = await cli(['init', '--force'], { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).not.toContain('MCP server "filesystem"');
    expect(again.stdout).not.toContain('hosted MCP server "gitmcp"');
    expect(readFileSync(path.join(dir, 'ctrlrun.yaml'), 'utf8')).toBe(policyText);
  });

  it('init --force adds a hosted MCP server found since, keeping what is there', async () => {
    const dir = repo({ 'src/agent.ts': AGENT });
    expect((await cli(['init'], { cwd: dir })).code).toBe(0);
    writeFiles(dir, {
      'src/more.ts': `import { Agent, hostedMcpTool } from '@openai/agents';\nexport const more = new Agent({ name: 'more', tools: [hostedMcpTool({ serverLabel: 'deepwiki', serverUrl: 'https://mcp.deepwiki.com/mcp' })] });\n`,
    });
    const again = await cli(['init', '--force'], { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    const manifest = parseManifest(readFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'utf8'), path.join(dir, 'ctrlrun.tools.yaml'));
    expect(manifest.diagnostics).toEqual([]);
    expect(manifest.value!.tools.filter((t) => t.kind === 'hosted_mcp').map((t) => [t.kind === 'hosted_mcp' ? t.serverLabel : '', t.action])).toEqual([
      ['gitmcp', 'gitmcp.call'],
      ['deepwiki', 'deepwiki.call'],
    ]);
    const policy = parsePolicy(readFileSync(path.join(dir, 'ctrlrun.yaml'), 'utf8'), path.join(dir, 'ctrlrun.yaml'));
    expect(policy.diagnostics).toEqual([]);
    expect(Object.keys(policy.value!.actions).sort()).toEqual(['deepwiki.call', 'gitmcp.call', 'lookup']);
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
  });

  it('a server name that YAML must quote is quoted in the note and the commented entry', async () => {
    const dir = repo({
      'src/agent.ts': `import { Agent, MCPServerStdio } from '@openai/agents';\nconst fs = new MCPServerStdio({ name: 'Filesystem MCP Server, via npx', fullCommand: 'npx x' });\nexport const a = new Agent({ name: 'a', mcpServers: [fs] });\n`,
    });
    const init = await cli(['init'], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('`- mcp: { server: "Filesystem MCP Server, via npx", tool: <tool> }`');
    expect(readFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'utf8')).toContain('  # - mcp: { server: "Filesystem MCP Server, via npx", tool: <tool> }');
  });

  it('the local execution tools (shell, apply_patch, computer) are mapped by the names the SDK gives them, so the codemod protects them; a hosted shell is not', async () => {
    const dir = repo({
      'src/desk.ts': `import { Agent, applyPatchTool, computerTool, shellTool, type Computer, type Editor, type Shell } from '@openai/agents';
declare const shell: Shell;
declare const editor: Editor;
declare const computer: Computer;
export const agent = new Agent({
  name: 'ops',
  tools: [shellTool({ shell }), applyPatchTool({ editor }), computerTool({ computer }), shellTool({ environment: { type: 'container_auto' } })],
});
`,
    });
    const init = await cli(['init'], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    const manifest = parseManifest(readFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'utf8'), path.join(dir, 'ctrlrun.tools.yaml'));
    expect(manifest.diagnostics).toEqual([]);
    expect(manifest.value!.tools.map((t) => (t.kind === 'function' ? [t.tool, t.action] : [t.kind]))).toEqual([
      ['shell', 'shell'],
      ['apply_patch', 'apply_patch'],
      ['computer_use_preview', 'computer_use_preview'],
    ]);
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    const codemod = await cli(['codemod', '--write', '--allow-dirty'], { cwd: dir });
    expect(codemod.code, codemod.stdout + codemod.stderr).toBe(0);
    const rewritten = readFileSync(path.join(dir, 'src/desk.ts'), 'utf8');
    expect(rewritten).toContain("protectShellTool('shell', { shell })");
    expect(rewritten).toContain("protectApplyPatchTool('apply_patch', { editor })");
    expect(rewritten).toContain("protectComputerTool('computer_use_preview', { computer })");
    expect(rewritten).toContain("shellTool({ environment: { type: 'container_auto' } })");
  });

  it('a hostedMcpTool whose options come from a spread is named in a note and in the manifest, not silently left (issue 21)', async () => {
    const dir = repo({
      'src/agent.ts': `import { Agent, hostedMcpTool } from '@openai/agents';\nconst config = { serverLabel: 'gitmcp', serverUrl: 'https://gitmcp.io/openai/codex' };\nexport const a = new Agent({ name: 'a', tools: [hostedMcpTool({ ...config })] });\n`,
    });
    const init = await cli(['init'], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('Found 0 new tool names');
    expect(init.stdout).toContain(
      'note: src/agent.ts:3: this hostedMcpTool() cannot be mapped: its options are spread in (`{ ...config }`), so its `serverLabel` cannot be read;',
    );
    expect(readFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'utf8')).toContain('# not mapped: the hostedMcpTool() at src/agent.ts:3');
  });

  it('planning: a label whose action id is taken gets a suffix; a server without a literal label or name is not proposed', () => {
    const scan = scanOf({
      'a.ts': `import { Agent, MCPServerStreamableHttp, hostedMcpTool } from '@openai/agents';\nconst label = process.env.L!;\nexport const a = new Agent({ name: 'a', tools: [hostedMcpTool({ serverLabel: 'docs' }), hostedMcpTool({ serverLabel: label })], mcpServers: [new MCPServerStreamableHttp({ url: 'http://x' })] });\n`,
    });
    const servers = findServers(scan);
    expect(servers.hosted.map((s) => s.name)).toEqual(['docs']);
    expect(servers.mcp).toEqual([]);
    const plan = planActions({ tools: [], unnamed: [] }, { actions: new Set(['docs.call']), mapped: new Map() }, servers);
    expect(plan.hosted?.map((h) => h.action)).toEqual(['docs.call_2']);
    expect(renderManifest(plan, { output: 'src/ctrlrun.generated.ts', control: 'src/ctrlrun.control.ts' })).toContain(
      '  - hosted_mcp: { server_label: docs }\n    action: docs.call_2',
    );
  });
});
