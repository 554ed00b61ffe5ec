import { describe, expect, it } from 'vitest';
import { parsePolicy } from '../../src/policy/load.js';
import { rewriteDoors } from './rewrite-doors.js';

/** Issue 35: the codemod's rewrites of SandboxAgents and handoffs, and what it leaves for a person. */
const parsed = parsePolicy(
  'schema: ctrlrun.policy/v6\nactions:\n  handoff.oncall:\n    decision: allow\n  sandbox.exec:\n    decision: approve\n',
  '/repo/ctrlrun.yaml',
);
const POLICY = parsed.value!;

function rewrite(text: string, mapped: { sandbox?: boolean; handoffs?: Record<string, string> } = {}) {
  return rewriteDoors(text, POLICY, { sandbox: mapped.sandbox ?? true, ...(mapped.handoffs ? { handoffs: mapped.handoffs } : {}) });
}

const SDK = "import { Agent, handoff } from '@openai/agents';\nimport { SandboxAgent, shell } from '@openai/agents/sandbox';\n";

describe('codemod: SandboxAgents and handoffs', () => {
  it('wraps a SandboxAgent and rewrites a mapped handoff, dropping the unused handoff import', () => {
    const r = rewrite(
      `${SDK}const oncall = new Agent({ name: 'oncall' });\nexport const box = new SandboxAgent({ name: 'box' });\nexport const desk = new Agent({ name: 'desk', handoffs: [handoff(oncall, { onHandoff: () => 1 })] });\n`,
    );
    expect(r.after).toBe(
      "import { Agent } from '@openai/agents';\nimport { SandboxAgent, shell } from '@openai/agents/sandbox';\nimport { protectHandoff, protectSandboxAgent } from './ctrlrun.generated.js';\n" +
        "const oncall = new Agent({ name: 'oncall' });\nexport const box = protectSandboxAgent(new SandboxAgent({ name: 'box' }));\n" +
        "export const desk = new Agent({ name: 'desk', handoffs: [protectHandoff('handoff.oncall', oncall, { onHandoff: () => 1 })] });\n",
    );
  });

  it('leaves a SandboxAgent whose configureTools sets needsApproval (a gate is never dropped silently), and one no sandbox entry maps', () => {
    const gated = rewrite(
      `${SDK}export const box = new SandboxAgent({ name: 'box', capabilities: [shell({ configureTools: (t) => t.map((x) => ({ ...x, needsApproval: async () => true })) })] });\n`,
    );
    expect(gated.after).toBeUndefined();
    expect(gated.findings).toEqual([expect.objectContaining({ kind: 'door-left', door: 'SandboxAgent', reason: 'conflict', name: 'box' })]);
    const unmapped = rewrite(`${SDK}export const box = new SandboxAgent({ name: 'box' });\n`, { sandbox: false });
    expect(unmapped.after).toBeUndefined();
    expect(unmapped.findings).toEqual([expect.objectContaining({ kind: 'door-left', door: 'SandboxAgent', reason: 'unmapped' })]);
  });

  it('an unmapped handoff that runs onHandoff is reported; a plain one is left as the transfer it is', () => {
    const r = rewrite(
      `${SDK}const a = new Agent({ name: 'a' });\nexport const d = new Agent({ name: 'd', handoffs: [a, handoff(a, { onHandoff: () => 1 }), handoff(a)] });\n`,
      { handoffs: {} },
    );
    expect(r.after).toBeUndefined();
    expect(r.findings).toEqual([expect.objectContaining({ kind: 'door-left', door: 'handoff', reason: 'unmapped', name: 'a' })]);
  });

  // red team of issue 35: what the scanner now sees is rewritten where a rewrite keeps its meaning, else left for a hand
  it('wraps new X() of a class extending SandboxAgent', () => {
    const r = rewrite(`${SDK}class OpsAgent extends SandboxAgent {}\nexport const ops = new OpsAgent({ name: 'ops' });\n`);
    expect(r.after).toContain("export const ops = protectSandboxAgent(new OpsAgent({ name: 'ops' }));");
  });

  // session 29: protectHandoff takes a Handoff the app made and guards a copy (test/runtime/handoff.test.ts, through the Runner)
  it('wraps a mapped new Handoff(agent, onInvoke) in protectHandoff, held or listed; a second run changes nothing', () => {
    const text =
      "import { Agent, Handoff } from '@openai/agents';\n" +
      "const oncall = new Agent({ name: 'oncall' });\n" +
      'export const h = new Handoff(oncall, async () => oncall);\n' +
      "export const desk = new Agent({ name: 'desk', handoffs: [new Handoff(oncall, async (_c, args) => { page(args); return oncall; })] });\n";
    const r = rewrite(text);
    expect(r.after).toBe(
      "import { Agent, Handoff } from '@openai/agents';\nimport { protectHandoff } from './ctrlrun.generated.js';\n" +
        "const oncall = new Agent({ name: 'oncall' });\n" +
        "export const h = protectHandoff('handoff.oncall', new Handoff(oncall, async () => oncall));\n" +
        "export const desk = new Agent({ name: 'desk', handoffs: [protectHandoff('handoff.oncall', new Handoff(oncall, async (_c, args) => { page(args); return oncall; }))] });\n",
    );
    expect(r.findings.map((f) => [f.kind, f.line])).toEqual([
      ['door-rewritten', 3],
      ['door-rewritten', 4],
    ]);
    const again = rewrite(r.after!);
    expect(again.after).toBeUndefined();
    expect(again.findings).toEqual([]);
  });

  it('leaves new Handoff(agent) with no invoke function and an unmapped one, saying why', () => {
    const r = rewrite(
      "import { Agent, Handoff } from '@openai/agents';\n" +
        "const oncall = new Agent({ name: 'oncall' });\nconst billing = new Agent({ name: 'billing' });\n" +
        '// @ts-expect-error the SDK needs an invoke function\nexport const h = new Handoff(oncall);\n' +
        'export const b = new Handoff(billing, async () => billing);\n',
    );
    expect(r.after).toBeUndefined();
    expect(r.findings).toEqual([
      expect.objectContaining({
        kind: 'door-left',
        door: 'handoff',
        line: 5,
        reason: 'unanalysable',
        message: expect.stringContaining('is given no invoke function'),
      }),
      expect.objectContaining({ kind: 'door-left', door: 'handoff', line: 6, reason: 'unmapped' }),
    ]);
    expect(r.findings[0]).toMatchObject({ hint: expect.stringContaining("it becomes `protectHandoff('<action>', new Handoff(...))`") });
  });

  it('leaves asTool through .call or bound, and a server pushed into a local array', () => {
    const r = rewrite(
      "import { Agent, MCPServerStdio } from '@openai/agents';\n" +
        "const oncall = new Agent({ name: 'oncall' });\n" +
        'export const h = 1;\n' +
        "export const t = Agent.prototype.asTool.call(oncall, { toolName: 'o' });\n" +
        'const f = oncall.asTool.bind(oncall);\n' +
        'const servers = [];\n' +
        "servers.push(new MCPServerStdio({ name: 'gh', fullCommand: 'x' }));\n" +
        "export const a = new Agent({ name: 'a', mcpServers: servers });\n",
    );
    expect(r.after).toBeUndefined();
    expect(r.findings).toEqual([
      expect.objectContaining({ kind: 'door-left', door: 'asTool', line: 4, reason: 'unanalysable', message: expect.stringContaining('through `.call`') }),
      expect.objectContaining({ kind: 'door-left', door: 'asTool', line: 5, reason: 'unanalysable', message: expect.stringContaining('as a value') }),
      expect.objectContaining({ kind: 'door-left', door: 'mcpServers', line: 7, reason: 'unanalysable' }),
    ]);
  });
});
