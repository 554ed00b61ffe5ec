import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir } from '../helpers/temp-repo.js';
import { codemodInSharedTree, EMPTY_MANIFEST } from './shared-tree.js';
import { SHELL_DOOR_MODULE } from '../shell-door-module.js';

/**
 * Session 33 (test/check/red33-door-aliases.test.ts): a protected shell exported again as a value
 * (`export const gh = shellTool`, `cond ? settings : shellTool`), its body written in a file naming
 * neither the SDK nor the generated module, is a conflict of the codemod at the write, as check
 * reports it; a plain object exported beside it is none.
 */

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

async function codemodOf(ops: string[]) {
  const files: Record<string, string> = {
    'ctrlrun.tools.yaml': EMPTY_MANIFEST,
    'src/doors.ts': SHELL_DOOR_MODULE,
    'src/alias.ts': [
      "import { shellTool } from './doors.js';",
      'const settings = { retries: 3 };',
      'export const gh = shellTool;',
      'export const either = process.env.X ? settings : shellTool;',
      'export const plain = settings;',
      '',
    ].join('\n'),
    'src/ops.ts': [...ops, ''].join('\n'),
  };
  return codemodInSharedTree('codemod-red33-', files, dirs);
}

describe('codemod: a door written through a value that exports it again', () => {
  it("is a conflict at each write: the alias as the door's own, the conditional as an object check cannot tell", async () => {
    const { dir, result } = await codemodOf([
      "import { gh, either } from './alias.js';",
      'declare const other: never;',
      'gh.shell = other;',
      'either.shell = other;',
    ]);
    const left = result.findings.filter((f) => f.kind === 'door-left');
    expect(left).toEqual([
      expect.objectContaining({ reason: 'conflict', file: path.join(dir, 'src/ops.ts'), line: 3 }),
      expect.objectContaining({
        reason: 'conflict',
        file: path.join(dir, 'src/ops.ts'),
        line: 4,
        message: expect.stringContaining('check cannot tell which object `either` is'),
      }),
    ]);
    expect(result.summary.conflicts).toBe(2);
  });

  it('control: a plain object exported beside them, written, is none', async () => {
    const { result } = await codemodOf(["import { plain } from './alias.js';", 'declare const other: never;', '(plain as any).shell = other;']);
    expect(result.findings.filter((f) => f.kind === 'door-left')).toEqual([]);
    expect(result.summary.conflicts).toBe(0);
  });
});
