import { lines, ruleTester } from '../rule-tester.js';

const GEN = "import { protectedTool } from './ctrlrun.generated.js';";

ruleTester('invoke-replaced', {
  valid: [
    { name: 'a spread without invoke', code: lines(GEN, "const a = { ...base, name: 'n' };") },
    { name: 'Object.assign without invoke', code: lines(GEN, "Object.assign(refund, { description: 'x' });") },
  ],
  invalid: [
    {
      name: '{ ...protectedX, invoke }',
      code: lines(GEN, "const refund = protectedTool('stripe.refund', { name: 'refund' });", 'export const loud = { ...refund, invoke: async () => "ran" };'),
      errors: [{ line: 3, column: 21, mentions: '`refund`' }],
    },
    { name: 'Object.assign(x, { invoke })', code: lines(GEN, 'Object.assign(refund, { invoke: fake });'), errors: [{ line: 2, column: 1 }] },
    { name: 'x.invoke = ...', code: lines(GEN, 'refund.invoke = fake;'), errors: [{ line: 2, column: 1, mentions: 'reassigned' }] },
  ],
});
