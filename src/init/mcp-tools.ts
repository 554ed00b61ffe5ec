import type { McpServerDefinition } from '../scan/mcp-definitions.js';
import type { McpServerLaunch } from '../scan/types.js';

/**
 * Which tools each MCP server of the app lists, when init can tell without guessing (issue 35):
 * from the registrations of a server defined in the same repository, or from the server itself
 * when `--discover-mcp` started it. The manifest names an MCP tool by the client's server `name`
 * (`new MCPServerStdio({ name })`), so a definition counts for a client only when the client's
 * literal command runs the definition's file, or, failing that, when both give the same name.
 */

/** An MCP server of the app (a client: `new MCPServerStdio({ name, ... })`), as init found it. */
export interface McpClient {
  name: string;
  places: Array<{ file: string; line: number }>;
  launch?: McpServerLaunch;
}

/** The tools a client's server lists, and where init read them. */
export interface McpToolsFound {
  server: string;
  tools: string[];
  /** `src/mcp/server.ts:12` (its registrations), or `listed by starting it`. */
  source: string;
  /** A registration init could not read: the list may miss a tool. */
  incomplete?: boolean;
}

const SCRIPT = /\.(?:[cm]?[jt]s|tsx|jsx)$/;
const BUILD_DIRS = new Set(['dist', 'build', 'out', 'lib', 'src']);

/** A path without its extension and its first folder when that is a source or build folder (`dist/mcp/server.js` → `mcp/server`). */
function comparable(file: string): string {
  const parts = file
    .replace(/\\/g, '/')
    .replace(/^\.\//, '')
    .replace(SCRIPT, '')
    .split('/')
    .filter((p) => p !== '' && p !== '.');
  if (parts.length > 1 && BUILD_DIRS.has(parts[0]!)) parts.shift();
  return parts.join('/');
}

/** The script paths a client's command names (`tsx src/mcp/server.ts`, `node dist/mcp/server.js`), as written. */
export function commandScripts(launch: McpServerLaunch | undefined): string[] {
  if (launch?.transport !== 'stdio') return [];
  const words = [...(launch.fullCommand?.split(/\s+/) ?? []), ...(launch.command !== undefined ? [launch.command] : []), ...(launch.args ?? [])];
  const cwd = launch.cwd?.replace(/\\/g, '/').replace(/\/+$/, '');
  return words.filter((w) => SCRIPT.test(w) && !w.startsWith('-')).map((w) => (cwd && !w.startsWith('/') && cwd !== '.' ? `${cwd}/${w}` : w));
}

/**
 * The definition each client runs: the one whose file its command names (compared without the
 * extension and a leading `src`/`dist`/`build`/`out`/`lib`), else the only one with the client's
 * name. A client two definitions could be is linked to none (init does not guess).
 */
export function linkDefinitions(clients: readonly McpClient[], definitions: readonly McpServerDefinition[]): Map<string, McpServerDefinition> {
  const linked = new Map<string, McpServerDefinition>();
  for (const client of clients) {
    const scripts = new Set(commandScripts(client.launch).map(comparable));
    const byFile = definitions.filter((d) => scripts.has(comparable(d.file)));
    const byName = definitions.filter((d) => d.name === client.name);
    const pick = byFile.length > 0 ? byFile : byName;
    if (pick.length === 1) linked.set(client.name, pick[0]!);
  }
  return linked;
}

/** The tools init can name for each client: what discovery listed (`listed`), else a linked definition's registrations. */
export function mcpToolsFound(
  clients: readonly McpClient[],
  definitions: readonly McpServerDefinition[],
  listed: ReadonlyMap<string, string[]> = new Map(),
): McpToolsFound[] {
  const linked = linkDefinitions(clients, definitions);
  const out: McpToolsFound[] = [];
  for (const client of clients) {
    const def = linked.get(client.name);
    // what the server itself listed wins over what its code registers (an option the code reads may add or hide a tool)
    if (listed.has(client.name)) {
      out.push({ server: client.name, tools: listed.get(client.name)!, source: 'listed by starting it (--discover-mcp)' });
    } else if (def && def.tools.length > 0) {
      out.push({
        server: client.name,
        tools: def.tools.map((t) => t.name),
        source: `${def.file}:${def.line}`,
        ...(def.incomplete ? { incomplete: true } : {}),
      });
    }
  }
  return out;
}
