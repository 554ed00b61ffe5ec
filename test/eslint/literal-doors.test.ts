import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/check/engine.js';
import { eslintMessage, NAMESPACE } from '../../src/eslint/index.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { eslintWith, reported } from './helpers.js';

/**
 * Gaps E and F of the session 27 red team, through the ESLint plugin: a file with a shell tool and a
 * hosted MCP tool written as object literals, a subclass of Handoff and an `onInvokeHandoff`
 * assignment gets check's findings, at check's lines and columns, with check's messages.
 */
const RULES = ['unprotected-door', 'hosted-mcp-unguarded', 'unprotected-handoff'];
const FILE = [
  "import { Agent, Handoff, handoff, type Shell } from '@openai/agents';",
  'declare const shell: Shell;',
  "const oncall = new Agent({ name: 'oncall' });",
  'class Page extends Handoff { constructor() { super(oncall, async () => oncall); } }',
  'const h = handoff(oncall);',
  'h.onInvokeHandoff = async () => oncall;',
  "const github = { type: 'hosted_tool', name: 'hosted_mcp', providerData: { type: 'mcp', server_label: 'github', require_approval: 'never' } };",
  "export const desk = new Agent({ name: 'desk', handoffs: [new Page(), h], tools: [{ type: 'shell', shell } as never, github as never] });",
  '',
].join('\n');

describe('the plugin reports the doors written as objects and the handoffs given another invoke, as check does', () => {
  const cwd = copyFixture('check/open-doors/repo', 'eslint-literal-doors-');
  afterAll(() => removeDir(cwd));

  it('at the same places, with the same messages', async () => {
    writeFileSync(path.join(cwd, 'src/literal.ts'), FILE);
    const check = (await runCheck({ cwd })).findings.filter((f) => f.file === 'src/literal.ts' && RULES.includes(f.ruleId));
    expect(new Set(check.map((f) => f.ruleId))).toEqual(new Set(RULES));
    const eslint = reported(await eslintWith(cwd).lintFiles(['src/literal.ts']), cwd).filter((m) => RULES.some((r) => m.ruleId === `${NAMESPACE}/${r}`));
    const key = (line: number, column: number, ruleId: string | null, message: string) => `${line}:${column} ${ruleId} ${message}`;
    expect(eslint.map((m) => key(m.line, m.column, m.ruleId, m.message)).sort()).toEqual(
      check.map((f) => key(f.line, f.column, `${NAMESPACE}/${f.ruleId}`, eslintMessage(f))).sort(),
    );
  });
});
