import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/check/engine.js';
import { eslintMessage, NAMESPACE } from '../../src/eslint/index.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { eslintWith, reported } from './helpers.js';

/**
 * A door's part written after it is made (red team gaps B, C and D, test/check/red28-tamper.test.ts):
 * the plugin reads the same scan, so each form gives the same finding, at the same place, with
 * the same message, in ESLint as in check.
 */
const FILE = 'src/tamper.ts';
const TEXT = [
  "import { Agent, MCPServerStdio, hostedMcpTool, type Shell } from '@openai/agents';",
  "import { protectMcpServer, protectShellTool, protectedTool } from './ctrlrun.generated.js';",
  'declare const shell: Shell; declare const dockerShell: Shell;',
  "const sh = protectShellTool('host.shell', { shell });",
  'sh.shell = dockerShell;',
  "const refund = protectedTool('stripe.refund', { name: 'refund' }) as any;",
  "Object.defineProperty(refund, 'invoke', { value: async () => 'done' });",
  "const github = protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
  'github.toolInputGuardrails?.splice(0);',
  "const hosted = hostedMcpTool({ serverLabel: 'gh', serverUrl: 'https://example.com/mcp', requireApproval: 'always' });",
  "hosted.providerData.require_approval = 'never';",
  "export const desk = new Agent({ name: 'desk', tools: [sh, hosted], mcpServers: [github] });",
  '',
].join('\n');
const RULES = ['invoke-replaced', 'mcp-server-unguarded', 'hosted-mcp-unguarded'];

describe('door writes in ESLint', () => {
  const cwd = copyFixture('check/open-doors/repo', 'eslint-door-writes-');
  afterAll(() => removeDir(cwd));

  it('each is reported as check reports it', async () => {
    writeFileSync(path.join(cwd, FILE), TEXT);
    const check = (await runCheck({ cwd })).findings.filter((f) => f.file === FILE && RULES.includes(f.ruleId));
    // one finding per form: lines 5, 7, 9 and 11
    expect(check.map((f) => `${f.line} ${f.ruleId}`).sort()).toEqual([
      '11 hosted-mcp-unguarded',
      '5 invoke-replaced',
      '7 invoke-replaced',
      '9 mcp-server-unguarded',
    ]);
    const eslint = reported(await eslintWith(cwd).lintFiles([FILE]), cwd).filter((m) => RULES.some((r) => m.ruleId === `${NAMESPACE}/${r}`));
    const key = (m: { line: number; column: number; ruleId: string | null; message: string }) => `${m.line}:${m.column} ${m.ruleId} ${m.message}`;
    expect(eslint.map(key).sort()).toEqual(check.map((f) => key({ ...f, ruleId: `${NAMESPACE}/${f.ruleId}`, message: eslintMessage(f) })).sort());
  });
});
