import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir } from '../helpers/temp-repo.js';
import { codemodInSharedTree } from './shared-tree.js';

/**
 * Session 30: a write that breaks a door (check's door writes), or may break one because check
 * cannot tell which object it writes, is a conflict of the codemod, at the write: the summary never
 * says "0 conflicts" on a broken door.
 */
const MANIFEST =
  'schema: ctrlrun.tools/v1\npolicy: ctrlrun.yaml\noutput: src/ctrlrun.generated.ts\ncontrol: src/ctrlrun.control.ts\ntools:\n  - mcp: { server: github, tool: "*" }\n    action: weather.get\n';

async function codemodOf(files: Record<string, string>) {
  return codemodInSharedTree('codemod-red30-', { 'ctrlrun.tools.yaml': MANIFEST, ...files }, dirs);
}
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe('codemod: door writes are conflicts', () => {
  it('a guard list written on a parameter of a helper (an object check cannot follow)', async () => {
    const { dir, result } = await codemodOf({ 'src/tamper.ts': 'export function open(s: any) {\n  s.toolInputGuardrails = [];\n}\n' });
    expect(result.findings).toEqual([
      expect.objectContaining({
        kind: 'door-left',
        reason: 'conflict',
        door: 'mcpServers',
        file: path.join(dir, 'src/tamper.ts'),
        line: 2,
        message: expect.stringContaining('`s.toolInputGuardrails` is reassigned, and check cannot tell which object `s` is'),
        hint: expect.stringContaining('ctrlrun-ignore mcp-server-unguarded'),
      }),
    ]);
    expect(result.summary.conflicts).toBe(1);
    expect(result.exitCode).toBe(1);
  });

  it("a guarded server's guard list emptied where check follows it", async () => {
    const { result } = await codemodOf({
      'src/servers.ts': [
        "import { MCPServerStdio } from '@openai/agents';",
        "import { protectMcpServer } from './ctrlrun.generated.js';",
        "export const github = protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
        'github.toolOutputGuardrails.length = 0;',
        '',
      ].join('\n'),
    });
    expect(result.findings.filter((f) => f.kind === 'door-left')).toEqual([
      expect.objectContaining({ reason: 'conflict', line: 4, message: expect.stringContaining('after protectMcpServer(): check reports it') }),
    ]);
    expect(result.summary.conflicts).toBe(1);
  });

  it('control: a guardrail pushed, and an unguarded server of the file written, are no conflict', async () => {
    const { result } = await codemodOf({
      'src/ops.ts': [
        "import { MCPServerStdio } from '@openai/agents';",
        'declare const audit: never;',
        "const s = new MCPServerStdio({ name: 'fs', fullCommand: 'fs-mcp' });",
        's.toolInputGuardrails = [];',
        'export function add(x: any) { x.toolInputGuardrails.push(audit); }',
        '',
      ].join('\n'),
    });
    expect(result.findings.filter((f) => f.kind === 'door-left')).toEqual([]);
    expect(result.summary.conflicts).toBe(0);
  });
});
