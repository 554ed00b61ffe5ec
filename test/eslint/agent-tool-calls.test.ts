import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NAMESPACE } from '../../src/eslint/index.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { eslintWith, parityAcross, reported } from './helpers.js';

/**
 * Session 33 (test/check/red33-agent-tool-calls.test.ts): a function tool `{ type: KIND, invoke }`
 * handed to an agent in a file using the SDK (written in its `tools`, exported by a module using the
 * SDK), and literal doors an agent's `tools: makeTools()` or `agent.tools.push(x)` reaches in a module
 * naming no SDK. The plugin reads the same scan: check's finding, place and message in ESLint.
 */
const FILES: Record<string, string> = {
  'src/kinds33.ts': "export const SHELL = ['sh', 'ell'].join('');\nexport const FN = process.env.FN_TYPE!;\n",
  'src/fns33.ts': [
    "import { tool } from '@openai/agents';",
    "import { FN } from './kinds33.js';",
    'declare const runner: any;',
    "export const lookup = { type: FN, name: 'lookup', invoke: runner };",
    "export const helper = tool({ name: 'helper', description: 'h', parameters: {} as any, execute: runner });",
    '',
  ].join('\n'),
  'src/make33.ts': [
    "import { SHELL } from './kinds33.js';",
    'declare const runner: any;',
    'export function makeTools() { return [{ type: SHELL, shell: runner }]; }',
    'export const pushed = { type: SHELL, computer: runner };',
    '',
  ].join('\n'),
  'src/desk33.ts': [
    "import { Agent } from '@openai/agents';",
    "import { FN } from './kinds33.js';",
    "import { lookup, helper } from './fns33.js';",
    "import { makeTools, pushed } from './make33.js';",
    'declare const runner: any;',
    "export const desk33 = new Agent({ name: 'desk33', instructions: 'Help.', tools: [lookup, helper, { type: FN, name: 'inline', invoke: runner }] });",
    "export const box33 = new Agent({ name: 'box33', instructions: 'Help.', tools: makeTools() });",
    'box33.tools.push(pushed);',
    '',
  ].join('\n'),
};
const RULES = ['unprotected-door', 'object-literal-tool'];

describe('an agent`s tools reached by a call, a push or an unread function type, in ESLint', () => {
  const cwd = copyFixture('check/open-doors/repo', 'eslint-agent-tool-calls-');
  afterAll(() => removeDir(cwd));

  it('each is reported as check reports it', async () => {
    for (const [file, text] of Object.entries(FILES)) writeFileSync(path.join(cwd, file), text);
    const files = ['src/fns33.ts', 'src/make33.ts', 'src/desk33.ts'];
    const { findings: check, eslint, check: expected } = await parityAcross(cwd, files, RULES);
    expect(check.map((f) => `${f.file}:${f.line} ${f.ruleId}`).sort()).toEqual([
      'src/desk33.ts:6 object-literal-tool',
      'src/fns33.ts:4 object-literal-tool',
      'src/make33.ts:3 unprotected-door',
      'src/make33.ts:4 unprotected-door',
    ]);
    expect(eslint).toEqual(expected);
    // a new text of the module using the SDK (an editor's buffer) is scanned with the names agents are handed
    const edited = `// edited\n${FILES['src/fns33.ts']}`;
    const again = reported(await eslintWith(cwd).lintText(edited, { filePath: path.join(cwd, 'src/fns33.ts') }), cwd).filter((m) =>
      RULES.some((r) => m.ruleId === `${NAMESPACE}/${r}`),
    );
    expect(again.map((m) => `${m.line} ${m.ruleId}`)).toEqual([`5 ${NAMESPACE}/object-literal-tool`]);
  });
});
