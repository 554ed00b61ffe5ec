import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/check/engine.js';
import { eslintMessage, NAMESPACE } from '../../src/eslint/index.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { eslintWith, reported } from './helpers.js';

/**
 * Session 32 (test/check/red32-unscanned-exports.test.ts): a server made by an imported factory and
 * exported by a module naming no SDK (one check does not scan), its guard list emptied by its
 * importer. The plugin reads the same scan, so it gives check's finding at check's place with
 * check's message; a plain object exported beside it stays silent in both.
 */
const FILES: Record<string, string> = {
  'src/factory32.ts': [
    "import { MCPServerStdio } from '@openai/agents';",
    "import { protectMcpServer } from './ctrlrun.generated.js';",
    "export const makeServer = () => protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
    '',
  ].join('\n'),
  'src/servers32.ts': ["import { makeServer } from './factory32.js';", 'export const gh = makeServer();', 'export const settings = { retries: 3 };', ''].join(
    '\n',
  ),
  'src/ops32.ts': ["import { gh, settings } from './servers32.js';", 'gh.toolInputGuardrails = [];', '(settings as any).errorFunction = null;', ''].join('\n'),
};
const RULES = ['mcp-server-unguarded'];

describe('an export of a module check does not scan, in ESLint', () => {
  const cwd = copyFixture('check/open-doors/repo', 'eslint-unscanned-exports-');
  afterAll(() => removeDir(cwd));

  it('is reported as check reports it', async () => {
    for (const [file, text] of Object.entries(FILES)) writeFileSync(path.join(cwd, file), text);
    const files = ['src/ops32.ts'];
    const check = (await runCheck({ cwd })).findings.filter((f) => files.includes(f.file) && RULES.includes(f.ruleId));
    expect(check.map((f) => `${f.file}:${f.line} ${f.ruleId}`)).toEqual(['src/ops32.ts:2 mcp-server-unguarded']);
    const eslint = reported(await eslintWith(cwd).lintFiles(files), cwd).filter((m) => RULES.some((r) => m.ruleId === `${NAMESPACE}/${r}`));
    const key = (m: { line: number; column: number; ruleId: string | null; message: string }) => `${m.line}:${m.column} ${m.ruleId} ${m.message}`;
    expect(eslint.map(key)).toEqual(check.map((f) => key({ ...f, ruleId: `${NAMESPACE}/${f.ruleId}`, message: eslintMessage(f) })));
  });
});
