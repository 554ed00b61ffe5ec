import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { parityAcross } from './helpers.js';

/**
 * Session 33 (test/check/red33-agent-tool-local.test.ts): what a function of the agent's file called
 * for its `tools` returns, what a function returns through a variable or a `.map` callback. The
 * plugin reads the same scan: check's finding, place and message in ESLint.
 */
const FILES: Record<string, string> = {
  'src/kinds33l.ts': "export const SHELL = ['sh', 'ell'].join('');\nexport const FN = process.env.FN_TYPE!;\n",
  'src/make33l.ts': [
    "import { SHELL } from './kinds33l.js';",
    'declare const runner: any;',
    'declare const flows: { run: any }[];',
    'export function makeTools() { const list = [{ type: SHELL, shell: runner }]; return list; }',
    'export const mapped = () => flows.map((f) => ({ type: SHELL, computer: f.run }));',
    '',
  ].join('\n'),
  'src/desk33l.ts': [
    "import { Agent } from '@openai/agents';",
    "import { FN } from './kinds33l.js';",
    "import { makeTools, mapped } from './make33l.js';",
    'declare const runner: any;',
    'declare const flows: { name: string; run: any }[];',
    "function build() { return [{ type: FN, name: 'inline', invoke: runner }, ...makeTools()]; }",
    "export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [...build(), ...mapped()] });",
    "export const box = new Agent({ name: 'box', instructions: 'Help.', tools: flows.map((f) => ({ type: FN, name: f.name, invoke: f.run })) });",
    '',
  ].join('\n'),
};
const RULES = ['unprotected-door', 'object-literal-tool'];

describe('an agent`s tools through a local function, a variable or a map, in ESLint', () => {
  const cwd = copyFixture('check/open-doors/repo', 'eslint-agent-tool-local-');
  afterAll(() => removeDir(cwd));

  it('each is reported as check reports it', async () => {
    for (const [file, text] of Object.entries(FILES)) writeFileSync(path.join(cwd, file), text);
    const files = ['src/make33l.ts', 'src/desk33l.ts'];
    const { findings: check, eslint, check: expected } = await parityAcross(cwd, files, RULES);
    expect(check.map((f) => `${f.file}:${f.line} ${f.ruleId}`).sort()).toEqual([
      'src/desk33l.ts:6 object-literal-tool',
      'src/desk33l.ts:8 object-literal-tool',
      'src/make33l.ts:4 unprotected-door',
      'src/make33l.ts:5 unprotected-door',
    ]);
    expect(eslint).toEqual(expected);
  });
});
