import { afterAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics.js';
import { UserError } from '../../src/diagnostics.js';
import { renderGeneratedModule } from '../../src/generate/index.js';
import { loadProject } from '../../src/manifest/load.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * Issue 35: `generate` checks the manifest's `sandbox:` and `handoff:` entries against the code
 * (the SandboxAgents it makes and the tools their capabilities give, the handoffs to an agent of
 * that name and their `inputType`), and refuses a handoff action that could decide `approve`.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const CODE = `import { Agent, handoff } from '@openai/agents';
import { SandboxAgent, filesystem } from '@openai/agents/sandbox';
import { z } from 'zod';

export const box = new SandboxAgent({ name: 'box' });
export const files = new SandboxAgent({ name: 'files', capabilities: [filesystem()] });
const oncall = new Agent({ name: 'oncall' });
export const desk = new Agent({ name: 'desk', handoffs: [handoff(oncall, { inputType: z.object({ severity: z.enum(['low', 'high']) }), onHandoff: () => undefined })] });
`;

function generate(tools: string, actions: string): { threw: boolean; diagnostics: Diagnostic[]; text?: string } {
  const dir = makeTempDir('gen-doors-');
  dirs.push(dir);
  writeFiles(dir, {
    'ctrlrun.tools.yaml': `schema: ctrlrun.tools/v1\ntools:\n${tools}`,
    'ctrlrun.yaml': `schema: ctrlrun.policy/v6\nactions:\n${actions}`,
    'src/app.ts': CODE,
    'src/ctrlrun.control.ts': 'export default {};\n',
  });
  try {
    const made = renderGeneratedModule(loadProject({ cwd: dir }));
    return { threw: false, diagnostics: made.diagnostics, text: made.text };
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return { threw: true, diagnostics: error.diagnostics ?? [] };
  }
}

const codes = (r: { diagnostics: Diagnostic[] }) => r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);

describe('generate: sandbox and handoff entries', () => {
  it('compiles them into policy.sandbox and policy.handoffs; rules on a capability tool and a handoff input are checked', () => {
    const r = generate(
      [
        '  - sandbox: { tool: exec_command }',
        '    action: box.exec',
        '  - sandbox: { agent: files, tool: apply_patch }',
        '    action: files.patch',
        '  - handoff: { to: oncall }',
        '    action: desk.oncall',
        '',
      ].join('\n'),
      [
        '  box.exec:',
        '    rules:',
        '      - when: { cmd_in: [ls, pwd], login_eq: false }',
        '        decision: allow',
        '      - decision: approve',
        '  files.patch:',
        '    rules:',
        '      - when: { operation_eq: create_file }',
        '        decision: allow',
        '      - decision: deny',
        '  desk.oncall:',
        '    rules:',
        '      - when: { severity_eq: high }',
        '        decision: allow',
        '      - decision: deny',
        '',
      ].join('\n'),
    );
    expect(r.threw, JSON.stringify(r.diagnostics)).toBe(false);
    expect(r.text).toContain(
      "  sandbox: {\n    tools: {\n      exec_command: 'box.exec',\n    },\n    agents: {\n      files: {\n        apply_patch: 'files.patch',\n      },\n    },\n  },",
    );
    expect(r.text).toContain("  handoffs: {\n    oncall: 'desk.oncall',\n  },");
  });

  it('refuses what the code does not have, what a rule tests that the door does not send, and a handoff that could pause', () => {
    const r = generate(
      [
        '  - sandbox: { tool: load_skill }', // no SandboxAgent gives it
        '    action: box.exec',
        '  - sandbox: { agent: nobody, tool: exec_command }', // no such agent
        '    action: box.exec',
        '  - handoff: { to: billing }', // no handoff to billing
        '    action: desk.oncall',
        '  - handoff: { to: oncall }',
        '    action: desk.oncall',
        '  - sandbox: { tool: view_image }',
        '    action: box.view',
        '',
      ].join('\n'),
      [
        '  box.exec:',
        '    decision: allow',
        '  box.view:',
        '    rules:',
        '      - when: { command_eq: ls }', // view_image sends `path`
        '        decision: allow',
        '      - decision: deny',
        '  desk.oncall:',
        '    rules:',
        '      - when: { severity_eq: urgent }', // not one of the enum's values
        '        decision: allow',
        '      - decision: approve',
        '',
      ].join('\n'),
    );
    expect(r.threw).toBe(true);
    expect(codes(r).sort()).toEqual(
      [
        'handoff-cannot-pause',
        'handoff-cannot-pause',
        'handoff-not-found',
        'sandbox-agent-not-found',
        'sandbox-tool-not-found',
        'unknown-argument',
        'value-type-mismatch',
      ].sort(),
    );
    expect(r.diagnostics.find((d) => d.code === 'sandbox-tool-not-found')?.message).toContain('they give apply_patch, exec_command, view_image, write_stdin');
  });

  it('a `tool:` entry naming a capability tool says to map it with `sandbox:`', () => {
    const r = generate('  - tool: exec_command\n    action: box.exec\n', '  box.exec:\n    decision: approve\n');
    expect(codes(r)).toEqual(['tool-not-found']);
    expect(r.diagnostics[0]?.hint).toContain('map it with `- sandbox: { tool: exec_command }`');
  });
});
