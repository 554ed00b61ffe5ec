import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir } from '../helpers/temp-repo.js';
import { codemodInSharedTree } from './shared-tree.js';

/**
 * Session 32 (test/check/red32-unscanned-exports.test.ts): a server made by an imported factory and
 * exported by a module naming no SDK, its guard list emptied by its importer, is a conflict of the
 * codemod at the write, as check reports it; a plain object exported beside it is none.
 */
const MANIFEST =
  'schema: ctrlrun.tools/v1\npolicy: ctrlrun.yaml\noutput: src/ctrlrun.generated.ts\ncontrol: src/ctrlrun.control.ts\ntools:\n  - mcp: { server: github, tool: "*" }\n    action: weather.get\n';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

async function codemodOf(ops: string[]) {
  const files: Record<string, string> = {
    'ctrlrun.tools.yaml': MANIFEST,
    'src/factory.ts': [
      "import { MCPServerStdio } from '@openai/agents';",
      "import { protectMcpServer } from './ctrlrun.generated.js';",
      "export const makeServer = () => protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
      '',
    ].join('\n'),
    'src/servers.ts': ["import { makeServer } from './factory.js';", 'export const gh = makeServer();', 'export const settings = { retries: 3 };', ''].join(
      '\n',
    ),
    'src/ops.ts': [...ops, ''].join('\n'),
  };
  return codemodInSharedTree('codemod-red32-', files, dirs);
}

describe('codemod: a door part written on an export of a module check does not scan', () => {
  it('is a conflict at the write', async () => {
    const { dir, result } = await codemodOf(["import { gh } from './servers.js';", 'gh.toolInputGuardrails = [];']);
    expect(result.findings.filter((f) => f.kind === 'door-left')).toEqual([
      expect.objectContaining({
        reason: 'conflict',
        file: path.join(dir, 'src/ops.ts'),
        line: 2,
        message: expect.stringContaining('check cannot tell which object `gh` is'),
      }),
    ]);
    expect(result.summary.conflicts).toBe(1);
  });

  it('control: a plain object exported beside it, written, is none', async () => {
    const { result } = await codemodOf(["import { settings } from './servers.js';", '(settings as any).toolInputGuardrails = [];']);
    expect(result.findings.filter((f) => f.kind === 'door-left')).toEqual([]);
    expect(result.summary.conflicts).toBe(0);
  });
});
