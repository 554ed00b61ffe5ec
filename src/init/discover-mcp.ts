import type { McpServerLaunch } from '../scan/types.js';
import type { McpClient } from './mcp-tools.js';

/**
 * `init --discover-mcp` (issue 35): the tools an MCP server lists, asked of the server itself, with
 * the SDK's own client (the `@openai/agents` the app uses: the names are the ones the runtime will
 * see). Opt-in, since it runs the command the code names; only a stdio server whose command is
 * written as literals, or an HTTP server on the loopback interface, is contacted; each is bounded
 * in time and closed (its process ended) whatever happens.
 */

export interface DiscoveryOutcome {
  server: string;
  /** The tools it listed, when it answered. */
  tools?: string[];
  /** Why it was not asked, or did not answer. */
  problem?: string;
}

/** The SDK's MCP client classes and their common surface, as discovery uses them. */
interface McpClientLike {
  connect(): Promise<void>;
  listTools(): Promise<Array<{ name: string }>>;
  close(): Promise<void>;
}
interface SdkMcp {
  MCPServerStdio: new (options: Record<string, unknown>) => McpClientLike;
  MCPServerStreamableHttp: new (options: Record<string, unknown>) => McpClientLike;
  MCPServerSSE: new (options: Record<string, unknown>) => McpClientLike;
}

export const DISCOVERY_TIMEOUT_MS = 15_000;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Why a server cannot be asked (undefined: it can). */
export function discoveryRefusal(launch: McpServerLaunch | undefined): string | undefined {
  if (!launch) return 'its options are not literals init can read (a command or a URL)';
  if (launch.transport === 'stdio') return launch.fullCommand !== undefined || launch.command !== undefined ? undefined : 'it names no command';
  if (launch.url === undefined) return 'it names no URL';
  let host: string;
  try {
    host = new URL(launch.url).hostname;
  } catch {
    return `its URL ${JSON.stringify(launch.url)} does not parse`;
  }
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host) ? undefined : `${host} is not this machine: init asks only servers on the loopback interface`;
}

function clientFor(sdk: SdkMcp, name: string, launch: McpServerLaunch, cwd: string): McpClientLike {
  if (launch.transport === 'stdio') {
    const base = { name, cwd: launch.cwd ?? cwd, clientSessionTimeoutSeconds: Math.ceil(DISCOVERY_TIMEOUT_MS / 1000) };
    return new sdk.MCPServerStdio(
      launch.fullCommand !== undefined ? { ...base, fullCommand: launch.fullCommand } : { ...base, command: launch.command, args: launch.args ?? [] },
    );
  }
  const Client = launch.transport === 'sse' ? sdk.MCPServerSSE : sdk.MCPServerStreamableHttp;
  return new Client({ name, url: launch.url });
}

/** Asks one server, within `timeoutMs`; the client is closed either way. */
async function ask(sdk: SdkMcp, client: McpClient, cwd: string, timeoutMs: number): Promise<DiscoveryOutcome> {
  const refusal = discoveryRefusal(client.launch);
  if (refusal) return { server: client.name, problem: refusal };
  const mcp = clientFor(sdk, client.name, client.launch!, cwd);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`it did not answer within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
  });
  try {
    await Promise.race([mcp.connect(), timeout]);
    const tools = await Promise.race([mcp.listTools(), timeout]);
    return { server: client.name, tools: tools.map((t) => t.name) };
  } catch (error) {
    return { server: client.name, problem: (error as Error).message.split('\n')[0] ?? 'it failed' };
  } finally {
    clearTimeout(timer);
    await Promise.race([mcp.close().catch(() => undefined), new Promise((r) => setTimeout(r, 2_000).unref())]);
  }
}

/**
 * Asks each client's server for its tools, one at a time. `loadSdk` gives the SDK's MCP classes
 * (the app's `@openai/agents`); a failure to load it is every server's problem.
 */
export async function discoverMcpTools(
  clients: readonly McpClient[],
  cwd: string,
  options: { timeoutMs?: number; loadSdk?: () => Promise<SdkMcp> } = {},
): Promise<DiscoveryOutcome[]> {
  if (clients.length === 0) return [];
  let sdk: SdkMcp;
  try {
    sdk = await (options.loadSdk ?? (() => import(import.meta.resolve('@openai/agents')) as Promise<SdkMcp>))();
  } catch (error) {
    return clients.map((c) => ({ server: c.name, problem: `@openai/agents did not load (${(error as Error).message.split('\n')[0]})` }));
  }
  const out: DiscoveryOutcome[] = [];
  for (const client of clients) out.push(await ask(sdk, client, cwd, options.timeoutMs ?? DISCOVERY_TIMEOUT_MS));
  return out;
}
