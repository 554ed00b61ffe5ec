import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { createPlugin, SingleFileSession } from '../../src/eslint/index.js';
import { lines, testProject } from '../check/rule-tester.js';

/**
 * The fix is the codemod's, and only where the codemod rewrites: a mapped tool left alone (its
 * `needsApproval` would be weakened by the policy: a conflict) is reported with no fix, while the
 * tool the codemod rewrites on another line of the same file gets it.
 */
const project = testProject();
const session = new SingleFileSession({ ...project, sources: new Map() }, process.cwd());
const plugin = createPlugin({ sessionFor: () => session });
const eslint = (fix: boolean) =>
  new ESLint({
    cwd: process.cwd(),
    fix,
    overrideConfigFile: true,
    overrideConfig: [
      { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser as never } },
      { files: ['**/*.ts'], ...plugin.configs.recommended },
    ],
  });

const code = lines(
  "import { tool } from '@openai/agents';",
  "export const refund = tool({ name: 'refund', needsApproval: true, errorFunction: null, execute: async () => 'ok' });",
  "export const lookup = tool({ name: 'lookup_charge', errorFunction: null, execute: async () => 'ok' });",
);
const filePath = path.join(process.cwd(), 'src/agent.ts');

describe('fixes', () => {
  it('only the finding the codemod rewrites carries the fix', async () => {
    const [result] = await eslint(false).lintText(code, { filePath });
    const unprotected = result!.messages.filter((m) => m.ruleId === 'ctrlrun/unprotected-tool');
    expect(unprotected.map((m) => [m.line, m.fix !== undefined])).toEqual([
      [2, false],
      [3, true],
    ]);
  });

  it('eslint --fix writes what the codemod writes: the rewritten tool, the import; the conflict left as it was', async () => {
    const [result] = await eslint(true).lintText(code, { filePath });
    expect(result!.output).toContain("export const lookup = protectedTool('stripe.charge.read', { name: 'lookup_charge'");
    expect(result!.output).toContain("export const refund = tool({ name: 'refund', needsApproval: true");
    expect(result!.output).toMatch(/^import \{ tool \} from '@openai\/agents';\nimport \{ protectedTool \} from '[^']+ctrlrun\.generated\.js';\n/);
    expect(result!.messages.map((m) => `${m.line} ${m.ruleId}`)).toContain('3 ctrlrun/unprotected-tool'); // one import line more above it
  });
});

describe('fixes of the sandbox and handoff doors (issue 35)', () => {
  const doors = testProject();
  doors.manifest.tools.push(
    { kind: 'sandbox', tool: 'exec_command', action: 'stripe.charge.read', loc: { file: '/repo/ctrlrun.tools.yaml', line: 20, column: 5 } },
    { kind: 'handoff', to: 'oncall', action: 'stripe.charge.read', loc: { file: '/repo/ctrlrun.tools.yaml', line: 22, column: 5 } },
  );
  const doorSession = new SingleFileSession({ ...doors, sources: new Map() }, process.cwd());
  const doorPlugin = createPlugin({ sessionFor: () => doorSession });
  const fixer = new ESLint({
    cwd: process.cwd(),
    fix: true,
    overrideConfigFile: true,
    overrideConfig: [
      { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser as never } },
      { files: ['**/*.ts'], ...doorPlugin.configs.recommended },
    ],
  });

  it('eslint --fix wraps the SandboxAgent and rewrites the handoff, as the codemod does', async () => {
    const source = lines(
      "import { Agent, handoff } from '@openai/agents';",
      "import { SandboxAgent } from '@openai/agents/sandbox';",
      "const oncall = new Agent({ name: 'oncall' });",
      "export const box = new SandboxAgent({ name: 'box', capabilities: [] });",
      "export const desk = new Agent({ name: 'desk', handoffs: [handoff(oncall, { onHandoff: () => undefined })] });",
    );
    const [result] = await fixer.lintText(source, { filePath });
    expect(result!.output).toContain("export const box = protectSandboxAgent(new SandboxAgent({ name: 'box', capabilities: [] }));");
    expect(result!.output).toContain("handoffs: [protectHandoff('stripe.charge.read', oncall, { onHandoff: () => undefined })]");
    expect(result!.messages.filter((m) => m.ruleId === 'ctrlrun/unprotected-sandbox-agent' || m.ruleId === 'ctrlrun/unprotected-handoff')).toEqual([]);
  });
});
