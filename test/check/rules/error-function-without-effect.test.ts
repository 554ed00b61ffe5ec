import { action, lines, ruleTester, testProject } from '../rule-tester.js';

// Split from unsafe-error-function (issue 35: one rule, one severity, in check and in ESLint).

const GEN = "import { protectedTool } from './ctrlrun.generated.js';";

ruleTester('error-function-without-effect', {
  valid: [
    {
      name: 'action with an effect',
      code: lines(GEN, "export const r = protectedTool('stripe.refund', { name: 'refund', errorFunction: () => 'x', execute: async () => 'ok' });"),
    },
    {
      name: 'action never runs (deny only)',
      code: lines(GEN, "export const r = protectedTool('accounts.close', { name: 'close_account', errorFunction: () => 'x', execute: async () => 'ok' });"),
    },
    {
      name: 'no effect but errorFunction: null',
      code: lines(GEN, "export const r = protectedTool('stripe.charge.read', { name: 'lookup_charge', errorFunction: null, execute: async () => 'ok' });"),
    },
    {
      name: "no effect, the runtime's default errorFunction",
      code: lines(GEN, "export const r = protectedTool('stripe.charge.read', { name: 'lookup_charge', execute: async () => 'ok' });"),
    },
    {
      name: 'no project loaded: nothing to say',
      project: null,
      code: lines(GEN, "export const r = protectedTool('stripe.charge.read', { name: 'lookup_charge', errorFunction: () => 'x' });"),
    },
  ],
  invalid: [
    {
      name: 'can run, no effect, custom errorFunction (method shorthand): at the property',
      code: lines(
        GEN,
        "export const r = protectedTool('stripe.charge.read', {",
        "  name: 'lookup_charge',",
        '  errorFunction() { return "try again"; },',
        '});',
      ),
      errors: [{ line: 4, column: 3, mentions: 'effect' }],
    },
    {
      name: 'can run (approve only), custom errorFunction: at the property',
      project: testProject({ tools: { wire: 'bank.wire' }, actions: [action('bank.wire', ['approve'])] }),
      code: lines(GEN, "export const r = protectedTool('bank.wire', {", "  name: 'wire',", '  errorFunction: (_c, e) => String(e),', '});'),
      errors: [{ line: 4, column: 3, severity: 'warning' }],
    },
  ],
});
