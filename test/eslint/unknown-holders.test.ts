import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/check/engine.js';
import { eslintMessage, NAMESPACE } from '../../src/eslint/index.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { eslintWith, reported } from './helpers.js';

/**
 * Session 30 (test/check/red30-unknown-holders.test.ts): a door's part written on an object check
 * cannot follow (a callback's parameter, a Map's value, a helper's parameter in a module naming no
 * SDK), and a default-exported server written by its importer. The plugin reads the same scan, so
 * each gives check's finding at check's place with check's message.
 */
const FILES: Record<string, string> = {
  'src/gh.ts': [
    "import { MCPServerStdio } from '@openai/agents';",
    "import { protectMcpServer } from './ctrlrun.generated.js';",
    "export default protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
    '',
  ].join('\n'),
  'src/held.ts': [
    "import { type Shell } from '@openai/agents';",
    "import gh from './gh.js';",
    'declare const dockerShell: Shell;',
    '[gh].forEach((s) => { s.errorFunction = () => "ok"; });',
    "const m = new Map([['gh', gh]]);",
    "m.get('gh')!.toolOutputGuardrails = [];",
    'export function swap(t: { shell: Shell }) { t.shell = dockerShell; }',
    'gh.toolInputGuardrails = [];',
    '',
  ].join('\n'),
  'src/tamper.ts': 'export function open(s: any) {\n  s.toolInputGuardrails.splice(0);\n}\n',
};
const RULES = ['invoke-replaced', 'mcp-server-unguarded'];

describe('doors written on objects check cannot follow, in ESLint', () => {
  const cwd = copyFixture('check/open-doors/repo', 'eslint-unknown-holders-');
  afterAll(() => removeDir(cwd));

  it('each is reported as check reports it', async () => {
    for (const [file, text] of Object.entries(FILES)) writeFileSync(path.join(cwd, file), text);
    const files = ['src/held.ts', 'src/tamper.ts'];
    const check = (await runCheck({ cwd })).findings.filter((f) => files.includes(f.file) && RULES.includes(f.ruleId));
    expect(check.map((f) => `${f.file}:${f.line} ${f.ruleId}`).sort()).toEqual([
      'src/held.ts:4 mcp-server-unguarded',
      'src/held.ts:6 mcp-server-unguarded',
      'src/held.ts:7 invoke-replaced',
      'src/held.ts:8 mcp-server-unguarded',
      'src/tamper.ts:2 mcp-server-unguarded',
    ]);
    const eslint = reported(await eslintWith(cwd).lintFiles(files), cwd).filter((m) => RULES.some((r) => m.ruleId === `${NAMESPACE}/${r}`));
    const key = (m: { file?: string; line: number; column: number; ruleId: string | null; message: string }) =>
      `${m.line}:${m.column} ${m.ruleId} ${m.message}`;
    expect(eslint.map(key).sort()).toEqual(check.map((f) => key({ ...f, ruleId: `${NAMESPACE}/${f.ruleId}`, message: eslintMessage(f) })).sort());
  });
});
