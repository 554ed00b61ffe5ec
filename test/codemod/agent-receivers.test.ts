import { describe, expect, it } from 'vitest';
import { rewriteFile } from '../../src/codemod/rewrite-file.js';
import { parsePolicy } from '../../src/policy/load.js';
import { scanSource } from '../../src/scan/index.js';

/** Agents check cannot follow, and agents named only where they are made: what the codemod does with them. */
const POLICY = parsePolicy(
  'schema: ctrlrun.policy/v6\nactions:\n  billing.ask:\n    decision: allow\n  handoff.lookup:\n    decision: allow\n',
  '/repo/ctrlrun.yaml',
).value!;

function rewrite(text: string, tools: Record<string, string>, handoffs: Record<string, string> = {}) {
  const scan = scanSource('src/x.ts', text, { root: '/repo', generatedModule: '/repo/src/ctrlrun.generated.ts' });
  return rewriteFile(scan, text, {
    fileAbs: '/repo/src/x.ts',
    actions: new Map(Object.entries(tools)),
    policy: POLICY,
    generatedModule: '/repo/src/ctrlrun.generated.ts',
    settings: { extension: 'js' },
    sandboxMapped: false,
    handoffActions: new Map(Object.entries(handoffs)),
  });
}

const SDK = "import { Agent, handoff } from '@openai/agents';\n";

describe('codemod: agents check cannot follow', () => {
  it('rewrites asTool of an imported agent by its literal toolName, and leaves the ones with no name to map', () => {
    const r = rewrite(
      `${SDK}import { billing, specialists } from './agents.js';\n` +
        "export const a = billing.asTool({ toolName: 'ask_billing', toolDescription: 'x' });\n" +
        "export const b = billing.asTool({ toolDescription: 'x' });\n" +
        'export const c = specialists.map((s) => s.asTool({ toolName: `ask_${s.name}`, toolDescription: "x" }));\n',
      { ask_billing: 'billing.ask' },
    );
    expect(r.after).toContain("export const a = protectAgentTool('billing.ask', billing, { toolName: 'ask_billing', toolDescription: 'x' });");
    expect(r.after).toContain("export const b = billing.asTool({ toolDescription: 'x' });");
    expect(r.after).toContain('s.asTool({ toolName: `ask_${s.name}`');
    expect(r.findings.filter((f) => f.kind === 'door-left').map((f) => (f as { line: number }).line)).toEqual([4, 5]);
  });

  it("never takes another function's `const opts` for a handoff's agent name", () => {
    const text =
      SDK +
      "export function lookupAgent() { const opts = { name: 'lookup' }; return new Agent(opts); }\n" +
      'export function refundsHandoff() {\n' +
      "  const opts = { name: 'refunds', instructions: 'Refund.' };\n" +
      '  const agent = new Agent(opts);\n' +
      '  return handoff(agent, { onHandoff: async () => {} });\n' +
      '}\n';
    const r = rewrite(text, {}, { lookup: 'handoff.lookup' });
    expect(r.after).toBeUndefined();
    expect(r.findings).toEqual([expect.objectContaining({ kind: 'door-left', door: 'handoff', line: 6 })]);
  });
});
