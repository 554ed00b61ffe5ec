import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/check/engine.js';
import { eslintMessage, NAMESPACE } from '../../src/eslint/index.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { eslintWith, reported } from './helpers.js';

/**
 * Session 31 (test/check/red31-doors-across-modules.test.ts): a door written through `export * as
 * ns` (a writer naming no SDK), and a server made by an imported factory, written by its importer.
 * The plugin reads the same scan, so each gives check's finding at check's place with check's message.
 */
const FILES: Record<string, string> = {
  'src/doors31.ts': [
    "import { MCPServerStdio, type Shell } from '@openai/agents';",
    "import { protectMcpServer, protectShellTool } from './ctrlrun.generated.js';",
    'declare const shell: Shell;',
    "export const makeServer = () => protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
    "export const shellTool = protectShellTool('host.shell', { shell });",
    '',
  ].join('\n'),
  'src/ns31.ts': "export * as ns from './doors31.js';\n",
  'src/made31.ts': [
    "import { Agent } from '@openai/agents';",
    "import { makeServer } from './doors31.js';",
    'export const gh = makeServer();',
    "export const a = new Agent({ name: 'a' });",
    '',
  ].join('\n'),
  'src/ops31.ts': [
    "import { ns } from './ns31.js';",
    "import { gh } from './made31.js';",
    'declare const other: unknown;',
    'ns.shellTool.shell = other as never;',
    'gh.toolInputGuardrails = [];',
    '',
  ].join('\n'),
};
const RULES = ['invoke-replaced', 'mcp-server-unguarded'];

describe('doors across modules, in ESLint', () => {
  const cwd = copyFixture('check/open-doors/repo', 'eslint-doors-across-');
  afterAll(() => removeDir(cwd));

  it('each is reported as check reports it', async () => {
    for (const [file, text] of Object.entries(FILES)) writeFileSync(path.join(cwd, file), text);
    const files = ['src/ops31.ts'];
    const check = (await runCheck({ cwd })).findings.filter((f) => files.includes(f.file) && RULES.includes(f.ruleId));
    expect(check.map((f) => `${f.file}:${f.line} ${f.ruleId}`).sort()).toEqual(['src/ops31.ts:4 invoke-replaced', 'src/ops31.ts:5 mcp-server-unguarded']);
    const eslint = reported(await eslintWith(cwd).lintFiles(files), cwd).filter((m) => RULES.some((r) => m.ruleId === `${NAMESPACE}/${r}`));
    const key = (m: { line: number; column: number; ruleId: string | null; message: string }) => `${m.line}:${m.column} ${m.ruleId} ${m.message}`;
    expect(eslint.map(key).sort()).toEqual(check.map((f) => key({ ...f, ruleId: `${NAMESPACE}/${f.ruleId}`, message: eslintMessage(f) })).sort());
  });
});
