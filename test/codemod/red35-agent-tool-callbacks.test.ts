import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir } from '../helpers/temp-repo.js';
import { codemodInSharedTree, EMPTY_MANIFEST, lines } from './shared-tree.js';

/**
 * Session 35 (test/check/red35-agent-tool-callbacks.test.ts): a door returned by a callback the
 * exporting module declares, or by a callback the agent's file passes to another module's function,
 * is a conflict of the codemod at check's place; a callback returning none is none.
 */

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

async function codemodOf(tools: string) {
  const files: Record<string, string> = {
    'ctrlrun.tools.yaml': EMPTY_MANIFEST,
    'src/kinds.ts': "export const SHELL = ['sh', 'ell'].join('');\nexport const FN = process.env.FN_TYPE!;\n",
    'src/make.ts': lines(
      "import { SHELL } from './kinds.js';",
      'declare const flows: { name: string; run: any }[];',
      'function toShell(f: { run: any }) { return { type: SHELL, shell: f.run }; }',
      'const label = (f: { name: string }) => ({ label: f.name });',
      'export const made = () => flows.map(toShell);',
      'export const labels = () => flows.map(label);',
      'export const viaParam = <T>(cb: (f: { name: string; run: any }) => T) => flows.map(cb);',
    ),
    'src/agent.ts': lines(
      "import { Agent } from '@openai/agents';",
      "import { FN } from './kinds.js';",
      "import { made, labels, viaParam } from './make.js';",
      'function toTool(f: { name: string; run: any }) { return { type: FN, name: f.name, invoke: f.run }; }',
      'const named = (f: { name: string }) => ({ label: f.name });',
      `export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: ${tools} });`,
    ),
  };
  return codemodInSharedTree('codemod-red35-callbacks-', files, dirs);
}

describe('codemod: tools made by a callback the exporting module declares or one passed to it', () => {
  it('each is a conflict at check`s place', async () => {
    const { dir, result } = await codemodOf('[...made(), ...viaParam(toTool)]');
    const left = result.findings.filter((f) => f.kind === 'door-left');
    expect(left.map((f) => `${path.relative(dir, f.file)}:${f.line} ${f.reason}`).sort()).toEqual(['src/agent.ts:4 conflict', 'src/make.ts:3 conflict']);
    expect(result.summary.conflicts).toBe(2);
  });

  it('control: callbacks returning no tool are none', async () => {
    const { result } = await codemodOf('[...labels(), ...viaParam(named)] as any[]');
    expect(result.findings.filter((f) => f.kind === 'door-left')).toEqual([]);
    expect(result.summary.conflicts).toBe(0);
  });
});
