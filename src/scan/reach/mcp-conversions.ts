import type { ts } from 'ts-morph';
import type { ReachValue } from '../types.js';
import { reachValueOf, type ReachContext } from './convert.js';
import { member, NONE } from './values.js';

/**
 * The SDK's helpers that hand an agent the tools of MCP servers (issue 40, item 3): their door is
 * the servers they are given, so a run reaches a protected tool through them only when one of
 * those servers is protected or mapped. Read as the servers' values, an unknown list stays
 * unknown (the run stays named).
 */
export const MCP_CONVERSIONS: Record<string, (args: readonly ts.Expression[], rc: ReachContext) => ReachValue> = {
  // `getAllMcpTools(servers)` or `getAllMcpTools({ mcpServers, … })`: a server is its own
  // `mcpServers` member, so one reading covers both forms
  getAllMcpTools: (args, rc) => (args[0] ? member(reachValueOf(args[0], rc), 'mcpServers') : NONE),
  // `mcpToFunctionTool(mcpTool, server, strict)`: calls go to `server`
  mcpToFunctionTool: (args, rc) => (args[1] ? reachValueOf(args[1], rc) : NONE),
  // `connectMcpServers(servers, options)`: its `active`/`all` are the servers it was given
  connectMcpServers: (args, rc) => (args[0] ? reachValueOf(args[0], rc) : NONE),
};

/** Static methods of SDK classes read the same way: `MCPServers.open(servers)`. */
export const MCP_STATIC_CONVERSIONS: Record<string, Record<string, (args: readonly ts.Expression[], rc: ReachContext) => ReachValue>> = {
  MCPServers: { open: (args, rc) => (args[0] ? reachValueOf(args[0], rc) : NONE) },
};
