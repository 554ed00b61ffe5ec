import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/check/engine.js';
import { eslintMessage, NAMESPACE } from '../../src/eslint/index.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { eslintWith, reported } from './helpers.js';

/**
 * Session 32 (test/check/red32-agent-tool-literals.test.ts): a literal shell and a function tool
 * whose `type` check cannot read, in a module naming no SDK whose exports an agent's `tools` holds.
 * The plugin reads the same scan, so each gives check's finding at check's place with check's message.
 */
const FILES: Record<string, string> = {
  'src/kinds32.ts': "export const SHELL = ['sh', 'ell'].join('');\nexport const FN = process.env.FN_TYPE!;\n",
  'src/doors32.ts': [
    "import { SHELL, FN } from './kinds32.js';",
    'declare const runner: any;',
    "export const myShell = { type: SHELL, name: 'sh', shell: runner };",
    "export const lookup = { type: FN, name: 'lookup', invoke: runner };",
    '',
  ].join('\n'),
  'src/desk32.ts': [
    "import { Agent } from '@openai/agents';",
    "import { myShell, lookup } from './doors32.js';",
    "export const desk32 = new Agent({ name: 'desk32', instructions: 'Help.', tools: [myShell, lookup] });",
    '',
  ].join('\n'),
};
const RULES = ['unprotected-door', 'object-literal-tool'];

describe('a literal door handed to an agent from a module naming no SDK, in ESLint', () => {
  const cwd = copyFixture('check/open-doors/repo', 'eslint-agent-tool-literals-');
  afterAll(() => removeDir(cwd));

  it('each is reported as check reports it', async () => {
    for (const [file, text] of Object.entries(FILES)) writeFileSync(path.join(cwd, file), text);
    const files = ['src/doors32.ts'];
    const check = (await runCheck({ cwd })).findings.filter((f) => files.includes(f.file) && RULES.includes(f.ruleId));
    expect(check.map((f) => `${f.file}:${f.line} ${f.ruleId}`).sort()).toEqual(['src/doors32.ts:3 unprotected-door', 'src/doors32.ts:4 object-literal-tool']);
    const eslint = reported(await eslintWith(cwd).lintFiles(files), cwd).filter((m) => RULES.some((r) => m.ruleId === `${NAMESPACE}/${r}`));
    const key = (m: { line: number; column: number; ruleId: string | null; message: string }) => `${m.line}:${m.column} ${m.ruleId} ${m.message}`;
    expect(eslint.map(key).sort()).toEqual(check.map((f) => key({ ...f, ruleId: `${NAMESPACE}/${f.ruleId}`, message: eslintMessage(f) })).sort());
    // a new text of the module (an editor's buffer, which the prefilter alone would skip: no
    // `invoke`, no quoted 'shell') is scanned with the names agents are handed
    const edited = `// edited\n${FILES['src/doors32.ts']!.replace(/^export const lookup.*$/m, '')}`;
    const again = reported(await eslintWith(cwd).lintText(edited, { filePath: path.join(cwd, 'src/doors32.ts') }), cwd).filter((m) =>
      RULES.some((r) => m.ruleId === `${NAMESPACE}/${r}`),
    );
    expect(again.map((m) => `${m.line} ${m.ruleId}`)).toEqual([`4 ${NAMESPACE}/unprotected-door`]);
  });
});
