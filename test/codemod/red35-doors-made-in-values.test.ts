import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir } from '../helpers/temp-repo.js';
import { codemodInSharedTree, EMPTY_MANIFEST } from './shared-tree.js';

/**
 * Session 35 (test/check/red35-doors-made-in-values.test.ts): a protected shell made inside a list or
 * an object of a module using the SDK, its body written through an element or a member in a file
 * naming no SDK, is a conflict of the codemod at the write; another element written is none.
 */

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

async function codemodOf(ops: string[]) {
  const files: Record<string, string> = {
    'ctrlrun.tools.yaml': EMPTY_MANIFEST,
    'src/list.ts': [
      "import type { Shell } from '@openai/agents';",
      "import { protectShellTool } from './ctrlrun.generated.js';",
      'declare const shell: Shell;',
      "export const tools = [protectShellTool('host.shell', { shell }), { retries: 3 }];",
      "export const kit = { shell: protectShellTool('host.shell', { shell }) };",
      '',
    ].join('\n'),
    'src/ops.ts': [...ops, ''].join('\n'),
  };
  return codemodInSharedTree('codemod-red35-made-', files, dirs);
}

describe('codemod: a door made inside a value, written through it', () => {
  it('is a conflict at each write: an element and a member', async () => {
    const { dir, result } = await codemodOf([
      "import { tools, kit } from './list.js';",
      'declare const other: never;',
      'tools[0].shell = other;',
      'kit.shell.shell = other;',
    ]);
    const left = result.findings.filter((f) => f.kind === 'door-left');
    expect(left.map((f) => `${path.relative(dir, f.file)}:${f.line} ${f.reason}`)).toEqual(['src/ops.ts:3 conflict', 'src/ops.ts:4 conflict']);
    expect(result.summary.conflicts).toBe(2);
  });

  it('control: another element of the list written is none', async () => {
    const { result } = await codemodOf(["import { tools } from './list.js';", 'declare const other: never;', '(tools[1] as any).shell = other;']);
    expect(result.findings.filter((f) => f.kind === 'door-left')).toEqual([]);
    expect(result.summary.conflicts).toBe(0);
  });
});
