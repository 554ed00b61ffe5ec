import { lines, ruleTester } from '../rule-tester.js';

const SDK = "import { Agent, MCPServerStdio, hostedMcpTool } from '@openai/agents';";

const GEN = "import { protectAgent, protectAgentTool, protectHostedMcp, protectMcpServer } from './ctrlrun.generated.js';";

ruleTester('unprotected-agent-tool', {
  valid: [
    {
      name: 'protectAgentTool',
      code: lines(
        SDK,
        GEN,
        "const writer = new Agent({ name: 'writer' });",
        "export const t = protectAgentTool('stripe.refund', writer, { toolDescription: 'x' });",
      ),
    },
    {
      name: 'asTool of something that is not an SDK agent',
      code: lines(SDK, "import { chain } from 'langchain';", "export const t = chain.asTool({ name: 'x' });"),
    },
    {
      name: 'a RealtimeAgent is not an agent tool',
      code: lines(
        "import { RealtimeAgent } from '@openai/agents/realtime';",
        "const r = new RealtimeAgent({ name: 'r' });",
        'export const t = (r as any).asTool?.({});',
      ),
    },
  ],
  invalid: [
    {
      name: 'asTool of a variable, with the SDK default name from the agent',
      code: lines(SDK, "const writer = new Agent({ name: 'Writer bot' });", "export const t = writer.asTool({ toolDescription: 'Writes' });"),
      errors: [{ line: 3, column: 18, severity: 'error', mentions: "'Writer_bot'" }],
    },
    {
      name: 'a mapped toolName: the hint names its action',
      code: lines(SDK, "export const t = new Agent({ name: 'w' }).asTool({ toolName: 'refund', toolDescription: 'x' });"),
      errors: [{ line: 2, column: 18, mentions: "protectAgentTool('stripe.refund'" }],
    },
    {
      name: 'Agent.create and a clone, followed through variables',
      code: lines(
        SDK,
        "const a = Agent.create({ name: 'a' });",
        "const b = a.clone({ name: 'b' });",
        "export const tools = [b.asTool({ toolDescription: 'x' })];",
      ),
      errors: [{ line: 4, column: 23 }],
    },
  ],
});
