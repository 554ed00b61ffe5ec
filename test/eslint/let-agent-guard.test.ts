import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/check/engine.js';
import { eslintMessage, NAMESPACE } from '../../src/eslint/index.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { eslintWith, reported } from './helpers.js';

/**
 * Session 31 (test/check/red31-let-agent-guard.test.ts): a `let` agent reassigned with its own
 * guard before its read is silent in check and in ESLint; the same guard after the read is
 * reported by both, at check's place with check's message.
 */
const head = [
  "import { Agent, MCPServerStdio, run } from '@openai/agents';",
  "import { protectAgent } from './ctrlrun.generated.js';",
  "const s = new MCPServerStdio({ name: 'a', fullCommand: 'a' });",
  "let a = new Agent({ name: 'x', mcpServers: [s] });",
];
const FILES: Record<string, string> = {
  'src/agentguarded31.ts': [...head, 'a = protectAgent(a);', "export const out = await run(a, 'hi');", ''].join('\n'),
  'src/agentlate31.ts': [...head, "export const out = await run(a, 'hi');", 'a = protectAgent(a);', ''].join('\n'),
};
const RULE = 'mcp-server-unguarded';

describe('a let agent reassigned with its guard, in ESLint', () => {
  const cwd = copyFixture('check/open-doors/repo', 'eslint-let-agent-guard-');
  afterAll(() => removeDir(cwd));

  it('is silent before the read and reported after it, as check says', async () => {
    for (const [file, text] of Object.entries(FILES)) writeFileSync(path.join(cwd, file), text);
    const files = Object.keys(FILES);
    const check = (await runCheck({ cwd })).findings.filter((f) => files.includes(f.file) && f.ruleId === RULE);
    expect(check.map((f) => `${f.file}:${f.line}`)).toEqual(['src/agentlate31.ts:4']);
    const eslint = reported(await eslintWith(cwd).lintFiles(files), cwd).filter((m) => m.ruleId === `${NAMESPACE}/${RULE}`);
    const key = (m: { line: number; column: number; ruleId: string | null; message: string }) => `${m.line}:${m.column} ${m.ruleId} ${m.message}`;
    expect(eslint.map(key)).toEqual(check.map((f) => key({ ...f, ruleId: `${NAMESPACE}/${f.ruleId}`, message: eslintMessage(f) })));
  });
});
