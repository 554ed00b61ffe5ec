import { afterAll, describe, expect, it } from 'vitest';
import { cliProcess } from '../helpers/cli.js';
import { copyFixture, removeDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * Session 30 (issue 40 item 4): a door broken after it is made, written through a holder
 * (`o.server.toolInputGuardrails = []`, `this.shell.shell = other`), in another module, or by its
 * `invoke`/`getAllTools` replaced, is reported by check; the codemod has no rewrite for it, and its
 * summary and `--format json` said "0 conflicts" and named none. Each is now a conflict at check's
 * place (exit 1, reason `conflicts`).
 */
const HELD = [
  "import { Agent, MCPServerStdio, type Shell } from '@openai/agents';",
  "import { protectMcpServer, protectShellTool, protectedTool } from './ctrlrun.generated.js';",
  'declare const shell: Shell;',
  "const o = { server: protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' })) };",
  'o.server.toolInputGuardrails = [];',
  'class Desk {',
  "  shell = protectShellTool('host.shell', { shell });",
  '  tamper(other: Shell) {',
  '    this.shell.shell = other;',
  '  }',
  '}',
  'export const desk = new Desk();',
  "export const github = protectMcpServer(new MCPServerStdio({ name: 'gh', fullCommand: 'gh-mcp' }));",
  "export const refund = protectedTool('refund', { description: 'refund', parameters: {} as never, execute: async () => 'ok' });",
  'refund.invoke = async () => "done";',
  "export const agent = new Agent({ name: 'desk', tools: [desk.shell, refund], mcpServers: [github] });",
  'agent.getAllTools = async () => [];',
  '',
].join('\n');

/** A module naming no SDK that writes an imported door. */
const OPS = ["import { github } from './held.js';", 'github.toolOutputGuardrails.splice(0);', ''].join('\n');

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function app(files: Record<string, string>): string {
  const dir = copyFixture('check/open-doors/repo', 'codemod-door-writes-');
  dirs.push(dir);
  writeFiles(dir, {
    'ctrlrun.tools.yaml': 'schema: ctrlrun.tools/v1\npolicy: ctrlrun.yaml\noutput: src/ctrlrun.generated.ts\ncontrol: src/ctrlrun.control.ts\ntools: []\n',
    ...files,
  });
  for (const f of ['src/agent.ts', 'src/tools.ts', 'src/broken.ts', 'src/suppressed.ts', 'src/vercel.ts']) writeFiles(dir, { [f]: 'export {};\n' });
  return dir;
}

/** check's findings of a door written after it is made, as `file:line:column`. */
function checkWrites(dir: string): string[] {
  const r = cliProcess(['check', '--format', 'json'], { cwd: dir });
  const findings = (JSON.parse(r.stdout) as { findings: Array<{ ruleId: string; file: string; line: number; column: number; message: string }> }).findings;
  return findings
    .filter((f) => /reassigned|changed in place|is replaced|another `invoke`|replaces/.test(f.message) || f.ruleId === 'invoke-replaced')
    .map((f) => `${f.file}:${f.line}:${f.column}`)
    .sort();
}

describe('codemod: a door written after it is made is a conflict', () => {
  it('summary and --format json count and name each door write check reports', () => {
    const dir = app({ 'src/held.ts': HELD, 'src/ops.ts': OPS });
    const expected = ['src/held.ts:5:1', 'src/held.ts:9:5', 'src/held.ts:15:1', 'src/held.ts:17:1', 'src/ops.ts:2:1'].sort();
    expect(checkWrites(dir)).toEqual(expected);

    const json = cliProcess(['codemod', '--format', 'json'], { cwd: dir });
    expect(json.code).toBe(1);
    const out = JSON.parse(json.stdout) as {
      summary: { conflicts: number };
      outcome: { exitReasons: string[]; conflicts: Array<{ file: string; line: number; column: number; cause: string; message: string }> };
    };
    expect(out.summary.conflicts).toBe(expected.length);
    expect(out.outcome.exitReasons).toContain('conflicts');
    expect(out.outcome.conflicts.map((c) => `${c.file}:${c.line}:${c.column}`).sort()).toEqual(expected);
    expect(out.outcome.conflicts.map((c) => c.cause).sort()).toEqual(['agent', 'mcpServers', 'mcpServers', 'shellTool', 'tool']);
    expect(out.outcome.conflicts.find((c) => c.file === 'src/ops.ts')?.message).toMatch(
      /`github.toolOutputGuardrails` is changed in place .*after protectMcpServer\(\)/,
    );

    const text = cliProcess(['codemod'], { cwd: dir });
    expect(text.code).toBe(1);
    expect(text.stdout + text.stderr).toContain(`${expected.length} conflicts`);
    expect(text.stdout + text.stderr).toMatch(/src\/held\.ts:9:5: conflict: shell tool: its `shell` is reassigned after protectShellTool\(\)/);
  });

  it('control: the same doors, none written after it is made: no conflict', () => {
    const clean = HELD.split('\n')
      .filter((l) => !/= \[\];|\.shell = other|\.invoke =|getAllTools =/.test(l))
      .join('\n');
    const dir = app({ 'src/held.ts': clean });
    expect(checkWrites(dir)).toEqual([]);
    const out = JSON.parse(cliProcess(['codemod', '--format', 'json'], { cwd: dir }).stdout) as { summary: { conflicts: number } };
    expect(out.summary.conflicts).toBe(0);
  });
});
