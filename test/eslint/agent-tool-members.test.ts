import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NAMESPACE } from '../../src/eslint/index.js';
import { removeDir } from '../helpers/temp-repo.js';
import { eslintWith, openDoorsRepo, parityAcross, reported } from './helpers.js';

/**
 * Session 34 (test/check/red34-agent-tool-members.test.ts): a literal door that is a member of an
 * export of a module naming no SDK (`export const kit = { shell: { type: SHELL, shell } }`), handed
 * to an agent's `tools` as that member (`kit.shell`, `...kit.all`) in another file. The plugin reads
 * the same scan: check's findings, places and messages in ESLint; a member not handed stays silent.
 */
const KIT = [
  "import { SHELL, FN } from './kinds34.js';",
  'declare const runner: any;',
  'export const kit = {',
  '  shell: { type: SHELL, shell: runner },',
  "  fn: { type: FN, name: 'lookup', invoke: runner },",
  '  all: [{ type: SHELL, computer: runner }],',
  '  unused: { type: SHELL, editor: runner },',
  '};',
  '',
].join('\n');
const FILES: Record<string, string> = {
  'src/kinds34.ts': "export const SHELL = ['sh', 'ell'].join('');\nexport const FN = process.env.FN_TYPE!;\n",
  'src/kit34.ts': KIT,
  'src/desk34.ts': [
    "import { Agent } from '@openai/agents';",
    "import { kit } from './kit34.js';",
    "export const desk34 = new Agent({ name: 'desk34', instructions: 'Help.', tools: [kit.shell, kit.fn, ...kit.all] });",
    '',
  ].join('\n'),
};
const RULES = ['unprotected-door', 'object-literal-tool'];

describe('a literal door that is a member of an export, handed to an agent, in ESLint', () => {
  it('each is reported as check reports it; an edited buffer of the module keeps them', async () => {
    const cwd = openDoorsRepo('eslint-agent-tool-members-', FILES);
    try {
      const { findings: check, eslint, check: expected } = await parityAcross(cwd, ['src/kit34.ts'], RULES);
      expect(check.map((f) => `${f.file}:${f.line} ${f.ruleId}`).sort()).toEqual([
        'src/kit34.ts:4 unprotected-door',
        'src/kit34.ts:5 object-literal-tool',
        'src/kit34.ts:6 unprotected-door',
      ]);
      expect(eslint).toEqual(expected);
      // a new text of the module (an editor's buffer) is scanned with the members agents are handed
      const again = reported(await eslintWith(cwd).lintText(`// edited\n${KIT}`, { filePath: path.join(cwd, 'src/kit34.ts') }), cwd).filter((m) =>
        RULES.some((r) => m.ruleId === `${NAMESPACE}/${r}`),
      );
      expect(again.map((m) => `${m.line} ${m.ruleId}`)).toEqual([
        `5 ${NAMESPACE}/unprotected-door`,
        `6 ${NAMESPACE}/object-literal-tool`,
        `7 ${NAMESPACE}/unprotected-door`,
      ]);
    } finally {
      removeDir(cwd);
    }
  });
});
