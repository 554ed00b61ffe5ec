import { UserError } from '../../diagnostics.js';
import { haltInputProblem, haltScope, liftHalt, setHalt, type HaltInput } from '../../runtime/halt-actions.js';
import type { Halt, HaltTarget, Store } from '../../runtime/types.js';
import type { CommandSpec } from '../context.js';
import { postToServer, refuseLocalActor, type ServerArgs, serverOptions, serverTarget, withStoreOrServer } from '../server-client.js';
import { operatorSigner, signingKeyOption } from '../signing-key.js';
import { storeOption } from '../store-url.js';
import { formatTable, isoTime } from '../table.js';
import { operatorName, operatorText, safePrinter, terminalJson } from '../../terminal-text.js';

type StoreArgs = ServerArgs;

function readHalts(store: Store, label: string): Promise<{ epoch: number; halts: Halt[] }> {
  if (typeof store.readHalts !== 'function') throw new UserError(`${label}: this store keeps no halts.`);
  return store.readHalts();
}

const list: CommandSpec<StoreArgs & { json: boolean }> = {
  command: 'list',
  describe: 'List the halts in force',
  builder: (y) => y.option('json', { type: 'boolean', default: false, describe: 'Print JSON (one array)' }),
  examples: [['ctrlrun-gen halts list', 'What is halted, by whom, since when']],
  run: async (args, ctx) =>
    withStoreOrServer(args, ctx, async (store, label) => {
      const { halts } = await readHalts(store, label);
      if (args.json) {
        ctx.stdout(`${terminalJson(halts)}\n`);
        return 0;
      }
      if (halts.length === 0) {
        ctx.stdout(`No halts in force in ${label}.\n`);
        return 0;
      }
      const p = safePrinter();
      ctx.stdout(
        formatTable(
          ['ID', 'HALTS', 'KIND', 'BY', 'SINCE', 'REASON'],
          halts.map((h) => [
            p.show(h.id),
            h.target === 'all' ? 'every call' : `${h.target} ${p.show(h.value ?? '')}`,
            h.hard ? 'hard (ends the run)' : 'soft (the model is told)',
            p.show(h.by),
            isoTime(h.at),
            p.show(h.reason),
          ]),
        ) + p.note(),
      );
      return 0;
    }),
};

type SetArgs = StoreArgs & {
  all?: boolean;
  run?: string;
  principal?: string;
  action?: string;
  reason?: string;
  hard: boolean;
  as?: string;
  signingKey?: string;
};

/** The one target the flags name. */
function targetOf(args: SetArgs): { target: HaltTarget; value: string | null } {
  const named = [
    args.all ? { target: 'all' as const, value: null } : undefined,
    args.run !== undefined ? { target: 'run' as const, value: operatorText(args.run, '--run')! } : undefined,
    args.principal !== undefined ? { target: 'principal' as const, value: operatorText(args.principal, '--principal')! } : undefined,
    args.action !== undefined ? { target: 'action' as const, value: operatorText(args.action, '--action')! } : undefined,
  ].filter((x) => x !== undefined);
  if (named.length !== 1)
    throw new UserError('halts set: name exactly one of --all, --run ID, --principal NAME or --action ID.\nhint: e.g. --action stripe.refund');
  return named[0]!;
}

