import { lines, ruleTester } from '../rule-tester.js';

const SDK = "import { tool } from '@openai/agents';";
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";

ruleTester('unsafe-error-function', {
  valid: [
    {
      name: 'SDK tool with errorFunction: null',
      code: lines(SDK, "export const t = tool({ name: 'refund', errorFunction: null, execute: async () => 'ok' });"),
    },
    {
      name: 'SDK tool with an outputSchema (the SDK defaults errorFunction to null)',
      code: lines(SDK, "export const t = tool({ name: 'refund', outputSchema: s, execute: async () => 'ok' });"),
    },
    {
      name: 'protected, action with an effect',
      code: lines(GEN, "export const r = protectedTool('stripe.refund', { name: 'refund', execute: async () => 'ok' });"),
    },
    {
      name: 'protected, action never runs (deny only)',
      code: lines(GEN, "export const r = protectedTool('accounts.close', { name: 'close_account', execute: async () => 'ok' });"),
    },
    {
      name: 'protected, no effect but errorFunction: null',
      code: lines(GEN, "export const r = protectedTool('stripe.charge.read', { name: 'lookup_charge', errorFunction: null, execute: async () => 'ok' });"),
    },
    // The runtime's default for a protected tool never turns a body failure into model text.
    {
      name: 'protected, no effect, default errorFunction',
      code: lines(GEN, "export const r = protectedTool('stripe.charge.read', { name: 'lookup_charge', execute: async () => 'ok' });"),
    },
    { name: 'protected, unknown action (unknown-action reports it)', code: lines(GEN, "export const r = protectedTool('nope', { name: 'x' });") },
    {
      name: 'protected, no effect, custom errorFunction: error-function-without-effect (a warning), not this',
      code: lines(GEN, "export const r = protectedTool('stripe.charge.read', { name: 'lookup_charge', errorFunction: () => 'x' });"),
    },
    {
      name: 'tool() of another package',
      code: lines("import { tool } from '@langchain/core/tools';", "export const t = tool(async () => 'ok', { name: 'refund' });"),
    },
    {
      name: 'suppressed',
      code: lines(
        SDK,
        '// ctrlrun-ignore unsafe-error-function -- the body never throws',
        '// ctrlrun-ignore unprotected-tool -- reviewed',
        "export const t = tool({ name: 'refund', execute: async () => 'ok' });",
      ),
    },
  ],
  invalid: [
    {
      name: 'SDK tool with the default errorFunction',
      code: lines(SDK, "export const t = tool({ name: 'refund', execute: async () => 'ok' });"),
      errors: [{ line: 2, column: 18, severity: 'error', mentions: 'Please try again' }],
    },
    {
      name: 'SDK tool with a custom errorFunction: reported at the property',
      code: lines(SDK, 'export const t = tool({', "  name: 'refund',", "  errorFunction: () => 'try later',", "  execute: async () => 'ok',", '});'),
      errors: [{ line: 4, column: 3, severity: 'error', mentions: 'custom' }],
    },
    {
      name: 'SDK tool with a spread: the default may remain',
      code: lines(SDK, "export const t = tool({ ...base, name: 'refund', outputSchema: s });"),
      errors: [{ line: 2, column: 18, severity: 'error', mentions: 'may be' }],
    },
  ],
});
