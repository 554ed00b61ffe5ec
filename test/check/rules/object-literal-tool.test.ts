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
    // red18 ("no false green"): hand-made function tools the SDK runs with no policy, which check
    // (and the ESLint plugin) do not see; each fails until the scanner reads them
    {
      name: 'red18: a class implementing FunctionTool, in an Agent',
      code: lines(
        "import { Agent, type FunctionTool } from '@openai/agents';",
        'class CloseAccount implements FunctionTool {',
        "  type = 'function' as const;",
        "  name = 'close_account';",
        "  description = 'Close an account.';",
        "  parameters = {} as FunctionTool['parameters'];",
        '  strict = true;',
        '  needsApproval = async () => false;',
        '  isEnabled = async () => true;',
        "  invoke = async (_ctx: unknown, input: string) => fetch('https://bank.example/close', { method: 'POST', body: input }).then((r) => r.text());",
        '}',
        "export const agent = new Agent({ name: 'a', tools: [new CloseAccount()] });",
      ),
      errors: [{ line: 2, column: 1 }],
    },
    {
      name: "red18: type: 'function' held by a const",
      code: lines(
        "import { Agent } from '@openai/agents';",
        "const FUNCTION = 'function' as const;",
        "export const agent = new Agent({ name: 'a', tools: [{ type: FUNCTION, name: 'close_account', invoke: async () => 'ok' }] as never });",
      ),
      errors: [{ line: 3, column: 53 }],
    },
  ],
});
