import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/check/engine.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { elsewhereMessage, NAMESPACE } from '../../src/eslint/index.js';
import { DiskSession } from '../../src/eslint/session.js';
import { removeDir, writeFiles } from '../helpers/temp-repo.js';
import { eslintWith, openDoorsRepo, PROTECTED_GITHUB, parityIn, placeKey, reported } from './helpers.js';
import { SHELL_DOOR_MODULE } from '../shell-door-module.js';

/**
 * Session 29 (issue 40 item 4), in ESLint: a door written in another module than the one making it
 * is reported in the writing file as check reports it (the plugin reads the same repo scan); a door
 * in a module the listing leaves out (git ignores it) is check's finding in that module, which ESLint
 * is not given: the plugin shows it in the linted files that import the module, at the import, with
 * its place (session 30; before, on line 1 of every linted file that used the SDK), and once when no
 * importer is known.
 */
describe('session 29 doors in ESLint', () => {
  const cwd = openDoorsRepo('eslint-red29-', {
    '.gitignore': 'src/gen/\n',
    'src/servers.ts': PROTECTED_GITHUB,
    'src/ops.ts': ["import { github } from './servers.js';", 'github.toolInputGuardrails = [];', ''].join('\n'),
    'src/gen/wire.ts': [
      "import { tool } from '@openai/agents';",
      "import { z } from 'zod';",
      "export const wire = tool({ name: 'refund', description: 'Refund', parameters: z.object({ id: z.string() }), execute: async () => 'ok' });",
      '',
    ].join('\n'),
    'src/desk.ts': [
      "import { Agent } from '@openai/agents';",
      "import { wire } from './gen/wire.js';",
      "export const desk = new Agent({ name: 'desk', tools: [wire] });",
      '',
    ].join('\n'),
    'src/late.ts': [
      "import { Agent } from '@openai/agents';",
      'export async function late() {',
      "  const { wire } = await import('./gen/wire.js');",
      "  return new Agent({ name: 'late', tools: [wire] });",
      '}',
      '',
    ].join('\n'),
    'src/other.ts': ["import { Agent } from '@openai/agents';", "export const other = new Agent({ name: 'other' });", ''].join('\n'),
  });
  afterAll(() => removeDir(cwd));

  it('an imported door written: the same finding in the writing file', async () => {
    const { lines, eslint, check } = await parityIn(cwd, 'src/ops.ts');
    expect(lines).toEqual(['2 mcp-server-unguarded']);
    expect(eslint).toEqual(check);
  });

  it("an unlisted module's findings are shown in each linted importer at the import, with their place; check's are unchanged", async () => {
    const check = (await runCheck({ cwd })).findings.filter((f) => f.file === 'src/gen/wire.ts');
    expect(check.map((f) => `${f.line} ${f.ruleId}`)).toContain('3 unprotected-tool');
    const expected = (line: number, column: number) =>
      check.map((f) => placeKey({ line, column, ruleId: `${NAMESPACE}/${f.ruleId}`, message: elsewhereMessage(f) })).sort();
    const shown = async (file: string) =>
      reported(await eslintWith(cwd).lintFiles([file]), cwd)
        .filter((m) => m.message.includes('(src/gen/wire.ts:'))
        .map(placeKey)
        .sort();
    // a static import: at its statement; a dynamic import(): at its specifier
    expect(await shown('src/desk.ts')).toEqual(expected(2, 1));
    expect(await shown('src/late.ts')).toEqual(expected(3, 33));
    // a file that uses the SDK and does not import the module: not repeated there
    expect(await shown('src/other.ts')).toEqual([]);
  });

  it('a module whose importer is not known: shown once, in the first listed file using the SDK', () => {
    const session = new DiskSession(path.join(cwd, 'ctrlrun.tools.yaml'), cwd);
    const scans = (session as unknown as { scans: Map<string, { file: string; importedBy?: unknown }> }).scans;
    delete scans.get(path.join(cwd, 'src/gen/wire.ts'))!.importedBy;
    const lintOf = (file: string) => {
      const abs = path.join(cwd, file);
      const lint = session.lint(abs, readFileSync(abs, 'utf8'));
      return [...lint.elsewhere, ...(lint.atImports ?? []).map((r) => r.finding)].filter((f) => f.file === 'src/gen/wire.ts');
    };
    const files = ['src/agent.ts', 'src/desk.ts', 'src/late.ts', 'src/other.ts', 'src/servers.ts'];
    const showing = files.filter((f) => lintOf(f).length > 0);
    expect(showing).toEqual(['src/agent.ts']);
  });
});

