import { describe, expect, it } from 'vitest';
import { removeDir } from '../helpers/temp-repo.js';
import { openDoorsRepo, parityAcross } from './helpers.js';

/**
 * Session 35 (test/check/red35-doors-made-in-values.test.ts): a protected shell made inside a list or
 * an object of a module using the SDK (`export const tools = [protectShellTool(…)]`), its body written
 * through an element or a member in a file naming neither the SDK nor the generated module. The plugin
 * reads the same scan: check's findings, places and messages; another element written stays silent.
 */
const FILES: Record<string, string> = {
  'src/list35.ts': [
    "import type { Shell } from '@openai/agents';",
    "import { protectShellTool } from './ctrlrun.generated.js';",
    'declare const shell: Shell;',
    "export const tools35 = [protectShellTool('host.shell', { shell }), { retries: 3 }];",
    "export const kit35 = { shell: protectShellTool('host.shell', { shell }) };",
    '',
  ].join('\n'),
  'src/ops35.ts': [
    "import { tools35, kit35 } from './list35.js';",
    'declare const other: never;',
    'tools35[0].shell = other;',
    'kit35.shell.shell = other;',
    '(tools35[1] as any).shell = other;',
    '',
  ].join('\n'),
};

describe('a door made inside a value of an SDK module, written elsewhere, in ESLint', () => {
  it('each write is reported as check reports it', async () => {
    const cwd = openDoorsRepo('eslint-doors-made-in-values-', FILES);
    try {
      const { findings: check, eslint, check: expected } = await parityAcross(cwd, ['src/ops35.ts'], ['invoke-replaced']);
      expect(check.map((f) => `${f.file}:${f.line} ${f.ruleId}`)).toEqual(['src/ops35.ts:3 invoke-replaced', 'src/ops35.ts:4 invoke-replaced']);
      expect(eslint).toEqual(expected);
    } finally {
      removeDir(cwd);
    }
  });
});
