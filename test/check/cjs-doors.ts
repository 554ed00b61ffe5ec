import { lines } from './rule-tester.js';

/** Two doors (a protected MCP server, a protected shell) made in CommonJS, exported as `exportLines` say. */
export const cjsDoors = (...exportLines: string[]): string =>
  lines(
    "const { MCPServerStdio } = require('@openai/agents');",
    "const { protectMcpServer, protectShellTool } = require('./ctrlrun.generated.js');",
    "const github = protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
    "const shellTool = protectShellTool('host.shell', { shell: {} });",
    ...exportLines,
  );
