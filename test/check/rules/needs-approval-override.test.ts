import { lines, ruleTester } from '../rule-tester.js';

const GEN = "import { protectedTool } from './ctrlrun.generated.js';";

ruleTester('needs-approval-override', {
  valid: [
    { name: 'no needsApproval', code: lines(GEN, "export const r = protectedTool('stripe.refund', { name: 'refund' });") },
    {
      name: 'needsApproval on an SDK tool is not this rule',
      code: lines("import { tool } from '@openai/agents';", "export const r = tool({ name: 'refund', needsApproval: true });"),
    },
  ],
  invalid: [
    {
      name: 'needsApproval: true',
      code: lines(GEN, "export const r = protectedTool('stripe.refund', {", "  name: 'refund',", '  needsApproval: true,', '});'),
      errors: [{ line: 4, column: 3 }],
    },
    {
      name: 'needsApproval as a predicate',
      code: lines(GEN, "export const r = protectedTool('stripe.refund', { name: 'refund', needsApproval: async () => false });"),
      errors: [{ line: 2, column: 67 }],
    },
  ],
});
