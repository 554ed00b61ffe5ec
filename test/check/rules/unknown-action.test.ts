import { lines, ruleTester, testProject } from '../rule-tester.js';

const IMPORT = "import { protectedTool } from './ctrlrun.generated.js';";

ruleTester('unknown-action', {
  valid: [
    { name: 'an action of the policy', code: lines(IMPORT, "export const r = protectedTool('stripe.refund', { name: 'refund', execute: async () => 'ok' });") },
    {
      name: 'a tool name the manifest does not map',
      code: lines(IMPORT, "export const r = protectedTool('stripe.charge.read', { name: 'read_only_lookup' });"),
    },
    { name: 'a denied action is still known', code: lines(IMPORT, "export const r = protectedTool('accounts.close', { name: 'close_account' });") },
    { name: 'no project: nothing to compare with', project: null, code: lines(IMPORT, "export const r = protectedTool('nope', { name: 'x' });") },
  ],
  invalid: [
    {
      name: 'a typo: the hint names the nearest action',
      code: lines(IMPORT, "export const r = protectedTool('stripe.refnd', { name: 'refund', execute: async () => 'ok' });"),
      errors: [{ line: 2, column: 32, mentions: "Did you mean 'stripe.refund'" }],
    },
    {
      name: 'an action far from every other',
      code: lines(IMPORT, '', "export const r = protectedTool('wire.transfer', { name: 'wire' });"),
      errors: [{ line: 3, column: 32, mentions: 'ctrlrun.yaml' }],
    },
    {
      name: 'a known action, but not the one the manifest maps the tool name to',
      code: lines(IMPORT, "export const r = protectedTool('stripe.charge.read', { name: 'refund', execute: async () => 'ok' });"),
      errors: [{ line: 2, column: 32, mentions: "maps to 'stripe.refund'" }],
    },
    {
      name: "a tool name the manifest maps to another action, as the SDK spells it ('Lookup Charge' is 'Lookup_Charge')",
      project: testProject({ tools: { refund: 'stripe.refund', 'Lookup Charge': 'stripe.charge.read' } }),
      code: lines(IMPORT, "export const r = protectedTool('stripe.refund', { name: 'Lookup_Charge', execute: async () => 'ok' });"),
      errors: [{ line: 2, column: 32, mentions: "change the mapping of 'Lookup Charge'" }],
    },
    {
      name: 'an action that is not a literal',
      code: lines(IMPORT, "const a = 'stripe.refund';", 'export const r = protectedTool(a, { name: "refund" });'),
      errors: [{ line: 3, column: 18, mentions: 'string literal' }],
    },
  ],
});
