/**
 * The properties of an agent (its options, or the agent itself) that hold what it reaches: its
 * tools, the agents it hands off to, its MCP servers. A new door kind held elsewhere (a sandbox
 * agent's capabilities) adds its key here and its reader in leaves.ts.
 */
export const AGENT_PARTS = ['tools', 'handoffs', 'mcpServers'] as const;
