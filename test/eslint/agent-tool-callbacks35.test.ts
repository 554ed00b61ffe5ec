import { describe, expect, it } from 'vitest';
import { removeDir } from '../helpers/temp-repo.js';
import { openDoorsRepo, parityAcross } from './helpers.js';

/**
 * Session 35 (test/check/red35-agent-tool-callbacks.test.ts): a door returned by a callback the
 * exporting module declares (`flows.map(toShell)`, `helpers.toEditor`), and a callback the agent's
 * file passes to another module's function. The plugin reads the same scan: check's findings in ESLint.
 */
const FILES: Record<string, string> = {
  'src/kinds35cb.ts': "export const SHELL = ['sh', 'ell'].join('');\nexport const FN = process.env.FN_TYPE!;\n",
  'src/make35cb.ts': [
    "import { SHELL } from './kinds35cb.js';",
    'declare const flows: { name: string; run: any }[];',
    'function toShell(f: { run: any }) { return { type: SHELL, shell: f.run }; }',
    'const helpers = { toEditor: (f: { run: any }) => ({ type: SHELL, editor: f.run }) };',
    'export const made = () => [...flows.map(toShell), ...flows.map(helpers.toEditor)];',
    'export const viaParam = <T>(cb: (f: { name: string; run: any }) => T) => flows.map(cb);',
    '',
  ].join('\n'),
  'src/desk35cb.ts': [
    "import { Agent } from '@openai/agents';",
    "import { FN } from './kinds35cb.js';",
    "import { made, viaParam } from './make35cb.js';",
    'function toTool(f: { name: string; run: any }) { return { type: FN, name: f.name, invoke: f.run }; }',
    "export const desk35 = new Agent({ name: 'desk35', instructions: 'Help.', tools: [...made(), ...viaParam(toTool)] });",
    '',
  ].join('\n'),
};
const RULES = ['unprotected-door', 'object-literal-tool'];

describe('a door returned by a callback a module declares or a callback passed to it, in ESLint', () => {
  it('each is reported as check reports it', async () => {
    const cwd = openDoorsRepo('eslint-agent-tool-callbacks35-', FILES);
    try {
      const { findings: check, eslint, check: expected } = await parityAcross(cwd, ['src/make35cb.ts', 'src/desk35cb.ts'], RULES);
      expect(check.map((f) => `${f.file}:${f.line} ${f.ruleId}`).sort()).toEqual([
        'src/desk35cb.ts:4 object-literal-tool',
        'src/make35cb.ts:3 unprotected-door',
        'src/make35cb.ts:4 unprotected-door',
      ]);
      expect(eslint).toEqual(expected);
    } finally {
      removeDir(cwd);
    }
  });
});
