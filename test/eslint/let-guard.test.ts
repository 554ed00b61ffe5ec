import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/check/engine.js';
import { eslintMessage, NAMESPACE } from '../../src/eslint/index.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { eslintWith, reported } from './helpers.js';

/**
 * Session 31 (test/check/red31-let-guard.test.ts): a `let` reassigned with its own guard before
 * the use is silent in check and in ESLint; the same guard after the use is reported by both, at
 * check's place with check's message.
 */
const head = ["import { Agent, MCPServerStdio } from '@openai/agents';", "import { protectMcpServer } from './ctrlrun.generated.js';"];
const FILES: Record<string, string> = {
  'src/guarded31.ts': [
    ...head,
    "let s = new MCPServerStdio({ name: 'a', fullCommand: 'a' });",
    's = protectMcpServer(s);',
    "export const agent = new Agent({ name: 'x', mcpServers: [s] });",
    '',
  ].join('\n'),
  'src/late31.ts': [
    ...head,
    "let s = new MCPServerStdio({ name: 'a', fullCommand: 'a' });",
    "export const agent = new Agent({ name: 'x', mcpServers: [s] });",
    's = protectMcpServer(s);',
    '',
  ].join('\n'),
};
const RULE = 'mcp-server-unguarded';

describe('a let reassigned with its guard, in ESLint', () => {
  const cwd = copyFixture('check/open-doors/repo', 'eslint-let-guard-');
  afterAll(() => removeDir(cwd));

  it('is silent before the use and reported after it, as check says', async () => {
    for (const [file, text] of Object.entries(FILES)) writeFileSync(path.join(cwd, file), text);
    const files = Object.keys(FILES);
    const check = (await runCheck({ cwd })).findings.filter((f) => files.includes(f.file) && f.ruleId === RULE);
    expect(check.map((f) => `${f.file}:${f.line}:${f.column}`)).toEqual(['src/late31.ts:4:58']);
    const eslint = reported(await eslintWith(cwd).lintFiles(files), cwd).filter((m) => m.ruleId === `${NAMESPACE}/${RULE}`);
    const key = (m: { line: number; column: number; ruleId: string | null; message: string }) => `${m.line}:${m.column} ${m.ruleId} ${m.message}`;
    expect(eslint.map(key)).toEqual(check.map((f) => key({ ...f, ruleId: `${NAMESPACE}/${f.ruleId}`, message: eslintMessage(f) })));
  });
});
