import { lines, ruleTester } from '../rule-tester.js';

// Issue 21, item 8: the doors a new user's repos used that check did not see.
const SDK = "import { Agent, getAllMcpTools, hostedMcpTool, mcpToFunctionTool, MCPServerStdio } from '@openai/agents';";
const GEN = "import { protectedTool, protectMcpTools } from './ctrlrun.generated.js';";

ruleTester('opaque-tool-factory', {
  valid: [
    { name: 'createRequire for another package', code: lines("import { createRequire } from 'node:module';", 'const require2 = createRequire(import.meta.url);', "const _ = require2('lodash');") },
    { name: "a plugin loader's computed require (nothing says it is the SDK)", code: lines("const plugin = require(path.join(__dirname, 'plugins', name));", "import '@openai/agents';") },
    { name: 'a literal require of the SDK is followed, not opaque', code: lines("const { tool } = require('@openai/agents');", "tool({ name: 'refund' });") },
    { name: 'a computed import of a local file', code: lines("import { Agent } from '@openai/agents';", 'const mod = await import(`./routes/${route}.js`);') },
  ],
  invalid: [
    {
      name: "createRequire(import.meta.url)('@openai/agents')",
      code: lines("import { createRequire } from 'node:module';", "const { tool } = createRequire(import.meta.url)('@openai/agents');", "tool({ name: 'refund' });"),
      errors: [{ line: 2, column: 18, mentions: 'createRequire' }],
    },
    {
      name: 'a require made by createRequire, held in a variable',
      code: lines("import module from 'node:module';", 'const req = module.createRequire(import.meta.url);', "const agents = req('@openai/agents-core');"),
      errors: [{ line: 3, column: 16, mentions: 'createRequire' }],
    },
    {
      name: 'a computed require() specifier',
      code: lines("const agents = require('@openai/' + 'agents');", "agents.tool({ name: 'refund' });"),
      errors: [{ line: 1, column: 16, mentions: 'computed' }],
    },
    {
      name: 'a computed specifier from a const and a template',
      code: lines("const SCOPE = '@openai';", 'const agents = await import(`${SCOPE}/agents`);', "const other = require([SCOPE, 'agents'].join('/'));"),
      errors: [
        { line: 2, column: 22, mentions: 'import() specifier is computed' },
        { line: 3, column: 15, mentions: 'require() specifier is computed' },
      ],
    },
  ],
});

ruleTester('mcp-function-tool', {
  valid: [
    { name: 'protectMcpTools', code: lines(SDK, GEN, "const fs = new MCPServerStdio({ name: 'fs', fullCommand: 'x' });", "new Agent({ name: 'a', tools: await protectMcpTools([fs]) });") },
    { name: 'a getAllMcpTools of another library', code: lines("import { getAllMcpTools } from './my-mcp-helpers.js';", 'const tools = await getAllMcpTools(servers);') },
  ],
  invalid: [
    {
      name: "getAllMcpTools(...) in an Agent's tools",
      code: lines(SDK, "const fs = new MCPServerStdio({ name: 'fs', fullCommand: 'x' });", "new Agent({ name: 'a', tools: await getAllMcpTools({ mcpServers: [fs] }) });"),
      errors: [{ line: 3, column: 37, mentions: 'protectMcpTools' }],
    },
    {
      name: 'mcpToFunctionTool, through a namespace',
      code: lines("import * as agents from '@openai/agents';", "const tools = listed.map((t) => agents.mcpToFunctionTool(t, server, false));", "new agents.Agent({ name: 'a', tools });"),
      errors: [{ line: 2, column: 33, mentions: 'mcpToFunctionTool()' }],
    },
  ],
});

ruleTester('hosted-mcp-unguarded', {
  valid: [
    { name: "a spread before requireApproval: 'always' (the literal wins)", code: lines(SDK, "hostedMcpTool({ ...config, serverLabel: 'gh', requireApproval: 'always' });") },
  ],
  invalid: [
    {
      name: "requireApproval: 'always' overridden by a later spread",
      code: lines(SDK, "hostedMcpTool({ serverLabel: 'gh', requireApproval: 'always', ...config });"),
      errors: [{ line: 2, column: 63, mentions: 'can override it' }],
    },
  ],
});

ruleTester('unmapped-protected-tool', {
  valid: [
    { name: 'a mapped name with its action', code: lines(GEN, "protectedTool('stripe.refund', { name: 'refund' });") },
    { name: 'a name mapped the SDK way (sanitized)', code: lines(GEN, "protectedTool('stripe.charge.read', { name: 'lookup charge' });") },
    { name: 'an action the policy lacks is unknown-action\'s', code: lines(GEN, "protectedTool('stripe.refnd', { name: 'wire' });") },
    { name: 'no manifest', project: null, code: lines(GEN, "protectedTool('stripe.charge.read', { name: 'wire' });") },
  ],
  invalid: [
    {
      name: 'a permissive action for a tool the manifest does not map',
      code: lines(GEN, "export const wire = protectedTool('stripe.charge.read', { name: 'wire_money', execute: async () => 'sent' });"),
      errors: [{ line: 2, column: 59, mentions: '- tool: wire_money' }],
    },
  ],
});
