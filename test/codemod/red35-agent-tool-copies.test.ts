import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir } from '../helpers/temp-repo.js';
import { codemodInSharedTree, EMPTY_MANIFEST, lines } from './shared-tree.js';

/**
 * Session 35 (test/check/red35-agent-tool-copies.test.ts): an agent's `tools` given a copy of a list
 * or an object's values: each door there is a conflict of the codemod at check's place; a copy of a
 * list holding no tool is none.
 */

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

async function codemodOf(tools: string) {
  const files: Record<string, string> = {
    'ctrlrun.tools.yaml': EMPTY_MANIFEST,
    'src/kinds.ts': "export const SHELL = ['sh', 'ell'].join('');\nexport const FN = process.env.FN_TYPE!;\n",
    'src/make.ts': lines(
      "import { SHELL } from './kinds.js';",
      'declare const run: any;',
      'export const kit = { one: { type: SHELL, shell: run } };',
      "export const labels = { one: { label: 'x' } };",
    ),
    'src/agent.ts': lines(
      "import { Agent } from '@openai/agents';",
      "import { FN } from './kinds.js';",
      "import { kit, labels } from './make.js';",
      'declare const run: any;',
      "const mine = [{ type: FN, name: 'mine', invoke: run }];",
      "const plain = [{ label: 'x' }];",
      `export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: ${tools} });`,
    ),
  };
  return codemodInSharedTree('codemod-red35-copies-', files, dirs);
}

describe('codemod: tools given a copy of a list or an object`s values', () => {
  it('each is a conflict at check`s place', async () => {
    const { dir, result } = await codemodOf('[...Array.from(mine), ...Object.values(kit)]');
    const left = result.findings.filter((f) => f.kind === 'door-left');
    expect(left.map((f) => `${path.relative(dir, f.file)}:${f.line} ${f.reason}`).sort()).toEqual(['src/agent.ts:5 conflict', 'src/make.ts:3 conflict']);
    expect(result.summary.conflicts).toBe(2);
  });

  it('control: copies holding no tool are none', async () => {
    const { result } = await codemodOf('[...Array.from(plain), ...Object.values(labels)] as any[]');
    expect(result.findings.filter((f) => f.kind === 'door-left')).toEqual([]);
    expect(result.summary.conflicts).toBe(0);
  });
});
