import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir } from '../helpers/temp-repo.js';
import { codemodInSharedTree, EMPTY_MANIFEST, lines } from './shared-tree.js';

/**
 * Session 34 (test/check/red34-agent-tool-members.test.ts): a literal door that is a member of an
 * export of a module naming no SDK, handed to an agent's `tools` as that member (`kit.shell`,
 * `...kit.all`), is a conflict of the codemod at check's place; a member not handed is none.
 */

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

async function codemodOf(tools: string) {
  const files: Record<string, string> = {
    'ctrlrun.tools.yaml': EMPTY_MANIFEST,
    'src/kinds.ts': "export const SHELL = ['sh', 'ell'].join('');\nexport const FN = process.env.FN_TYPE!;\n",
    'src/kit.ts': lines(
      "import { SHELL, FN } from './kinds.js';",
      'declare const runner: any;',
      'export const kit = {',
      '  shell: { type: SHELL, shell: runner },',
      "  fn: { type: FN, name: 'lookup', invoke: runner },",
      '  all: [{ type: SHELL, computer: runner }],',
      '  plain: { retries: 3 },',
      '};',
    ),
    'src/agent.ts': lines(
      "import { Agent } from '@openai/agents';",
      "import { kit } from './kit.js';",
      `export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: ${tools} });`,
    ),
  };
  return codemodInSharedTree('codemod-red34-members-', files, dirs);
}

describe('codemod: a literal door handed to an agent as a member of an export', () => {
  it('each is a conflict at check`s place', async () => {
    const { dir, result } = await codemodOf('[kit.shell, kit.fn, ...kit.all] as any[]');
    const left = result.findings.filter((f) => f.kind === 'door-left');
    expect(left.map((f) => `${path.relative(dir, f.file)}:${f.line} ${f.reason}`).sort()).toEqual([
      'src/kit.ts:4 conflict',
      'src/kit.ts:5 conflict',
      'src/kit.ts:6 conflict',
    ]);
    expect(result.summary.conflicts).toBe(3);
  });

  it('control: a member that is no door, handed, is none', async () => {
    const { result } = await codemodOf('[kit.plain] as any[]');
    expect(result.findings.filter((f) => f.kind === 'door-left')).toEqual([]);
    expect(result.summary.conflicts).toBe(0);
  });
});
