import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/check/engine.js';
import { eslintMessage, NAMESPACE } from '../../src/eslint/index.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { eslintWith, reported } from './helpers.js';

/**
 * Session 31 (test/check/red31-door-holders.test.ts): a `let` given a guarded server after its
 * initializer, a handoff cloned with overrides check cannot read, and a handoff's invoke function
 * written in a helper naming neither the SDK nor the generated module, a shell tool's body written on
 * a loop's variable in a module importing the tool's module. The plugin reads the same
 * scan, so each gives check's finding at check's place with check's message.
 */
const FILES: Record<string, string> = {
  'src/held31.ts': [
    "import { Agent, MCPServerStdio } from '@openai/agents';",
    "import { protectHandoff, protectMcpServer } from './ctrlrun.generated.js';",
    "let s = new MCPServerStdio({ name: 'fs', fullCommand: 'fs-mcp' });",
    's = protectMcpServer(s);',
    's.toolInputGuardrails = [];',
    "const oncall = new Agent({ name: 'oncall' });",
    "export const h = protectHandoff('desk.page_oncall', oncall, { onHandoff: async () => {} });",
    'export function copy(o: any) { return h.clone(o); }',
    '',
  ].join('\n'),
  'src/tamper31.ts': 'export function open(h: any, f: any) {\n  h.onInvokeHandoff = f;\n}\n',
  'src/tools31.ts': [
    "import { type Shell } from '@openai/agents';",
    "import { protectShellTool } from './ctrlrun.generated.js';",
    'declare const shell: Shell;',
    "export const hostTool = protectShellTool('host.shell', { shell });",
    'export const label = "host";',
    '',
  ].join('\n'),
  'src/swap31.ts':
    "import { label } from './tools31.js';\nexport function swapAll(list: any[], x: any) {\n  for (const t of list) t.shell = x;\n  return label;\n}\n",
};
const RULES = ['mcp-server-unguarded', 'unprotected-handoff', 'invoke-replaced'];

describe('door writes on let holders, clones and helpers, in ESLint', () => {
  const cwd = copyFixture('check/open-doors/repo', 'eslint-let-holders-');
  afterAll(() => removeDir(cwd));

  it('each is reported as check reports it', async () => {
    for (const [file, text] of Object.entries(FILES)) writeFileSync(path.join(cwd, file), text);
    const files = ['src/held31.ts', 'src/tamper31.ts', 'src/swap31.ts'];
    const check = (await runCheck({ cwd })).findings.filter((f) => files.includes(f.file) && RULES.includes(f.ruleId));
    expect(check.map((f) => `${f.file}:${f.line} ${f.ruleId}`).sort()).toEqual([
      'src/held31.ts:5 mcp-server-unguarded',
      'src/held31.ts:8 unprotected-handoff',
      'src/swap31.ts:3 invoke-replaced',
      'src/tamper31.ts:2 unprotected-handoff',
    ]);
    const eslint = reported(await eslintWith(cwd).lintFiles(files), cwd).filter((m) => RULES.some((r) => m.ruleId === `${NAMESPACE}/${r}`));
    const key = (m: { line: number; column: number; ruleId: string | null; message: string }) => `${m.line}:${m.column} ${m.ruleId} ${m.message}`;
    expect(eslint.map(key).sort()).toEqual(check.map((f) => key({ ...f, ruleId: `${NAMESPACE}/${f.ruleId}`, message: eslintMessage(f) })).sort());
  });
});
