import { lines, ruleTester } from '../rule-tester.js';

const GEN = "import { protectedTool, protectMcpTools } from './ctrlrun.generated.js';";

ruleTester('unmapped-protected-tool', {
  valid: [
    { name: 'a mapped name with its action', code: lines(GEN, "protectedTool('stripe.refund', { name: 'refund' });") },
    { name: 'a name mapped the SDK way (sanitized)', code: lines(GEN, "protectedTool('stripe.charge.read', { name: 'lookup charge' });") },
    { name: "an action the policy lacks is unknown-action's", code: lines(GEN, "protectedTool('stripe.refnd', { name: 'wire' });") },
    { name: 'no manifest', project: null, code: lines(GEN, "protectedTool('stripe.charge.read', { name: 'wire' });") },
  ],
  invalid: [
    {
      name: 'a permissive action for a tool the manifest does not map',
      code: lines(GEN, "export const wire = protectedTool('stripe.charge.read', { name: 'wire_money', execute: async () => 'sent' });"),
      errors: [{ line: 2, column: 59, mentions: '- tool: wire_money' }],
    },
  ],
});
