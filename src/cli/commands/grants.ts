import { UserError } from '../../diagnostics.js';
import { listGrantsOf, revokeGrantAs } from '../../operator-actions.js';
import type { ApprovalGrant } from '../../runtime/types.js';
import { operatorName, safePrinter, terminalJson } from '../../terminal-text.js';
import type { CommandSpec } from '../context.js';
import { getFromServer, postToServer, refuseLocalActor, type ServerArgs, serverOptions, serverTarget, withStoreOrServer } from '../server-client.js';
import { operatorSigner, signingKeyOption } from '../signing-key.js';
import { storeOption, withStore } from '../store-url.js';
import { formatTable, isoTime } from '../table.js';

/**
 * `grants list|revoke`: the approval grants approvers gave while answering ("the same for this
 * principal for N hours"), not the policy's `authority:` grants. Direct store access (`--as`) or
 * through serve (the token's operator, serve's clock).
 */
const list: CommandSpec<ServerArgs & { active: boolean; json: boolean }> = {
  command: 'list',
  describe: 'List approval grants (newest first)',
  builder: (y) =>
    y
      .option('active', { type: 'boolean', default: false, describe: 'Only grants neither revoked nor expired now' })
      .option('json', { type: 'boolean', default: false, describe: 'Print JSON (one array)' }),
  examples: [
    ['ctrlrun-gen grants list --active', 'What runs without a pause right now'],
    ['ctrlrun-gen grants list --json --server http://127.0.0.1:8787', 'Every grant, through serve'],
  ],
  run: async (args, ctx) => {
    const target = serverTarget(args, ctx);
    const grants = target
      ? await getFromServer<ApprovalGrant[]>(target, `/api/grants${args.active ? '?active=1' : ''}`)
      : await withStore(args, ctx, (store) => listGrantsOf(store, args.active ? { activeAt: Date.now() } : {}));
    if (args.json) {
      ctx.stdout(`${terminalJson(grants)}\n`);
      return 0;
    }
    if (grants.length === 0) {
      ctx.stdout(`No ${args.active ? 'active ' : ''}approval grants.\n`);
      return 0;
    }
    const p = safePrinter();
    const now = Date.now();
    ctx.stdout(
      formatTable(
        ['ID', 'STATE', 'ACTION', 'FOR', 'RULE', 'BOUNDS', 'GRANTED BY', 'UNTIL'],
        grants.map((g) => [
          p.show(g.id),
          stateOf(g, now),
          p.show(g.action),
          p.show(g.principal),
          p.show(g.rule),
          p.show(g.bounds),
          p.show(g.grantedBy),
          isoTime(g.expiresAt),
        ]),
      ) + p.note(),
    );
    return 0;
  },
};

const revoke: CommandSpec<ServerArgs & { id: string; as?: string; signingKey?: string }> = {
  command: 'revoke <id>',
  describe: 'Revoke an approval grant as NAME: the next call it would have covered pauses',
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'The grant id (from `grants list`)' })
      .option('as', { type: 'string', requiresArg: true, describe: 'Who revokes (recorded); not with --server, where the token says who' })
      .option('signing-key', signingKeyOption),
  examples: [['ctrlrun-gen grants revoke grant_3f2a… --as carol', 'Revoke a grant as carol']],
  run: async (args, ctx) => {
    const target = serverTarget(args, ctx);
    if (target) {
      refuseLocalActor(args, 'the revocation');
      const done = await postToServer<{ message: string }>(target, `/api/grants/${encodeURIComponent(args.id)}/revoke`, {});
      ctx.stdout(`${done.message}\n`);
      return 0;
    }
    if (args.as === undefined)
      throw new UserError('--as: name who revokes (it is recorded), e.g. --as carol; or revoke through serve with --server URL --token TOKEN');
    const by = operatorName(args.as, '--as');
    const signer = operatorSigner(args.signingKey, ctx);
    return withStoreOrServer(args, ctx, async (store, label) => {
      const result = await revokeGrantAs(store, args.id, by, Date.now(), signer);
      const p = safePrinter();
      if (result.outcome === 'unknown')
        throw new UserError(`${p.show(args.id)}: no approval grant with this id in ${label}.\nhint: see \`ctrlrun-gen grants list\``);
      if (result.outcome === 'not_active')
        throw new UserError(`${p.show(args.id)}: already revoked (by ${p.show(result.grant.revokedBy ?? '?')}); nothing changed.`);
      ctx.stdout(`Revoked ${p.show(result.grant.id)} as ${by}: the next call it would have covered pauses.\n`);
      return 0;
    });
  },
};

function stateOf(g: ApprovalGrant, now: number): string {
  if (g.revokedAt !== undefined) return 'revoked';
  return g.expiresAt < now ? 'expired' : 'active';
}

export const grantsCommand: CommandSpec<ServerArgs> = {
  command: 'grants',
  describe: 'List or revoke the approval grants approvers gave ("the same for N hours")',
  builder: (y) => y.option('store', storeOption).option('server', serverOptions.server).option('token', serverOptions.token),
  subcommands: [list, revoke],
  examples: [
    ['ctrlrun-gen grants list --active', 'What runs without a pause right now'],
    ['ctrlrun-gen grants revoke grant_3f2a… --as carol', 'Revoke one'],
  ],
  run: async () => 2, // never called: a subcommand is required
};
