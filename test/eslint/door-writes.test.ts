import { afterAll, describe, expect, it } from 'vitest';
import { removeDir } from '../helpers/temp-repo.js';
import { openDoorsRepo, parityIn } from './helpers.js';

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
  const cwd = openDoorsRepo('eslint-door-writes-', { [FILE]: TEXT });
  afterAll(() => removeDir(cwd));

  it('each is reported as check reports it', async () => {
    const { lines, eslint, check } = await parityIn(cwd, FILE, RULES);
    // one finding per form: lines 5, 7, 9 and 11
    expect(lines).toEqual(['11 hosted-mcp-unguarded', '5 invoke-replaced', '7 invoke-replaced', '9 mcp-server-unguarded']);
    expect(eslint).toEqual(check);
  });
});
