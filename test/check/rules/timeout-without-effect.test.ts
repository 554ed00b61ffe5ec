import { lines, ruleTester } from '../rule-tester.js';

// Issue 14.8 and 14.9: `timeoutMs` with no `effect:` and `mode: observe` passed check without a word.

const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import { tool } from '@openai/agents';";

ruleTester('timeout-without-effect', {
  valid: [
    {
      name: 'timeoutMs on an action with an effect',
      code: lines(GEN, "export const r = protectedTool('stripe.refund', { name: 'refund', timeoutMs: 5000 });"),
    },
    { name: 'no timeoutMs', code: lines(GEN, "export const l = protectedTool('stripe.charge.read', { name: 'lookup_charge' });") },
    {
      name: 'an action that is always denied never runs',
      code: lines(GEN, "export const c = protectedTool('accounts.close', { name: 'close_account', timeoutMs: 10 });"),
    },
  ],
  invalid: [
    {
      name: 'protectedTool with timeoutMs, action without effect',
      code: lines(GEN, "export const l = protectedTool('stripe.charge.read', {", "  name: 'lookup_charge',", '  timeoutMs: 5000,', '});'),
      errors: [{ line: 4, column: 3, severity: 'warning', mentions: "'stripe.charge.read' has no `effect:`" }],
    },
    {
      name: 'an SDK tool() mapped to such an action (the codemod keeps timeoutMs)',
      code: lines(SDK, "export const l = tool({ name: 'lookup_charge', timeoutMs: 5000, errorFunction: null });"),
      errors: [{ line: 2, column: 48, severity: 'warning' }],
    },
  ],
});
