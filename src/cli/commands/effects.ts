import { UserError } from '../../diagnostics.js';
import type { EffectState } from '../../runtime/types.js';
import type { CommandSpec } from '../context.js';
import { resolveEffectKey } from '../../operator-actions.js';
import { postToServer, refuseLocalActor, type ServerArgs, serverOptions, serverTarget, withStoreOrServer } from '../server-client.js';
import { operatorSigner, signingKeyOption } from '../signing-key.js';
import { storeOption } from '../store-url.js';
import { formatTable, isoTime } from '../table.js';
import { operatorName, safePrinter, terminalJson } from '../../terminal-text.js';

type StoreArgs = ServerArgs;

const STATES: EffectState[] = ['in_flight', 'committed', 'failed', 'ambiguous'];

const list: CommandSpec<StoreArgs & { state?: EffectState; json: boolean }> = {
  command: 'list',
  describe: 'List effect keys and their state',
  builder: (y) =>
    y
      .option('state', { choices: STATES, describe: 'Only keys in this state' })
      .option('json', { type: 'boolean', default: false, describe: 'Print JSON (one array)' }),
  examples: [['ctrlrun-gen effects list --state ambiguous', 'Keys nobody knows the outcome of: resolve each one']],
  run: async (args, ctx) =>
    withStoreOrServer(args, ctx, async (store, label) => {
      const now = Date.now();
      const effects = await store.listEffects(args.state ? { state: args.state } : {});
      if (args.json) {
        ctx.stdout(`${terminalJson(effects)}\n`);
        return 0;
      }
      if (effects.length === 0) {
        ctx.stdout(`No ${args.state ? `${args.state} ` : ''}effect keys in ${label}.\n`);
        return 0;
      }
      const p = safePrinter();
      ctx.stdout(
        formatTable(
          ['KEY', 'STATE', 'ACTION', 'ATTEMPTS', 'UPDATED', 'NOTE'],
          effects.map((e) => [
            p.show(e.key),
            p.show(e.state),
            p.show(e.action),
            String(e.attempts),
            isoTime(e.updatedAt),
            e.state === 'in_flight' && now >= e.leaseUntil
              ? 'lease over: outcome unknown, resolve it'
              : e.state === 'in_flight'
                ? `leased until ${isoTime(e.leaseUntil)}`
                : e.state === 'ambiguous'
                  ? 'outcome unknown: resolve it'
                  : e.resolvedBy
                    ? `resolved by ${p.show(e.resolvedBy)}`
                    : '',
          ]),
        ) + p.note(),
      );
      return 0;
    }),
};

const resolve: CommandSpec<StoreArgs & { key: string; committed?: boolean; failed?: boolean; as?: string; signingKey?: string }> = {
  command: 'resolve <key>',
  describe: 'Say what happened to an ambiguous key: --committed (it took effect) or --failed (it did not; may be retried)',
  builder: (y) =>
    y
      .positional('key', { type: 'string', describe: 'The effect key (from `effects list`)' })
      .option('committed', { type: 'boolean', describe: 'It took effect: later calls get DuplicateEffect' })
      .option('failed', { type: 'boolean', describe: 'It did not take effect: the call may be tried again' })
      .option('as', { type: 'string', requiresArg: true, describe: 'Who resolves (recorded); not with --server, where the token says who' })
      .option('signing-key', signingKeyOption)
      .conflicts('committed', 'failed'),
  examples: [
    ['ctrlrun-gen effects resolve refund:pi_123 --committed --as carol', 'The refund did land (checked in the payment dashboard)'],
    ['ctrlrun-gen effects resolve refund:pi_123 --failed --as carol', 'It did not: allow another attempt'],
  ],
  run: async (args, ctx) => {
    if (Boolean(args.committed) === Boolean(args.failed))
      throw new UserError('effects resolve: give exactly one of --committed or --failed.\nhint: check the remote system first; --committed if it happened');
    const state = args.committed ? 'committed' : 'failed';
    const target = serverTarget(args, ctx);
    if (target) {
      refuseLocalActor(args, 'the resolution');
      const done = await postToServer<{ message: string }>(target, '/api/effects/resolve', { key: args.key, state });
      ctx.stdout(`${done.message}\n`);
      return 0;
    }
    if (args.as === undefined)
      throw new UserError('--as: name who resolves (it is recorded), e.g. --as carol; or resolve through serve with --server URL --token TOKEN');
    const by = operatorName(args.as, '--as');
    const signer = operatorSigner(args.signingKey, ctx); // before the store is touched
    return withStoreOrServer(args, ctx, async (store, label) => {
      const result = await resolveEffectKey(store, args.key, state, by, Date.now(), signer);
      if (result.outcome === 'unknown') throw new UserError(`${args.key}: no effect key with this name in ${label}.\nhint: see \`ctrlrun-gen effects list\``);
      if (result.outcome === 'not_ambiguous') {
        const e = result.effect;
        const why =
          e.state === 'in_flight'
            ? `still in flight (leased until ${isoTime(e.leaseUntil)})`
            : `already ${e.state}${e.resolvedBy ? ` (resolved by ${e.resolvedBy})` : ''}`;
        throw new UserError(`${args.key}: ${why}; only an ambiguous key can be resolved. Nothing changed.`);
      }
      ctx.stdout(`Resolved ${args.key} as ${state} (by ${by}).${state === 'failed' ? ' The call may be tried again.' : ''}\n`);
      return 0;
    });
  },
};

export const effectsCommand: CommandSpec<StoreArgs> = {
  command: 'effects',
  describe: 'List effect keys; resolve the ambiguous ones',
  builder: (y) => y.option('store', storeOption).option('server', serverOptions.server).option('token', serverOptions.token),
  subcommands: [list, resolve],
  examples: [
    ['ctrlrun-gen effects list --state ambiguous', 'What needs a human to check'],
    ['ctrlrun-gen effects resolve refund:pi_123 --committed --as carol', 'It happened'],
  ],
  run: async () => 2, // never called: a subcommand is required
};
