import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir } from '../helpers/temp-repo.js';
import { codemodInSharedTree, EMPTY_MANIFEST, lines } from './shared-tree.js';

/**
 * Session 34 (test/check/red34-agent-tool-callbacks.test.ts): an agent's `tools` made by a callback
 * passed by name (`flows.map(toTool)`, an imported `toShell`) or by `Array.from(xs, cb)`: each door
 * the callback returns is a conflict of the codemod at check's place; a callback returning none is none.
 */

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

async function codemodOf(tools: string) {
  const files: Record<string, string> = {
    'ctrlrun.tools.yaml': EMPTY_MANIFEST,
    'src/kinds.ts': "export const SHELL = ['sh', 'ell'].join('');\nexport const FN = process.env.FN_TYPE!;\n",
    'src/make.ts': lines("import { SHELL } from './kinds.js';", 'export function toShell(f: { run: any }) { return { type: SHELL, shell: f.run }; }'),
    'src/agent.ts': lines(
      "import { Agent } from '@openai/agents';",
      "import { FN } from './kinds.js';",
      "import { toShell } from './make.js';",
      'declare const flows: { name: string; run: any }[];',
      'function toTool(f: { name: string; run: any }) { return { type: FN, name: f.name, invoke: f.run }; }',
      'const label = (f: { name: string }) => ({ label: f.name });',
      `export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: ${tools} });`,
    ),
  };
  return codemodInSharedTree('codemod-red34-callbacks-', files, dirs);
}

describe('codemod: tools made by a named callback or `Array.from`', () => {
  it('each is a conflict at check`s place', async () => {
    const { dir, result } = await codemodOf('[...flows.map(toTool), ...Array.from(flows, toShell)]');
    const left = result.findings.filter((f) => f.kind === 'door-left');
    expect(left.map((f) => `${path.relative(dir, f.file)}:${f.line} ${f.reason}`).sort()).toEqual(['src/agent.ts:5 conflict', 'src/make.ts:2 conflict']);
    expect(result.summary.conflicts).toBe(2);
  });

  it('control: a callback returning no tool is none', async () => {
    const { result } = await codemodOf('flows.map(label) as any[]');
    expect(result.findings.filter((f) => f.kind === 'door-left')).toEqual([]);
    expect(result.summary.conflicts).toBe(0);
  });
});
