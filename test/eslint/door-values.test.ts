import { describe, expect, it } from 'vitest';
import { removeDir } from '../helpers/temp-repo.js';
import { openDoorsRepo, parityAcross } from './helpers.js';
import { SHELL_DOOR_MODULE } from '../shell-door-module.js';

/**
 * Session 34 (test/check/red34-door-values.test.ts): a protected shell held inside a value (`export
 * const tools = [shellTool]`, `export const kit = { shell: shellTool }`), its body written through
 * an element or a member in a file naming neither the SDK nor the generated module. The plugin reads
 * the same scan, so each gives check's finding at check's place with check's message; another
 * element (a plain object) written beside them stays silent.
 */
const FILES: Record<string, string> = {
  'src/doors34.ts': SHELL_DOOR_MODULE,
  'src/list34.ts': [
    "import { shellTool } from './doors34.js';",
    'const settings = { retries: 3 };',
    'export const tools = [shellTool, settings];',
    'export const kit = { shell: shellTool };',
    '',
  ].join('\n'),
  'src/ops34.ts': [
    "import { tools, kit } from './list34.js';",
    'declare const other: never;',
    'declare const i: number;',
    'tools[0].shell = other;',
    'kit.shell.shell = other;',
    'tools[i].shell = other;',
    '(tools[1] as any).shell = other;',
    '',
  ].join('\n'),
};

describe('a door inside a value, written through an element or a member, in ESLint', () => {
  it('each write is reported as check reports it', async () => {
    const cwd = openDoorsRepo('eslint-door-values-', FILES);
    try {
      const { findings: check, eslint, check: expected } = await parityAcross(cwd, ['src/ops34.ts'], ['invoke-replaced']);
      expect(check.map((f) => `${f.file}:${f.line} ${f.ruleId} ${f.message.includes('cannot tell')}`)).toEqual([
        'src/ops34.ts:4 invoke-replaced false',
        'src/ops34.ts:5 invoke-replaced false',
        'src/ops34.ts:6 invoke-replaced true',
      ]);
      expect(eslint).toEqual(expected);
    } finally {
      removeDir(cwd);
    }
  });
});
