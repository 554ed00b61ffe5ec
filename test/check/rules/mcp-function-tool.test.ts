import { lines, ruleTester } from '../rule-tester.js';

const SDK = "import { Agent, getAllMcpTools, hostedMcpTool, mcpToFunctionTool, MCPServerStdio } from '@openai/agents';";

const GEN = "import { protectedTool, protectMcpTools } from './ctrlrun.generated.js';";

ruleTester('mcp-function-tool', {
  valid: [
    {
      name: 'protectMcpTools',
      code: lines(
        SDK,
        GEN,
        "const fs = new MCPServerStdio({ name: 'fs', fullCommand: 'x' });",
        "new Agent({ name: 'a', tools: await protectMcpTools([fs]) });",
      ),
    },
    {
      name: 'a getAllMcpTools of another library',
      code: lines("import { getAllMcpTools } from './my-mcp-helpers.js';", 'const tools = await getAllMcpTools(servers);'),
    },
  ],
  invalid: [
    {
      name: "getAllMcpTools(...) in an Agent's tools",
      code: lines(
        SDK,
        "const fs = new MCPServerStdio({ name: 'fs', fullCommand: 'x' });",
        "new Agent({ name: 'a', tools: await getAllMcpTools({ mcpServers: [fs] }) });",
      ),
      errors: [{ line: 3, column: 37, mentions: 'protectMcpTools' }],
    },
    {
      name: 'mcpToFunctionTool, through a namespace',
      code: lines(
        "import * as agents from '@openai/agents';",
        'const tools = listed.map((t) => agents.mcpToFunctionTool(t, server, false));',
        "new agents.Agent({ name: 'a', tools });",
      ),
      errors: [{ line: 2, column: 33, mentions: 'mcpToFunctionTool()' }],
    },
  ],
});
