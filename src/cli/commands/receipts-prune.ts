import { UserError } from '../../diagnostics.js';
import { canPrune, DAY_MS, PruneUnsupported, pruneLog } from '../../prune.js';
import { TENANT } from '../../runtime/tenant-names.js';
import { MAX_RETENTION_DAYS, retentionDays } from '../../serve/prune-api.js';
import type { CommandSpec } from '../context.js';
import { postToServer, refuseLocalActor, type ServerArgs, serverOptions, serverTarget } from '../server-client.js';
import { operatorSigner, signingKeyOption } from '../signing-key.js';
import { withStore } from '../store-url.js';
import { operatorName } from '../../terminal-text.js';

interface PruneArgs extends ServerArgs {
  olderThanDays: number;
  log: 'decisions' | 'receipts';
  tenant?: string;
  as?: string;
  signingKey?: string;
  json: boolean;
}

/**
 * `receipts prune`: an operator prunes the decision log (or the receipts) on their clock, and the
 * prune is recorded (a signed prune record names the range), so `receipts verify` and `receipts log
 * --verify` tell it from a deletion. Through serve (`--server`) serve's clock and the token's tenant
 * decide; on a store directly, the machine's clock and `--as`.
 */
export const receiptsPrune: CommandSpec<PruneArgs> = {
  command: 'prune',
  describe: "Prune the decision log's (or the receipts') entries older than N days, and record the prune (an operator's act)",
  builder: (y) =>
    y
      .option('older-than-days', {
        type: 'number',
        demandOption: true,
        requiresArg: true,
        describe: `Prune what was decided more than this many days ago (0 to ${MAX_RETENTION_DAYS})`,
      })
      .option('log', { choices: ['decisions', 'receipts'] as const, default: 'decisions' as const, describe: 'Which log' })
      .option('tenant', {
        type: 'string',
        requiresArg: true,
        describe: "Only this tenant's decision log entries (erased, their hashes kept); default: the whole store's oldest",
      })
      .option('as', { type: 'string', requiresArg: true, describe: 'Who prunes (recorded); not with --server, where the token says who' })
      .option('signing-key', signingKeyOption)
      .option('json', { type: 'boolean', default: false, describe: 'Print the prune record as JSON' })
      .option('server', serverOptions.server)
      .option('token', serverOptions.token),
  examples: [
    ['ctrlrun-gen receipts prune --older-than-days 30 --as carol', "The decision log's entries older than 30 days (a signed record names them)"],
    ['ctrlrun-gen receipts prune --older-than-days 30 --tenant acme --server https://approvals.example.com', "Tenant acme's entries, on serve's clock"],
    ['ctrlrun-gen receipts prune --log receipts --older-than-days 400 --as carol', 'The oldest receipts'],
  ],
  run: async (args, ctx) => {
    const days = retentionDays(args.olderThanDays);
    if (days === undefined) throw new UserError(`--older-than-days: a number of days from 0 to ${MAX_RETENTION_DAYS}, got ${args.olderThanDays}.`);
    if (args.tenant !== undefined && !TENANT.test(args.tenant)) throw new UserError(`--tenant: ${JSON.stringify(args.tenant)} is not a tenant name.`);
    const target = serverTarget(args, ctx);
    if (target) {
      refuseLocalActor(args, 'the prune', 'the prune record');
      const done = await postToServer<Record<string, unknown>>(target, '/api/prune', {
        log: args.log,
        olderThanDays: days,
        ...(args.tenant !== undefined ? { tenant: args.tenant } : {}),
      });
      ctx.stdout(args.json ? `${JSON.stringify(done)}\n` : `${summary(done)}\n`);
      return 0;
    }
    if (args.as === undefined)
      throw new UserError('--as: name who prunes (it is recorded), e.g. --as carol; or prune through serve with --server URL --token TOKEN');
    const by = operatorName(args.as, '--as');
    const signer = operatorSigner(args.signingKey, ctx); // before the store is touched
    return withStore(args, ctx, async (store, label) => {
      if (!canPrune(store, args.log)) throw new UserError(`${label}: this store cannot prune its ${args.log}.`);
      const now = Date.now();
      let result: Awaited<ReturnType<typeof pruneLog>>;
      try {
        result = await pruneLog(store, {
          log: args.log,
          ...(args.tenant !== undefined ? { tenant: args.tenant } : {}),
          before: now - days * DAY_MS,
          by,
          now,
          ...(signer ? { signer } : {}),
        });
      } catch (error) {
        if (error instanceof PruneUnsupported) throw new UserError(`${args.log}: ${error.message}.`);
        throw error;
      }
      const done = result.outcome === 'nothing' ? { outcome: 'nothing' } : { outcome: 'pruned', record: result.record, receipt: result.receipt.seq };
      ctx.stdout(args.json ? `${JSON.stringify(done)}\n` : `${summary(done)} ${label}\n`);
      return 0;
    });
  },
};

function summary(done: Record<string, unknown>): string {
  if (done.outcome !== 'pruned') return 'Nothing to prune.';
  const r = done.record as { log: string; tenant: string | null; from: number; to: number; count: number };
  const what = r.log === 'receipts' ? 'receipts' : 'decision log entries';
  const scope = r.tenant === null ? '' : ` of tenant ${r.tenant} (erased; their hashes keep the chain)`;
  return `Pruned ${r.count} ${what}${scope}, seq ${r.from}-${r.to}; recorded at receipt ${String(done.receipt)}.`;
}