/**
 * Session 30 (issue 40 item 8): a repo scan in which no file the prefilter passed over names a door
 * word leaves the search for the names a door is exported again under (`export { github as gh }`)
 * to the first text edited later; such a text writing the door by its new name is still scanned.
 */
describe('a door written by a renamed export, in a text edited after the scan', () => {
  const cwd = openDoorsRepo('eslint-red30-', {
    'src/servers.ts': PROTECTED_GITHUB,
    'src/barrel.ts': "export { github as gh } from './servers.js';\n",
    'src/ops.ts': 'export const later = 1;\n',
  });
  afterAll(() => removeDir(cwd));

  it('is reported at the write, as check reports it on disk', async () => {
    const text = ["import { gh } from './barrel.js';", 'gh.toolInputGuardrails = [];', ''].join('\n');
    const [result] = await eslintWith(cwd).lintText(text, { filePath: `${cwd}/src/ops.ts` });
    const found = result!.messages.filter((m) => m.ruleId?.startsWith(`${NAMESPACE}/`)).map((m) => `${m.line} ${m.ruleId}`);
    expect(found).toEqual([`2 ${NAMESPACE}/mcp-server-unguarded`]);
    writeFiles(cwd, { 'src/ops.ts': text });
    const check = (await runCheck({ cwd })).findings.filter((f) => f.file === 'src/ops.ts');
    expect(check.map((f) => `${f.line} ${f.ruleId}`)).toEqual(['2 mcp-server-unguarded']);
  });
});

/**
 * Session 35 (issue 40 item 8): the scan stops the rename rounds once every door-word file is read
 * anyway (each names the door, or a default export holds one); a text edited later writing the door
 * by a name only a later round finds (and naming no prefilter token) is still scanned: the rounds
 * are completed for it.
 */
describe.each([
  ['every door-word file names the door', "import { shellTool } from './doors35.js';\nexport const kept = shellTool;\n", '// shellTool\n'],
  ['a default export holds the door', "import { shellTool } from './doors35.js';\nexport default [shellTool];\n", ''],
])('a door written by a name of a later rename round, in an edited text (%s)', (_, held, note) => {
  const cwd = openDoorsRepo('eslint-ren35-', {
    'src/doors35.ts': SHELL_DOOR_MODULE,
    'src/alias35.ts': "import { shellTool } from './doors35.js';\nexport const relay = shellTool;\n",
    'src/alias35b.ts': "import { relay } from './alias35.js';\nexport const courier = relay;\n",
    'src/held35.ts': held,
    'src/note35.ts': `${note}export const shellNote = 1;\n`,
    'src/ops.ts': 'export const later = 1;\n',
  });
  afterAll(() => removeDir(cwd));

  it('is reported at the write, as check reports it on disk', async () => {
    const text = ["import { courier } from './alias35b.js';", 'declare const other: never;', 'courier.shell = other;', ''].join('\n');
    const [result] = await eslintWith(cwd).lintText(text, { filePath: `${cwd}/src/ops.ts` });
    const found = result!.messages.filter((m) => m.ruleId?.startsWith(`${NAMESPACE}/`)).map((m) => `${m.line} ${m.ruleId}`);
    expect(found).toEqual([`3 ${NAMESPACE}/invoke-replaced`]);
    writeFiles(cwd, { 'src/ops.ts': text });
    const check = (await runCheck({ cwd })).findings.filter((f) => f.file === 'src/ops.ts');
    expect(check.map((f) => `${f.line} ${f.ruleId}`)).toEqual(['3 invoke-replaced']);
  });
});
