import { describe, expect, it } from 'vitest';
import { removeDir } from '../helpers/temp-repo.js';
import { openDoorsRepo, parityAcross } from './helpers.js';

/**
 * Session 35 (test/check/red35-agent-tool-copies.test.ts): an agent's `tools` given a copy of a
 * list (`Array.from(xs)`, `xs.slice()`) or an object's values (`Object.values(kit)`), of the file
 * and of an import. The plugin reads the same scan: check's findings, places and messages in ESLint.
 */
const FILES: Record<string, string> = {
  'src/kinds35cp.ts': "export const SHELL = ['sh', 'ell'].join('');\nexport const FN = process.env.FN_TYPE!;\n",
  'src/make35cp.ts': [
    "import { SHELL } from './kinds35cp.js';",
    'declare const run: any;',
    'export const kit35 = { one: { type: SHELL, shell: run } };',
    'export const list35 = [{ type: SHELL, editor: run }];',
    '',
  ].join('\n'),
  'src/desk35cp.ts': [
    "import { Agent } from '@openai/agents';",
    "import { FN } from './kinds35cp.js';",
    "import { kit35, list35 } from './make35cp.js';",
    'declare const run: any;',
    "const mine = [{ type: FN, name: 'mine', invoke: run }];",
    "export const desk35 = new Agent({ name: 'desk35', instructions: 'Help.', tools: [...Array.from(mine), ...Object.values(kit35), ...list35.slice()] });",
    '',
  ].join('\n'),
};
const RULES = ['unprotected-door', 'object-literal-tool'];

describe('a copy of a list or an object`s values for an agent`s tools, in ESLint', () => {
  it('each is reported as check reports it', async () => {
    const cwd = openDoorsRepo('eslint-agent-tool-copies-', FILES);
    try {
      const { findings: check, eslint, check: expected } = await parityAcross(cwd, ['src/make35cp.ts', 'src/desk35cp.ts'], RULES);
      expect(check.map((f) => `${f.file}:${f.line} ${f.ruleId}`).sort()).toEqual([
        'src/desk35cp.ts:5 object-literal-tool',
        'src/make35cp.ts:3 unprotected-door',
        'src/make35cp.ts:4 unprotected-door',
      ]);
      expect(eslint).toEqual(expected);
    } finally {
      removeDir(cwd);
    }
  });
});
