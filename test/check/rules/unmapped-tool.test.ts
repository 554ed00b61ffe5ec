import { lines, ruleTester } from '../rule-tester.js';

const IMPORT = "import { tool } from '@openai/agents';";

ruleTester('unmapped-tool', {
  valid: [
    { name: 'a mapped SDK tool is unprotected-tool, not this', code: lines(IMPORT, "export const r = tool({ name: 'refund', execute: async () => 'ok' });") },
    {
      name: 'a protected tool',
      code: lines("import { protectedTool } from './ctrlrun.generated.js';", "export const r = protectedTool('stripe.refund', { name: 'send_email' });"),
    },
  ],
  invalid: [
    {
      name: 'a name with no manifest entry: the hint is the entry to add',
      code: lines(IMPORT, "export const t = tool({ name: 'send_email', execute: async () => 'ok' });"),
      errors: [{ line: 2, column: 18, mentions: '- tool: send_email\n    action: <id>' }],
    },
    {
      name: 'a name that needs quoting in YAML',
      code: lines(IMPORT, "export const t = tool({ name: 'Refund Expert', execute: async () => 'ok' });"),
      errors: [{ line: 2, column: 18, mentions: "- tool: 'Refund Expert'" }],
    },
    {
      name: 'two declarations of one name are each reported',
      code: lines(
        IMPORT,
        "export const a = tool({ name: 'get_weather', execute: async () => 'sun' });",
        "export const b = tool({ name: 'get_weather', execute: async () => 'rain' });",
      ),
      errors: [
        { line: 2, column: 18 },
        { line: 3, column: 18 },
      ],
    },
  ],
});
