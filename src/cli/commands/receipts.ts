import { UserError } from '../../diagnostics.js';
import { GENESIS_HASH } from '../../runtime/receipts-hash.js';
import { verifyReceipts, type ReceiptBreak } from '../../runtime/receipts.js';
import type { Store } from '../../runtime/types.js';
import type { CommandSpec } from '../context.js';
import { storeOption, withStore } from '../store-url.js';
import { formatTable, isoTime } from '../table.js';
import { safePrinter, terminalJson } from '../terminal-text.js';

interface StoreArgs {
  store?: string;
}

const list: CommandSpec<StoreArgs & { last?: number; json: boolean }> = {
  command: 'list',
  describe: 'List receipts in order (every decision and outcome)',
  builder: (y) =>
    y
      .option('last', { type: 'number', requiresArg: true, describe: 'Only the last N' })
      .option('json', { type: 'boolean', default: false, describe: 'Print JSON (one array)' }),
  examples: [
    ['ctrlrun-gen receipts list --last 20', 'The latest decisions'],
    ['ctrlrun-gen receipts list --json > receipts.json', 'Export every receipt'],
  ],
  run: async (args, ctx) => {
    if (args.last !== undefined && (!Number.isInteger(args.last) || args.last < 1)) throw new UserError(`--last: expected a positive integer, got ${args.last}`);
    return withStore(args, ctx, async (store, label) => {
      const all = await store.listReceipts();
      const receipts = args.last === undefined ? all : all.slice(-args.last);
      if (args.json) {
        ctx.stdout(`${terminalJson(receipts)}\n`);
        return 0;
      }
      if (receipts.length === 0) {
        ctx.stdout(`No receipts in ${label}.\n`);
        return 0;
      }
      const p = safePrinter();
      ctx.stdout(
        formatTable(
          ['SEQ', 'AT', 'ACTION', 'DECISION', 'RESULT', 'REASON', 'PRINCIPAL', 'APPROVERS', 'EFFECT'],
          receipts.map((r) => [
            p.show(String(r.seq)),
            isoTime(r.at),
            p.show(r.action),
            p.show(r.decision ?? '-'),
            p.show(r.result),
            p.show(r.reason),
            p.show(r.principal ?? '-'),
            r.approvers.map(p.show).join(',') || '-',
            p.show(r.effect_key ?? '-'),
          ]),
        ) + p.note(),
      );
      return 0;
    });
  },
};

async function verify(store: Store): Promise<{ count: number; head: string; broken: { seq: number; kind: ReceiptBreak } | null }> {
  const result = await verifyReceipts(store);
  if (!result.ok) return { count: 0, head: GENESIS_HASH, broken: { seq: result.seq, kind: result.break } };
  const last = result.count === 0 ? [] : await store.listReceipts({ afterSeq: result.count - 1 });
  return { count: result.count, head: last[0]?.hash ?? GENESIS_HASH, broken: null };
}

const KIND_TEXT: Record<ReceiptBreak, string> = {
  content_altered: 'its content was altered (the hash does not match)',
  link_broken: "its prev_hash is not the previous receipt's hash",
  missing: 'it is missing',
};

const verifyCommand: CommandSpec<StoreArgs & { json: boolean }> = {
  command: 'verify',
  describe: 'Check the receipt chain; exit 1 naming the first break',
  builder: (y) => y.option('json', { type: 'boolean', default: false, describe: 'Print the result as JSON' }),
  examples: [['ctrlrun-gen receipts verify', 'Exit 0 when the evidence chain is intact, 1 at the first break']],
  run: async (args, ctx) =>
    withStore(args, ctx, async (store, label) => {
      const { count, head, broken } = await verify(store);
      if (args.json) ctx.stdout(`${JSON.stringify(broken ? { ok: false, seq: broken.seq, break: broken.kind } : { ok: true, count, head })}\n`);
      else if (broken) ctx.stdout(`Receipt chain broken at seq ${broken.seq}: ${broken.kind} (${KIND_TEXT[broken.kind]}). ${label}\n`);
      else ctx.stdout(`${count} receipt${count === 1 ? '' : 's'}, chain intact (head ${head.slice(0, 16)}…). ${label}\n`);
      return broken ? 1 : 0;
    }),
};

export const receiptsCommand: CommandSpec<StoreArgs> = {
  command: 'receipts',
  describe: 'List receipts; verify the evidence chain',
  builder: (y) => y.option('store', storeOption),
  subcommands: [list, verifyCommand],
  examples: [
    ['ctrlrun-gen receipts verify', 'Check the chain'],
    ['ctrlrun-gen receipts list --last 10 --json', 'The last ten, as JSON'],
  ],
  run: async () => 2, // never called: a subcommand is required
};
