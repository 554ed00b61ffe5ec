import { describe, expect, it } from 'vitest';
import { removeDir } from '../helpers/temp-repo.js';
import { openDoorsRepo, parityAcross } from './helpers.js';

/**
 * Session 34 (test/check/red34-agent-tool-callbacks.test.ts): an agent's `tools` made by a callback
 * passed by name (`flows.map(toTool)`, an imported `toShell`) or by `Array.from(xs, cb)`. The plugin
 * reads the same scan: check's findings, places and messages in ESLint.
 */
const FILES: Record<string, string> = {
  'src/kinds34cb.ts': "export const SHELL = ['sh', 'ell'].join('');\nexport const FN = process.env.FN_TYPE!;\n",
  'src/make34cb.ts': ["import { SHELL } from './kinds34cb.js';", 'export function toShell(f: { run: any }) { return { type: SHELL, shell: f.run }; }', ''].join(
    '\n',
  ),
  'src/desk34cb.ts': [
    "import { Agent } from '@openai/agents';",
    "import { FN } from './kinds34cb.js';",
    "import { toShell } from './make34cb.js';",
    'declare const flows: { name: string; run: any }[];',
    'function toTool(f: { name: string; run: any }) { return { type: FN, name: f.name, invoke: f.run }; }',
    "export const desk34 = new Agent({ name: 'desk34', instructions: 'Help.', tools: [...flows.map(toTool), ...Array.from(flows, toShell)] });",
    '',
  ].join('\n'),
};
const RULES = ['unprotected-door', 'object-literal-tool'];

describe('an agent`s tools made by a named callback or `Array.from`, in ESLint', () => {
  it('each is reported as check reports it', async () => {
    const cwd = openDoorsRepo('eslint-agent-tool-callbacks-', FILES);
    try {
      const { findings: check, eslint, check: expected } = await parityAcross(cwd, ['src/make34cb.ts', 'src/desk34cb.ts'], RULES);
      expect(check.map((f) => `${f.file}:${f.line} ${f.ruleId}`).sort()).toEqual([
        'src/desk34cb.ts:5 object-literal-tool',
        'src/make34cb.ts:2 unprotected-door',
      ]);
      expect(eslint).toEqual(expected);
    } finally {
      removeDir(cwd);
    }
  });
});
