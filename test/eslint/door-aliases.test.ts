import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { parityAcross } from './helpers.js';
import { SHELL_DOOR_MODULE } from '../shell-door-module.js';

/**
 * Session 33 (test/check/red33-door-aliases.test.ts): a protected shell exported again as a value
 * (`export const gh = shellTool`, `cond ? shellTool : settings`), its body written in a file naming
 * neither the SDK nor the generated module. The plugin reads the same scan, so each gives check's
 * finding at check's place with check's message; a plain object exported beside them stays silent.
 */
const FILES: Record<string, string> = {
  'src/doors33.ts': SHELL_DOOR_MODULE,
  'src/alias33.ts': [
    "import { shellTool } from './doors33.js';",
    'const settings = { retries: 3 };',
    'export const gh = shellTool;',
    'export const either = process.env.X ? settings : shellTool;',
    'export const plain = settings;',
    '',
  ].join('\n'),
  'src/ops33.ts': [
    "import { gh, either, plain } from './alias33.js';",
    'declare const other: never;',
    'gh.shell = other;',
    'either.shell = other;',
    '(plain as any).shell = other;',
    '',
  ].join('\n'),
};
const RULES = ['invoke-replaced'];

describe('a door exported again as a value, in ESLint', () => {
  const cwd = copyFixture('check/open-doors/repo', 'eslint-door-aliases-');
  afterAll(() => removeDir(cwd));

  it('each write is reported as check reports it', async () => {
    for (const [file, text] of Object.entries(FILES)) writeFileSync(path.join(cwd, file), text);
    const files = ['src/ops33.ts'];
    const { findings: check, eslint, check: expected } = await parityAcross(cwd, files, RULES);
    expect(check.map((f) => `${f.file}:${f.line} ${f.ruleId} ${f.message.includes('cannot tell')}`)).toEqual([
      'src/ops33.ts:3 invoke-replaced false',
      'src/ops33.ts:4 invoke-replaced true',
    ]);
    expect(eslint).toEqual(expected);
  });
});
