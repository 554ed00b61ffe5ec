import { UserError } from '../../diagnostics.js';
import type { Policy } from '../../policy/types.js';
import { localBackend, serverBackend, type ConsoleBackend } from '../../serve/console-backend.js';
import { operatorConsole, serveConsole } from '../../serve/mcp-operator.js';
import type { CliContext, CommandSpec } from '../context.js';
import { withProjectOptions } from '../project-options.js';
import { SERVER_ENV, serverTarget, TOKEN_ENV } from '../server-client.js';
import { operatorSigner, signingKeyOption } from '../signing-key.js';
import { storeOption, withStore } from '../store-url.js';
import { loadServePolicy } from './serve.js';
import { operatorsFile, operatorsOption } from './operators.js';

interface ConsoleArgs {
  stdio: boolean;
  store?: string;
  server?: string;
  operators?: string;
  manifest?: string;
  policy?: string;
  signingKey?: string;
}

/**
 * `ctrlrun-gen mcp-operator --stdio`: the MCP operator console (serve/mcp-operator.ts) for the MCP
 * client that launches it. stdout carries MCP messages only; everything for people goes to stderr.
 * The operator is the token in `$CTRLRUN_TOKEN` (never a flag: a command line is visible to others).
 */
export const mcpOperatorCommand: CommandSpec<ConsoleArgs> = {
  command: 'mcp-operator',
  describe:
    'An MCP server of operator tools (list, show, approve, reject, respond, grants, halt, lift) for MCP clients, answering as the operator of $CTRLRUN_TOKEN',
  builder: (y) =>
    withProjectOptions(y)
      .option('stdio', { type: 'boolean', default: false, describe: 'Speak MCP on stdin/stdout to the client that launched it (the only transport)' })
      .option('store', storeOption)
      .option('server', {
        type: 'string',
        describe: `Act through \`ctrlrun-gen serve\` at this URL (default: $${SERVER_ENV}); serve records the token's operator`,
      })
      .option('operators', operatorsOption)
      .option('signing-key', { ...signingKeyOption, describe: `${signingKeyOption.describe} (direct store access only)` }),
  examples: [
    ['CTRLRUN_TOKEN=crg_op_… ctrlrun-gen mcp-operator --stdio', "Over the project's store, as the token's operator (an MCP client's config runs this)"],
    [
      'CTRLRUN_TOKEN=crg_op_… ctrlrun-gen mcp-operator --stdio --server https://approvals.example.com',
      'Through serve: serve authenticates the token and records its operator',
    ],
    ['ctrlrun-gen mcp-operator --stdio --store postgres://ops@db/app', 'No token: reads the requests and halts, refuses every write'],
  ],
  run: async (args, ctx) => {
    if (!args.stdio)
      throw new UserError(
        "mcp-operator: pass --stdio (the console speaks MCP on stdin and stdout, to the client that launches it).\nhint: put `ctrlrun-gen mcp-operator --stdio` in your MCP client's server config, with CTRLRUN_TOKEN in its env",
      );
    const token = ctx.env[TOKEN_ENV] || undefined;
    const server = serverTarget(
      { ...(args.server !== undefined ? { server: args.server } : {}), ...(args.store !== undefined ? { store: args.store } : {}) },
      ctx,
    );
    if (server) {
      if (args.signingKey !== undefined)
        throw new UserError('--signing-key: with --server, serve writes the receipts and signs them with its own key; drop it here.');
      return run(serverBackend({ url: server.url, token: server.token, policy: optionalPolicy(args, ctx) }), ctx);
    }
    const policy = loadServePolicy(args, ctx, 'mcp-operator', 'mcp-operator --stdio');
    const signer = operatorSigner(args.signingKey, ctx);
    const file = operatorsFile(args, ctx);
    return withStore(args, ctx, async (store, label) => {
      const backend = localBackend({ store, label, policy, operatorsFile: file, token, signer });
      if (token !== undefined && !(await backend.writer()).ok)
        throw new UserError(
          `$${TOKEN_ENV}: not an operator token of ${file}.\nhint: \`ctrlrun-gen operators add NAME\` makes one; \`operators list\` shows who has one`,
        );
      return run(backend, ctx);
    });
  },
};

/** The policy to explain requests with through serve: the project's when there is one (serve holds the one that decides). */
function optionalPolicy(args: ConsoleArgs, ctx: CliContext): Policy | undefined {
  try {
    return loadServePolicy(args, ctx, 'mcp-operator');
  } catch (error) {
    if (error instanceof UserError) return undefined;
    throw error;
  }
}

async function run(backend: ConsoleBackend, ctx: CliContext): Promise<number> {
  const writer = await backend.writer();
  const log = (line: string) => ctx.stderr(`${line}\n`);
  const operator = writer.ok ? writer.name : undefined;
  log(
    `ctrlrun-gen mcp-operator: stdio, over ${backend.where}; ${operator ? `writes are recorded as ${operator}` : 'no operator token: reads only, every write refused'}.`,
  );
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const transport = new StdioServerTransport(process.stdin, process.stdout);
  const server = operatorConsole(backend, operator, log);
  // the client went away: stdin ended, or stdout closed under us
  process.stdin.once('end', () => void transport.close());
  process.stdout.once('error', () => void transport.close());
  await serveConsole(server, transport);
  return 0;
}
