import path from 'node:path';
import { UserError } from '../../diagnostics.js';
import { addOperator, OPERATORS_FILE, readOperators, removeOperator, type TokenKind, writeOperators } from '../../serve/operators.js';
import type { CliContext, CommandSpec } from '../context.js';
import { repoRoot } from '../store-url.js';
import { formatTable, isoTime } from '../table.js';

interface FileArgs {
  operators?: string;
}

/** `--operators FILE`, else `.ctrlrun/operators.json` at the repo root (beside the default store). */
export function operatorsFile(args: FileArgs, ctx: CliContext): string {
  return args.operators !== undefined ? path.resolve(ctx.cwd, args.operators) : path.join(repoRoot(ctx.cwd), OPERATORS_FILE);
}

export const operatorsOption = {
  type: 'string',
  global: true,
  describe: `The operators file (default: ${OPERATORS_FILE} at the repo root)`,
} as const;

const add: CommandSpec<FileArgs & { name: string; role?: string[]; runtime: boolean; tenant?: string }> = {
  command: 'add <name>',
  describe: 'Make a token for an operator (or, with --runtime, for an agent); it is shown once',
  builder: (y) =>
    y
      .positional('name', { type: 'string', describe: 'Who (their login or e-mail); recorded as the approver' })
      .option('role', {
        type: 'string',
        array: true,
        requiresArg: true,
        describe: "A role the operator holds (the policy's approver_role); repeat for several",
      })
      .option('runtime', {
        type: 'boolean',
        default: false,
        describe: 'A token for an agent using httpStore: it may request, claim, reserve and append receipts, never answer',
      })
      .option('tenant', {
        type: 'string',
        requiresArg: true,
        describe:
          "The tenant whose calls, approvals and effect keys the token may act on (others' stay out of reach); an operator with a tenant answers, resolves and prunes that tenant's only",
      }),
  examples: [
    ['ctrlrun-gen operators add bob@example.com --role payments-approver', 'Bob may approve refunds the policy gives to payments-approver'],
    ['ctrlrun-gen operators add web-agent --runtime', "A token for a browser agent's httpStore"],
    ['ctrlrun-gen operators add acme-agent --runtime --tenant acme', "A token that sees only tenant acme's calls and effect keys"],
    ['ctrlrun-gen operators add ann@acme.example --tenant acme --role payments-approver', "Ann answers (and prunes) tenant acme's calls only"],
  ],
  run: async (args, ctx) => {
    const kind: TokenKind = args.runtime ? 'runtime' : 'operator';
    if (kind === 'runtime' && (args.role ?? []).length > 0)
      throw new UserError('--role: a runtime token holds no roles (it never answers).\nhint: drop --role, or drop --runtime for an operator');
    const file = operatorsFile(args, ctx);
    const { data, token, entry } = addOperator(readOperators(file), {
      name: args.name,
      kind,
      roles: args.role ?? [],
      ...(args.tenant !== undefined ? { tenant: args.tenant } : {}),
      now: Date.now(),
    });
    writeOperators(file, data);
    const shown = path.relative(ctx.cwd, file) || file;
    ctx.stdout(
      `Added ${kind} ${entry.name}${entry.roles.length ? ` (roles: ${entry.roles.join(', ')})` : ''}${entry.tenant ? ` (tenant: ${entry.tenant})` : ''} to ${shown}.\n` +
        `Token (shown once, only its hash is kept):\n\n  ${token}\n\n` +
        (kind === 'operator'
          ? 'Sign in to `ctrlrun-gen serve` with it, or pass it to the CLI with --server URL --token TOKEN.\n'
          : 'Pass it to httpStore({ url, token }) in the agent.\n'),
    );
    return 0;
  },
};

const list: CommandSpec<FileArgs & { json: boolean }> = {
  command: 'list',
  describe: 'List operators and runtime tokens (never the tokens themselves)',
  builder: (y) => y.option('json', { type: 'boolean', default: false, describe: 'Print JSON (one array)' }),
  examples: [['ctrlrun-gen operators list', 'Who can answer through serve']],
  run: async (args, ctx) => {
    const { operators } = readOperators(operatorsFile(args, ctx));
    if (args.json) {
      ctx.stdout(
        `${JSON.stringify(
          operators.map(({ tokenHash: _hash, ...rest }) => rest),
          null,
          2,
        )}\n`,
      );
      return 0;
    }
    if (operators.length === 0) {
      ctx.stdout('No operators yet.\nhint: ctrlrun-gen operators add NAME --role ROLE\n');
      return 0;
    }
    ctx.stdout(
      formatTable(
        ['NAME', 'KIND', 'ROLES', 'TENANT', 'TOKEN', 'CREATED'],
        operators.map((o) => [
          o.name,
          o.kind,
          o.roles.join(',') || '-',
          o.tenant ?? '-',
          `${o.kind === 'operator' ? 'crg_op_' : 'crg_rt_'}${o.tokenId}…`,
          isoTime(o.createdAt),
        ]),
      ),
    );
    return 0;
  },
};

const remove: CommandSpec<FileArgs & { name: string }> = {
  command: 'remove <name>',
  describe: "Remove a name's tokens (a running serve stops accepting them at its next request)",
  builder: (y) => y.positional('name', { type: 'string', describe: 'Who' }),
  examples: [['ctrlrun-gen operators remove bob@example.com', 'Bob can no longer answer']],
  run: async (args, ctx) => {
    const file = operatorsFile(args, ctx);
    const { data, removed } = removeOperator(readOperators(file), args.name);
    if (removed.length === 0) throw new UserError(`${args.name}: no operator with this name.\nhint: see \`ctrlrun-gen operators list\``);
    writeOperators(file, data);
    ctx.stdout(`Removed ${removed.map((o) => `${o.kind} token of ${o.name}`).join(' and ')}.\n`);
    return 0;
  },
};

export const operatorsCommand: CommandSpec<FileArgs> = {
  command: 'operators',
  describe: 'Add, list or remove the people (and agents) who may use `serve`',
  builder: (y) => y.option('operators', operatorsOption),
  subcommands: [add, list, remove],
  examples: [
    ['ctrlrun-gen operators add bob@example.com --role payments-approver', 'A token for Bob'],
    ['ctrlrun-gen operators list', 'Who has a token'],
  ],
  run: async () => 2,
};
