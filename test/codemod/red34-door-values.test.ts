import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir } from '../helpers/temp-repo.js';
import { codemodInSharedTree, EMPTY_MANIFEST } from './shared-tree.js';
import { SHELL_DOOR_MODULE } from '../shell-door-module.js';

/**
 * Session 34 (test/check/red34-door-values.test.ts): a protected shell held inside a value (`export
 * const tools = [shellTool]`, `export const kit = { shell: shellTool }`), its body written through an
 * element or a member in a file naming neither the SDK nor the generated module, is a conflict of the
 * codemod at the write, as check reports it; another element written is none.
 */

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

async function codemodOf(ops: string[]) {
  const files: Record<string, string> = {
    'ctrlrun.tools.yaml': EMPTY_MANIFEST,
    'src/doors.ts': SHELL_DOOR_MODULE,
    'src/list.ts': [
      "import { shellTool } from './doors.js';",
      'const settings = { retries: 3 };',
      'export const tools = [shellTool, settings];',
      'export const kit = { shell: shellTool };',
      '',
    ].join('\n'),
    'src/ops.ts': [...ops, ''].join('\n'),
  };
  return codemodInSharedTree('codemod-red34-', files, dirs);
}

describe('codemod: a door written through a value that holds it', () => {
  it("is a conflict at each write: an element and a member as the door's own, an index check cannot read as an object check cannot tell", async () => {
    const { dir, result } = await codemodOf([
      "import { tools, kit } from './list.js';",
      'declare const other: never;',
      'declare const i: number;',
      'tools[0].shell = other;',
      'kit.shell.shell = other;',
      'tools[i].shell = other;',
    ]);
    const left = result.findings.filter((f) => f.kind === 'door-left');
    expect(left).toEqual([
      expect.objectContaining({ reason: 'conflict', file: path.join(dir, 'src/ops.ts'), line: 4 }),
      expect.objectContaining({ reason: 'conflict', file: path.join(dir, 'src/ops.ts'), line: 5 }),
      expect.objectContaining({
        reason: 'conflict',
        file: path.join(dir, 'src/ops.ts'),
        line: 6,
        message: expect.stringContaining('check cannot tell which object `tools[i]` is'),
      }),
    ]);
    expect(result.summary.conflicts).toBe(3);
  });

  it('control: another element of the list written is none', async () => {
    const { result } = await codemodOf(["import { tools } from './list.js';", 'declare const other: never;', '(tools[1] as any).shell = other;']);
    expect(result.findings.filter((f) => f.kind === 'door-left')).toEqual([]);
    expect(result.summary.conflicts).toBe(0);
  });
});