const set: CommandSpec<SetArgs> = {
  command: 'set',
  describe: 'Halt every call, one run, one principal or one action, from the next call on (in every process sharing the store)',
  builder: (y) =>
    y
      .option('all', { type: 'boolean', describe: 'Every call' })
      .option('run', { type: 'string', requiresArg: true, describe: "One run, as the app's control names it (createControl({ run }))" })
      .option('principal', { type: 'string', requiresArg: true, describe: 'Every call made for this principal' })
      .option('action', { type: 'string', requiresArg: true, describe: 'Every call of this action' })
      .option('reason', { type: 'string', requiresArg: true, describe: 'Why (required; the model reads it in the refusal)' })
      .option('hard', {
        type: 'boolean',
        default: false,
        describe: "End the run of a halted call instead of telling the model (the run's error is ActionDenied, reason halted)",
      })
      .option('as', { type: 'string', requiresArg: true, describe: 'Who halts (recorded); not with --server, where the token says who' })
      .option('signing-key', signingKeyOption),
  examples: [
    ['ctrlrun-gen halts set --action stripe.refund --reason "incident 42" --as carol', 'No refund runs until lifted; the model is told'],
    ['ctrlrun-gen halts set --all --hard --reason "kill switch" --as carol', 'Every call refused and its run ended'],
    [
      'CTRLRUN_TOKEN=crg_op_… ctrlrun-gen halts set --principal mallory --reason "compromised" --server http://127.0.0.1:8787',
      "Through serve, as the token's operator",
    ],
  ],
  run: async (args, ctx) => {
    const { target, value } = targetOf(args);
    const reason = operatorText(args.reason, '--reason');
    if (!reason) throw new UserError('--reason: say why (the model reads it, the receipt keeps it), e.g. --reason "incident 42"');
    const server = serverTarget(args, ctx);
    if (server) {
      refuseLocalActor(args, 'the halt');
      const done = await postToServer<{ message: string }>(server, '/api/halts', { target, ...(value === null ? {} : { value }), reason, hard: args.hard });
      ctx.stdout(`${done.message}\n`);
      return 0;
    }
    if (args.as === undefined)
      throw new UserError('--as: name who halts (it is recorded), e.g. --as carol; or halt through serve with --server URL --token TOKEN');
    const input: HaltInput = { target, value, reason, hard: args.hard, by: operatorName(args.as, '--as') };
    const problem = haltInputProblem(input);
    if (problem) throw new UserError(`halts set: ${problem}.`);
    const signer = operatorSigner(args.signingKey, ctx); // before the store is touched
    return withStoreOrServer(args, ctx, async (store, label) => {
      await readHalts(store, label);
      const halt = await setHalt(store, input, Date.now(), signer);
      ctx.stdout(
        `Halted ${safePrinter().show(haltScope(halt))} as ${input.by}: ${halt.id}. In force from the next call; lift it with \`ctrlrun-gen halts lift ${halt.id}\`.\n`,
      );
      return 0;
    });
  },
};

const lift: CommandSpec<StoreArgs & { id: string; reason?: string; as?: string; signingKey?: string }> = {
  command: 'lift <id>',
  describe: 'Lift a halt (recorded like the halt itself)',
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'The halt id (from `halts list`)' })
      .option('reason', { type: 'string', requiresArg: true, describe: 'Why (recorded)' })
      .option('as', { type: 'string', requiresArg: true, describe: 'Who lifts (recorded); not with --server' })
      .option('signing-key', signingKeyOption),
  examples: [['ctrlrun-gen halts lift halt_3f2a… --as carol --reason "fixed"', 'Calls run again from the next one']],
  run: async (args, ctx) => {
    const reason = operatorText(args.reason, '--reason');
    const server = serverTarget(args, ctx);
    if (server) {
      refuseLocalActor(args, 'the lift');
      const done = await postToServer<{ message: string }>(server, `/api/halts/${encodeURIComponent(args.id)}/lift`, reason ? { reason } : {});
      ctx.stdout(`${done.message}\n`);
      return 0;
    }
    if (args.as === undefined) throw new UserError('--as: name who lifts the halt (it is recorded), e.g. --as carol');
    const by = operatorName(args.as, '--as');
    const signer = operatorSigner(args.signingKey, ctx);
    return withStoreOrServer(args, ctx, async (store, label) => {
      await readHalts(store, label);
      const lifted = await liftHalt(store, args.id, by, Date.now(), signer, reason || undefined);
      if (!lifted) throw new UserError(`${args.id}: no halt with this id is in force in ${label}.\nhint: see \`ctrlrun-gen halts list\``);
      ctx.stdout(`Lifted the halt of ${safePrinter().show(haltScope(lifted))} as ${by}. Calls run again from the next one.\n`);
      return 0;
    });
  },
};

export const haltsCommand: CommandSpec<StoreArgs> = {
  command: 'halts',
  describe: 'Halt calls (every one, a run, a principal, an action), list and lift halts',
  builder: (y) => y.option('store', storeOption).option('server', serverOptions.server).option('token', serverOptions.token),
  subcommands: [list, set, lift],
  examples: [
    ['ctrlrun-gen halts set --action stripe.refund --reason "incident 42" --as carol', 'Stop every refund from the next call on'],
    ['ctrlrun-gen halts list', 'What is halted'],
    ['ctrlrun-gen halts lift halt_3f2a… --as carol', 'Let calls run again'],
  ],
  run: async () => 2, // never called: a subcommand is required
};
