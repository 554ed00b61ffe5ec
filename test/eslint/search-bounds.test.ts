import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { parityAcross } from './helpers.js';
import { SHELL_DOOR_MODULE } from '../shell-door-module.js';

/**
 * Session 34 (test/check/red34-search-bounds.test.ts): past the searches' old bounds, an agent's
 * `tools` followed through more than 12 steps (reported where the search stops), a shell returned
 * out of five nested `.map`s, and a door exported again through six `const` steps and written in a
 * file naming no SDK. The plugin reads the same scan: check's findings, places and messages.
 */
const chain = Array.from({ length: 14 }, (_, i) => `const v${i + 1} = v${i};`);
let mapped = '({ type: SHELL, shell: f.run })';
for (let i = 0; i < 5; i++) mapped = `flows.flatMap((f) => ${mapped})`;
const FILES: Record<string, string> = {
  'src/kinds34b.ts': "export const SHELL = ['sh', 'ell'].join('');\nexport const FN = process.env.FN_TYPE!;\n",
  'src/make34b.ts': ["import { SHELL } from './kinds34b.js';", 'declare const flows: { run: any }[];', `export const mapped = () => ${mapped};`, ''].join('\n'),
  'src/desk34b.ts': [
    "import { Agent } from '@openai/agents';",
    "import { FN } from './kinds34b.js';",
    "import { mapped } from './make34b.js';",
    'declare const runner: any;',
    "const v0 = [{ type: FN, name: 'lookup', invoke: runner }];",
    ...chain,
    "export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [...v14, ...mapped()] });",
    '',
  ].join('\n'),
  'src/alias34b.ts': [
    "import { shellTool as a0 } from './doors34b.js';",
    ...Array.from({ length: 6 }, (_, i) => `const a${i + 1} = a${i};`),
    'export const gh = a6;',
    '',
  ].join('\n'),
  'src/doors34b.ts': SHELL_DOOR_MODULE,
  'src/ops34b.ts': ["import { gh } from './alias34b.js';", 'declare const other: never;', 'gh.shell = other;', ''].join('\n'),
};
const RULES = ['unprotected-door', 'object-literal-tool', 'invoke-replaced'];

describe('the searches past their old bounds, in ESLint', () => {
  const cwd = copyFixture('check/open-doors/repo', 'eslint-search-bounds-');
  afterAll(() => removeDir(cwd));

  it('each is reported as check reports it', async () => {
    for (const [file, text] of Object.entries(FILES)) writeFileSync(path.join(cwd, file), text);
    const files = ['src/make34b.ts', 'src/desk34b.ts', 'src/ops34b.ts'];
    const { findings: check, eslint, check: expected } = await parityAcross(cwd, files, RULES);
    expect(check.map((f) => `${f.file}:${f.line} ${f.ruleId}`).sort()).toEqual([
      'src/desk34b.ts:8 object-literal-tool',
      'src/make34b.ts:3 unprotected-door',
      'src/ops34b.ts:3 invoke-replaced',
    ]);
    expect(eslint).toEqual(expected);
  });
});
