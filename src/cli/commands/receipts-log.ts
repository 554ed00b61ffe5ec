import { UserError } from '../../diagnostics.js';
import { verifyDecisions, type DecisionBreak } from '../../runtime/decision-log.js';
import type { DecisionEntry, DecisionQuery, Store } from '../../runtime/types.js';
import type { CommandSpec } from '../context.js';
import { withStore } from '../store-url.js';
import { answersOf, answerText } from '../../policy-test/answers.js';
import { callLine, type RecordedCall } from '../../policy-test/calls-file.js';
import { storeCallPages } from '../../policy-test/store-calls.js';
import { briefHashes } from '../../policy-test/replay-report.js';
import { formatTable, isoTime } from '../table.js';
import { safePrinter, terminalJson } from '../../terminal-text.js';

interface LogArgs {
  store?: string;
  last?: number;
  action?: string;
  since?: string;
  json: boolean;
  calls: boolean;
  verify: boolean;
}

const BREAK_TEXT: Record<DecisionBreak, string> = {
  content_altered: 'its content was altered (the hash does not match)',
  link_broken: "its prev_hash is not the previous entry's hash",
  missing: 'it is missing (an entry was cut from the middle)',
  receipt_mismatch: 'the receipt it names (receipt_seq) does not have its hash, or records another call or decision',
  deleted: 'the oldest entries up to it are gone, and no prune record names them (deleted, not pruned)',
  pruned_unrecorded: "it is a pruned entry's tombstone that no prune record of its tenant names",
  truncated: "the newest entries are gone: the store's head row names a newer one",
};

async function entriesOf(store: Store, query: DecisionQuery): Promise<DecisionEntry[]> {
  const all: DecisionEntry[] = [];
  for (let afterSeq = 0; ; ) {
    const page = await store.listDecisions!({ ...query, afterSeq, limit: 10_000 });
    all.push(...page);
    if (page.length < 10_000) return all;
    afterSeq = page[page.length - 1]!.seq;
  }
}

/** `receipts log`: the decision log beside the receipts (each decided call's inputs), or its verification. */
export const receiptsLog: CommandSpec<LogArgs> = {
  command: 'log',
  describe: "List the decision log (each decided call's inputs, labelled arguments as their hash); --verify checks it",
  builder: (y) =>
    y
      .option('last', { type: 'number', requiresArg: true, describe: 'Only the last N' })
      .option('action', { type: 'string', requiresArg: true, describe: 'Only calls to this action' })
      .option('since', { type: 'string', requiresArg: true, describe: 'Only calls decided at or after this ISO 8601 time' })
      .option('json', { type: 'boolean', default: false, describe: 'Print JSON (one array of the entries as the store keeps them)' })
      .option('calls', {
        type: 'boolean',
        default: false,
        describe: 'Print each call (its first entry) as a JSON line in the format `replay --calls` reads: an export for CI (ctrlrun.calls.jsonl)',
      })
      .option('verify', {
        type: 'boolean',
        default: false,
        describe: "Check the log's hash chain and its binding to the receipts; exit 1 naming the first break",
      }),
  examples: [
    ['ctrlrun-gen receipts log --last 20', 'The latest decided calls with their arguments'],
    ['ctrlrun-gen receipts log --verify', 'Exit 0 when the log is intact and bound to the receipts, 1 at the first break'],
    ['ctrlrun-gen receipts log --calls --since 2026-11-01T00:00:00Z > ctrlrun.calls.jsonl', 'Export the calls the CI template replays against a policy change'],
  ],
  run: async (args, ctx) => {
    if (args.last !== undefined && (!Number.isInteger(args.last) || args.last < 1))
      throw new UserError(`--last: expected a positive integer, got ${args.last}`);
    const since = args.since === undefined ? undefined : Date.parse(args.since);
    if (since !== undefined && Number.isNaN(since)) throw new UserError(`--since is not an ISO 8601 time: ${args.since}\nhint: --since 2026-11-01T00:00:00Z`);
    if (args.calls && (args.json || args.verify))
      throw new UserError('--calls prints the calls as JSON lines: not with --json or --verify\nhint: drop one of them');
    return withStore(args, ctx, async (store, label) => {
      if (typeof store.listDecisions !== 'function') throw new UserError(`${label}: this store keeps no decision log.`);
      if (args.calls) {
        // each call once (its first entry, as replay --store reads it), in the format replay --calls reads
        const filter = { ...(since !== undefined ? { since } : {}), ...(args.action !== undefined ? { action: args.action } : {}) };
        const calls: RecordedCall[] = [];
        for await (const page of storeCallPages(store, filter)!) calls.push(...page);
        for (const call of args.last === undefined ? calls : calls.slice(-args.last)) ctx.stdout(`${callLine(call)}\n`);
        return 0;
      }
      if (args.verify) {
        const result = await verifyDecisions(store);
        if (args.json) ctx.stdout(`${JSON.stringify(result)}\n`);
        else if (result.ok) {
          const pruned = result.pruned
            ? `; ${result.pruned.entries} pruned by ${result.pruned.records} operator prune record${result.pruned.records === 1 ? '' : 's'}`
            : '';
          ctx.stdout(`${result.count} decision log entr${result.count === 1 ? 'y' : 'ies'}, chain intact and bound to the receipts${pruned}. ${label}\n`);
        } else ctx.stdout(`Decision log broken at seq ${result.seq}: ${result.break} (${BREAK_TEXT[result.break]}). ${label}\n`);
        return result.ok ? 0 : 1;
      }
      const all = await entriesOf(store, { ...(since !== undefined ? { since } : {}), ...(args.action !== undefined ? { action: args.action } : {}) });
      const entries = args.last === undefined ? all : all.slice(-args.last);
      // a paused call's answer is the operator's (receipts and request), shown beside its entry
      const answers = await answersOf(store, entries);
      if (args.json) {
        ctx.stdout(`${terminalJson(entries.map((e) => (answers.has(e.seq) ? { ...e, answer: answers.get(e.seq) } : e)))}\n`);
        return 0;
      }
      if (entries.length === 0) {
        ctx.stdout(`No decision log entries in ${label}.\n`);
        return 0;
      }
      const p = safePrinter();
      const who = (e: DecisionEntry) => (e.principal ? (e.principal.user ? `${e.principal.agent}/${e.principal.user}` : e.principal.agent) : '-');
      ctx.stdout(
        formatTable(
          ['SEQ', 'AT', 'ACTION', 'DECISION', 'REASON', 'PRINCIPAL', 'ARGUMENTS', 'HASHED', 'ANSWER', 'RECEIPT'],
          entries.map((e) => [
            p.show(String(e.seq)),
            isoTime(e.at),
            p.show(e.action),
            p.show(e.decision),
            p.show(e.reason),
            p.show(who(e)),
            p.show(briefHashes(e.args)),
            e.hashed.map(p.show).join(',') || '-',
            p.show(answerText(answers.get(e.seq))),
            p.show(String(e.receipt_seq)),
          ]),
        ) + p.note(),
      );
      return 0;
    });
  },
};
