import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** The demo's MCP server: what it did, as it counts it itself. */
export interface SupportServer {
  url: string;
  /** Every issue_credit the server ran, in order. */
  credits: Array<{ account_id: string; amount: number }>;
  close(): Promise<void>;
}

/**
 * A real MCP server (`@modelcontextprotocol/sdk`) named `support`, over streamable HTTP on
 * 127.0.0.1 (a free port): its one tool, `issue_credit`, credits a customer account. Stateless:
 * one transport per request, so any process may call it.
 */
export async function startSupportServer(): Promise<SupportServer> {
  const credits: SupportServer['credits'] = [];
  const make = () => {
    const mcp = new McpServer({ name: 'support', version: '1.0.0' });
    mcp.registerTool(
      'issue_credit',
      {
        description: "Credit a customer's account, in cents",
        inputSchema: { account_id: z.string(), amount: z.number().int() },
      },
      async ({ account_id, amount }) => {
        credits.push({ account_id, amount });
        return { content: [{ type: 'text', text: `Credited ${amount} cents to ${account_id}.` }] };
      },
    );
    return mcp;
  };
  const served = await serveStatelessMcp(make);
  return { ...served, credits };
}

/**
 * Serves the MCP server `make` builds over streamable HTTP on 127.0.0.1 (a free port), stateless:
 * a new server and transport per request, so any process may call it. Returns its URL and `close`.
 */
export async function serveStatelessMcp(make: () => McpServer): Promise<{ url: string; close: () => Promise<void> }> {
  const http: Server = createServer(async (req, res) => {
    const mcp = make();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
