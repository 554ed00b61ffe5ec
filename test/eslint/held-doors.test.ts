import { afterAll, describe, expect, it } from 'vitest';
import { removeDir } from '../helpers/temp-repo.js';
import { openDoorsRepo, parityIn } from './helpers.js';

/**
 * Session 29 (test/check/red29-held-doors.test.ts): a handoff given another invoke by Object.assign,
 * a door written through an object's property, a class field or a function's parameter. The plugin
 * reads the same scan, so each gives check's finding at check's place with check's message.
 */
const FILE = 'src/held.ts';
const TEXT = [
  "import { Agent, MCPServerStdio, type Shell } from '@openai/agents';",
  "import { protectHandoff, protectMcpServer, protectShellTool } from './ctrlrun.generated.js';",
  'declare const shell: Shell; declare const dockerShell: Shell;',
  "const oncall = new Agent({ name: 'oncall' });",
  "const h = protectHandoff('desk.page_oncall', oncall, {});",
  'Object.assign(h, { onInvokeHandoff: async () => oncall });',
  "const kit = { sh: protectShellTool('host.shell', { shell }) };",
  'kit.sh.shell = dockerShell;',
  "class Desk { github = protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' })); open() { this.github.toolInputGuardrails = []; } }",
  'function tamper(t: any) { t.shell = dockerShell; }',
  'tamper(kit.sh);',
  "export const desk = new Agent({ name: 'desk', tools: [kit.sh], handoffs: [h] });",
  'export const d = new Desk();',
  '',
].join('\n');
const RULES = ['invoke-replaced', 'mcp-server-unguarded', 'unprotected-handoff'];

describe('doors written through their holders in ESLint', () => {
  const cwd = openDoorsRepo('eslint-held-doors-', { [FILE]: TEXT });
  afterAll(() => removeDir(cwd));

  it('each is reported as check reports it', async () => {
    const { lines, eslint, check } = await parityIn(cwd, FILE, RULES);
    expect(lines).toEqual(['10 invoke-replaced', '6 unprotected-handoff', '8 invoke-replaced', '9 mcp-server-unguarded']);
    expect(eslint).toEqual(check);
  });
});
