import { findMcpDefinitions, type McpServerDefinition } from '../scan/mcp-definitions.js';
import { discoverMcpTools, type DiscoveryOutcome } from './discover-mcp.js';
import { linkDefinitions, mcpToolsFound, type McpClient, type McpToolsFound } from './mcp-tools.js';
import type { InitPlan } from './render.js';

/** What init learned of the app's MCP servers' tools: from their definitions in the repo, and (opt-in) from the servers. */
export interface RepoMcpTools {
  found: McpToolsFound[];
  definitions: McpServerDefinition[];
  discovered: DiscoveryOutcome[];
  clients: readonly McpClient[];
}

/** The tools init can name for the app's MCP servers (`discover`: ask each server, `--discover-mcp`). */
export async function mcpToolsOfRepo(clients: readonly McpClient[], root: string, discover: boolean): Promise<RepoMcpTools> {
  const definitions = clients.length > 0 || discover ? await findMcpDefinitions(root) : [];
  const discovered = discover ? await discoverMcpTools(clients, root) : [];
  const listed = new Map(discovered.flatMap((d) => (d.tools ? [[d.server, d.tools] as const] : [])));
  return { found: mcpToolsFound(clients, definitions, listed), definitions, discovered, clients };
}

/** What init says about them, after what it wrote. */
export function mcpNotes(plans: ReadonlyArray<{ plan: InitPlan }>, mcp: RepoMcpTools, _cwd: string): string[] {
  const lines: string[] = [];
  const planned = plans.flatMap((p) => p.plan.mcpTools ?? []);
  for (const f of mcp.found) {
    const tools = planned.filter((t) => t.server === f.server);
    if (tools.length > 0) {
      lines.push(
        `note: MCP server ${JSON.stringify(f.server)}: ${tools.length} tool${tools.length === 1 ? '' : 's'} mapped (${tools.map((t) => t.tool).join(', ')}), ${f.source.startsWith('listed') ? f.source : `read from its registrations at ${f.source}`}; each action starts at decision: approve, which a server in \`mcpServers\` cannot pause for (use \`tools: await protectMcpTools([server])\` for calls a person must approve)\n`,
      );
    }
    if (f.incomplete) {
      lines.push(
        `note: MCP server ${JSON.stringify(f.server)}: a registration at ${f.source.split(':')[0]} names its tool with a value init cannot read; map that tool by hand (a tool no entry maps is denied)\n`,
      );
    }
  }
  const linked = new Set(linkDefinitions(mcp.clients, mcp.definitions).values());
  for (const d of mcp.definitions) {
    if (linked.has(d) || d.tools.length === 0) continue;
    lines.push(
      `note: ${d.file}:${d.line} defines MCP server${d.name !== undefined ? ` ${JSON.stringify(d.name)}` : ''} (tools ${d.tools.map((t) => t.name).join(', ')}), but no agent here runs it by a command or name init can read: map its tools as \`- mcp: { server: <the name your client gives it>, tool: ${d.tools[0]!.name} }\`\n`,
    );
  }
  for (const d of mcp.discovered) {
    if (d.problem !== undefined) lines.push(`note: --discover-mcp: MCP server ${JSON.stringify(d.server)} was not listed: ${d.problem}\n`);
  }
  return lines;
}
