import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * Session 32 (issue 40 items 3 and 4): the doors the codemod names as conflicts whatever the
 * manifest maps (a door written as an object literal, a hosted MCP object that may run a call
 * unasked, a function tool written by hand, `needsApproval` given to a protected tool, a
 * handoff's `onInvokeHandoff` written, a door's part written after it is made) are named by init's
 * notes too, at the codemod's place and in its words, so a user who runs init hears of them first.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const PACKAGE = JSON.stringify({ name: 'app', type: 'module', dependencies: { '@openai/agents': '*', zod: '*' } });

const KINDS: Record<string, string> = {
  'package.json': PACKAGE,
  'src/tools.ts': [
    "import { Agent, tool } from '@openai/agents';",
    "import { z } from 'zod';",
    "export const refund = tool({ name: 'refund', description: 'r', parameters: z.object({ id: z.string() }), execute: async () => 'ok' });",
    "export const main = new Agent({ name: 'main', tools: [refund] });",
    '',
  ].join('\n'),
  'src/literal.ts': [
    "import { Agent, type Shell } from '@openai/agents';",
    'declare const shell: Shell;',
    "export const a = new Agent({ name: 'a', tools: [{ type: 'shell', shell } as never] });",
    '',
  ].join('\n'),
  'src/hosted-literal.ts': [
    "import { Agent } from '@openai/agents';",
    "export const f = new Agent({ name: 'f', tools: [{ type: 'hosted_tool', name: 'hosted_mcp', providerData: { type: 'mcp', server_label: 'git', server_url: 'https://x.invalid', require_approval: 'never' } } as never] });",
    '',
  ].join('\n'),
  'src/function-literal.ts': [
    "import { Agent } from '@openai/agents';",
    "export const d = new Agent({ name: 'd', tools: [{ type: 'function', name: 'lit', invoke: async () => 'x' } as never] });",
    '',
  ].join('\n'),
  'src/override.ts': [
    "import { z } from 'zod';",
    "import { protectedTool } from './ctrlrun.generated.js';",
    "export const read = protectedTool('refund', { name: 'read_charge', description: 'r', parameters: z.object({ id: z.string() }), needsApproval: async () => false, execute: async () => 'ok' });",
    '',
  ].join('\n'),
  'src/protected-handoff.ts': [
    "import { Agent } from '@openai/agents';",
    "import { protectHandoff } from './ctrlrun.generated.js';",
    "const oncall = new Agent({ name: 'oncall' });",
    "const h = protectHandoff('handoff.oncall', oncall);",
    'h.onInvokeHandoff = async () => oncall;',
    "export const e = new Agent({ name: 'e', handoffs: [h] });",
    '',
  ].join('\n'),
  'src/hosted.ts': [
    "import { Agent, shellTool } from '@openai/agents';",
    "const s = shellTool({ environment: { type: 'container_auto' } });",
    "s.environment = { type: 'local' } as never;",
    "export const b = new Agent({ name: 'b', tools: [s] });",
    '',
  ].join('\n'),
};

interface Left {
  kind: string;
  reason?: string;
  door?: string;
  file: string;
  line: number;
  column: number;
  message?: string;
  hint?: string;
}

async function initIn(files: Record<string, string>) {
  const dir = makeTempDir('init-hand-doors-');
  dirs.push(dir);
  writeFiles(dir, files);
  const r = await cli(['init'], { cwd: dir });
  return { dir, r };
}

describe('init names the doors the codemod cannot rewrite', () => {
  it('one of each kind: counted and placed, in the words and at the places of the codemod', async () => {
    const { dir, r } = await initIn(KINDS);
    expect(r.code, r.stderr).toBe(0);
    // the codemod on the tree init left (its files written, the module generated): its conflicts
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    const json = JSON.parse((await cli(['codemod', '--format', 'json'], { cwd: dir })).stdout) as { findings: Left[] };
    const left = json.findings.filter((f) => f.kind === 'door-left' && f.reason === 'conflict');
    expect(left.map((f) => `${f.door} ${f.file}:${f.line}`).sort()).toEqual(
      [
        'shellTool src/literal.ts:3',
        'hostedMcpTool src/hosted-literal.ts:2',
        'tool src/function-literal.ts:2',
        'tool src/override.ts:3',
        'handoff src/protected-handoff.ts:5',
        'shellTool src/hosted.ts:3',
      ].sort(),
    );
    const lines = r.stdout.split('\n');
    expect(lines).toContain('note: 6 doors the codemod cannot rewrite: it names each as a conflict, and check reports each until it is rewritten by hand:');
    for (const f of left) {
      const at = lines.findIndex((l) => l.startsWith(`note: ${f.file}:${f.line}:${f.column}: `));
      expect(at, `${f.file}:${f.line}:${f.column}`).toBeGreaterThanOrEqual(0);
      expect(lines[at]!.endsWith(`: ${f.message}`), lines[at]).toBe(true);
      expect(lines[at + 1]).toBe(`    hint: ${f.hint}`);
    }
    // the handoff whose invoke function is written is no handoff init proposes the codemod rewrites
    expect(r.stdout).not.toContain('the handoff to agent "oncall"');
  }, 60_000);

  it('one door: said in the singular', async () => {
    const { r } = await initIn({ 'package.json': PACKAGE, 'src/tools.ts': KINDS['src/tools.ts']!, 'src/literal.ts': KINDS['src/literal.ts']! });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('note: 1 door the codemod cannot rewrite: it names it as a conflict, and check reports it until it is rewritten by hand:');
    expect(r.stdout).toMatch(/note: src\/literal\.ts:3:\d+: shell tool: written as an object literal \(`type: 'shell'`\)/);
  });

  it('a module git ignores is left out: the codemod names it whole, not its doors as conflicts', async () => {
    const dir = makeTempDir('init-hand-doors-');
    dirs.push(dir);
    writeFiles(dir, {
      'package.json': PACKAGE,
      '.gitignore': 'src/gen/\n',
      'src/tools.ts': KINDS['src/tools.ts']!,
      'src/gen/doors.ts': KINDS['src/literal.ts']!,
      'src/agent.ts': "import { run } from '@openai/agents';\nimport { a } from './gen/doors.js';\nexport const go = () => run(a, 'x');\n",
    });
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'app');
    const r = await cli(['init'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('the codemod cannot rewrite');
  });

  it('control: doors the codemod rewrites or that always ask give no such note', async () => {
    const { r } = await initIn({
      'package.json': PACKAGE,
      'src/tools.ts': KINDS['src/tools.ts']!,
      'src/ok.ts': [
        "import { Agent, handoff, shellTool } from '@openai/agents';",
        "import { z } from 'zod';",
        "import { protectedTool } from './ctrlrun.generated.js';",
        "export const read = protectedTool('refund', { name: 'read_charge', description: 'r', parameters: z.object({ id: z.string() }), execute: async () => 'ok' });",
        "const oncall = new Agent({ name: 'oncall' });",
        "const s = shellTool({ environment: { type: 'container_auto' } });",
        "export const f = new Agent({ name: 'f', handoffs: [handoff(oncall)], tools: [read, s, { type: 'hosted_tool', name: 'hosted_mcp', providerData: { type: 'mcp', server_label: 'git', server_url: 'https://x.invalid', require_approval: 'always' } } as never] });",
        '',
      ].join('\n'),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('the codemod cannot rewrite');
    expect(r.stdout).not.toContain('hint:');
  });
});
