import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cjsDoors } from '../check/cjs-doors.js';
import { removeDir } from '../helpers/temp-repo.js';
import { codemodInSharedTree } from './shared-tree.js';

/**
 * Session 34 (test/check/red34-require-locals.test.ts): a CommonJS server exported through a local
 * holding `module.exports` or from an IIFE, its guard list emptied by a module that requires it, is a
 * conflict of the codemod at the write, as check reports it; exported from a named function it is one
 * check cannot tell; a name the module provably does not export as a door is none.
 */
const MANIFEST =
  'schema: ctrlrun.tools/v1\npolicy: ctrlrun.yaml\noutput: src/ctrlrun.generated.ts\ncontrol: src/ctrlrun.control.ts\ntools:\n  - mcp: { server: github, tool: "*" }\n    action: weather.get\n';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

async function conflictsOf(...exportLines: string[]) {
  const files = {
    'ctrlrun.tools.yaml': MANIFEST,
    'src/doors.js': cjsDoors(...exportLines),
    'src/ops.js': "require('./doors').github.toolInputGuardrails = [];\n",
  };
  const { dir, result } = await codemodInSharedTree('codemod-red34-', files, dirs);
  return { dir, left: result.findings.filter((f) => f.kind === 'door-left'), conflicts: result.summary.conflicts };
}

describe('codemod: a CommonJS door exported through a local or a function, written where it is required', () => {
  it('through `const e = module.exports` and from an IIFE: a conflict at the write', async () => {
    for (const exp of [
      ['const e = module.exports;', 'e.github = github;'],
      ['(() => {', '  exports.github = github;', '})();'],
    ]) {
      const { dir, left, conflicts } = await conflictsOf(...exp);
      expect(left, exp.join(' ')).toEqual([
        expect.objectContaining({
          reason: 'conflict',
          file: path.join(dir, 'src/ops.js'),
          line: 1,
          message: expect.stringContaining('is reassigned after protectMcpServer()'),
        }),
      ]);
      expect(conflicts).toBe(1);
    }
  });

  it('from a named function: a conflict check cannot tell', async () => {
    const { left } = await conflictsOf('function init() {', '  exports.github = github;', '}');
    expect(left).toEqual([expect.objectContaining({ reason: 'conflict', line: 1, message: expect.stringContaining('check cannot tell') })]);
  });

  it('control: a name the module provably does not export as a door is none', async () => {
    const { left, conflicts } = await conflictsOf('const e = module.exports;', 'e.github = { toolInputGuardrails: [] };', 'e.shellTool = shellTool;');
    expect(left).toEqual([]);
    expect(conflicts).toBe(0);
  });
});
