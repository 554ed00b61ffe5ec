import { lines, ruleTester } from '../rule-tester.js';

const SDK = "import { tool } from '@openai/agents';";

ruleTester('object-literal-tool', {
  valid: [
    { name: 'an SDK tool()', code: lines(SDK, "export const t = tool({ name: 'refund', execute: async () => 'ok' });") },
    { name: "type: 'function' with no invoke", code: lines("export const schema = { type: 'function', name: 'refund' };") },
  ],
  invalid: [
    {
      name: 'a hand-made function tool in an Agent',
      code: lines(
        "import { Agent } from '@openai/agents';",
        "const refund = { type: 'function', name: 'refund', parameters: {}, strict: true, invoke: async () => 'ok', needsApproval: async () => false };",
        "new Agent({ name: 'desk', tools: [refund] });",
      ),
      errors: [{ line: 2, column: 16, mentions: "'refund'" }],
    },
    {
      name: 'inline in the tools array, with a method invoke',
      code: lines(
        "import { Agent } from '@openai/agents';",
        "new Agent({ name: 'd', tools: [{ type: 'function', name: 'x', async invoke() { return ''; } }] });",
      ),
      errors: [{ line: 2, column: 32 }],
    },
  ],
});
