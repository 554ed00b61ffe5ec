import { lines, ruleTester, testProject } from '../rule-tester.js';

const GEN = "import { protectedTool, protectMcpTools } from './ctrlrun.generated.js';";

/** The test project with the computed names of `flowTools` in src/agent.ts mapped to stripe.charge.read (issue 40, item 5). */
function withFlows() {
  const p = testProject();
  const loc = { file: '/repo/ctrlrun.tools.yaml', line: 20, column: 5 };
  const flows = { kind: 'computed' as const, at: { file: 'src/agent.ts', in: 'flowTools' }, names: 'flow_*', action: 'stripe.charge.read', loc };
  return { ...p, manifest: { ...p.manifest, tools: [...p.manifest.tools, flows] } };
}
const FLOWS = (action: string) => lines(GEN, `export const flowTools = ['a'].map((f) => protectedTool('${action}', { name: \`flow_\${f}\` }));`);

ruleTester('unmapped-protected-tool', {
  valid: [
    { name: 'a mapped name with its action', code: lines(GEN, "protectedTool('stripe.refund', { name: 'refund' });") },
    { name: 'a name mapped the SDK way (sanitized)', code: lines(GEN, "protectedTool('stripe.charge.read', { name: 'lookup charge' });") },
    { name: "an action the policy lacks is unknown-action's", code: lines(GEN, "protectedTool('stripe.refnd', { name: 'wire' });") },
    { name: 'no manifest', project: null, code: lines(GEN, "protectedTool('stripe.charge.read', { name: 'wire' });") },
    { name: 'computed names at a place the manifest maps to this action', project: withFlows(), code: FLOWS('stripe.charge.read') },
  ],
  invalid: [
    {
      name: 'a permissive action for a tool the manifest does not map',
      code: lines(GEN, "export const wire = protectedTool('stripe.charge.read', { name: 'wire_money', execute: async () => 'sent' });"),
      errors: [{ line: 2, column: 59, mentions: '- tool: wire_money' }],
    },
    {
      name: 'computed names at a place no entry maps: the code chose the action',
      code: FLOWS('stripe.charge.read'),
      errors: [{ line: 2, column: 81, mentions: 'tool: { at: src/agent.ts, in: flowTools' }],
    },
    {
      name: 'computed names at a place the manifest maps to another action',
      project: withFlows(),
      code: FLOWS('stripe.refund'),
      errors: [{ line: 2, column: 76, mentions: "to action 'stripe.charge.read'" }],
    },
  ],
});
