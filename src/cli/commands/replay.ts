import path from 'node:path';
import { UserError } from '../../diagnostics.js';
import type { Policy } from '../../policy/types.js';
import { loadPolicyOrThrow, readTextFile } from '../../policy/load.js';
import { parseCallsFile } from '../../policy-test/calls-file.js';
import { createDecider } from '../../policy-test/decider.js';
import type { ReportFormat } from '../../policy-test/diff-report.js';
import { failCode, type FailOn } from '../../policy-test/oversight.js';
import { attachAnswers } from '../../policy-test/answers.js';
import { replayCalls, type ReplayResult } from '../../policy-test/replay.js';
import { formatReplay } from '../../policy-test/replay-report.js';
import { replayStoreCalls } from '../../policy-test/store-calls.js';
import type { RecordedCall } from '../../policy-test/calls-file.js';
import type { CommandSpec } from '../context.js';
import { displayPath } from '../../format-diagnostics.js';
import { loadPolicyInput } from '../../manifest/policy-input.js';
import { repoRoot, STORE_ENV, withStore } from '../store-url.js';
import { findManifest } from '../../manifest/find.js';

interface ReplayArgs {
  policy: string;
  calls?: string;
  store?: string;
  manifest?: string;
  base?: string;
  since?: string;
  action?: string;
  format: ReportFormat;
  failOn: FailOn;
  all: boolean;
}

/** Recorded call files above this size are refused (a decision log export of a busy week fits). */
const MAX_CALLS_BYTES = 512 * 1024 * 1024;

export const replayCommand: CommandSpec<ReplayArgs> = {
  command: 'replay',
  describe: 'Re-decide recorded calls under a candidate policy and summarize what changes',
  builder: (y) =>
    y
      .option('policy', { type: 'string', demandOption: true, describe: 'The candidate policy' })
      .option('calls', { type: 'string', describe: 'Recorded calls, one JSON object a line (a decision log or trace export)' })
      .option('store', {
        type: 'string',
        describe: `The store whose decision log is replayed: sqlite:PATH or postgres://… (default: $${STORE_ENV}, else .ctrlrun/state.db at the repo root)`,
      })
      .option('manifest', { type: 'string', describe: 'The project whose policy is the baseline for calls recorded without a decision' })
      .option('base', { type: 'string', describe: 'The baseline policy for calls recorded without a decision (default: the working policy)' })
      .option('since', { type: 'string', describe: 'Only calls decided at or after this ISO 8601 time' })
      .option('action', { type: 'string', describe: 'Only calls to this action' })
      .option('format', { choices: ['text', 'json', 'markdown'], default: 'text', describe: 'Report format (markdown: for a pull-request comment)' })
      .option('all', { type: 'boolean', default: false, describe: 'List every changed call, not one example per group' })
      .option('fail-on', {
        choices: ['looser', 'any', 'never'],
        default: 'looser',
        describe: 'Exit 1 when a call would get less oversight (looser), on any change, or never',
      }),
  examples: [
    ['ctrlrun-gen replay --policy new.yaml', "The project store's decision log re-decided under new.yaml"],
    ['ctrlrun-gen replay --policy new.yaml --store postgres://ci@db/app --since 2026-11-01T00:00:00Z', 'Another store, recent calls only'],
    ['ctrlrun-gen replay --policy new.yaml --calls calls.jsonl', 'Calls recorded elsewhere (a trace export), one JSON object a line'],
    ['ctrlrun-gen replay --policy new.yaml --calls calls.jsonl --action stripe.refund --since 2026-11-01T00:00:00Z', 'Only recent refunds'],
    ['ctrlrun-gen replay --policy new.yaml --calls calls.jsonl --format markdown', 'A pull-request comment'],
    ['ctrlrun-gen replay --policy new.yaml --calls calls.jsonl --all', 'Every call whose decision changes, each on its line'],
  ],
  run: async (args, ctx) => {
    const since = args.since === undefined ? null : Date.parse(args.since);
    if (since !== null && Number.isNaN(since)) throw new UserError(`--since is not an ISO 8601 time: ${args.since}\nhint: --since 2026-11-01T00:00:00Z`);
    if (args.calls !== undefined && args.store !== undefined) throw new UserError('replay reads --calls or --store, not both\nhint: drop one of them');
    const candidate = loadPolicyOrThrow(path.resolve(ctx.cwd, args.policy)).policy;
    const project = candidateProject(args, ctx.cwd, candidate.file);
    const replay = (calls: RecordedCall[]): ReplayResult => {
      // a call recorded without its decision is compared with the working (or --base) policy's
      const needsBaseline = calls.some((c) => c.recorded === null);
      const baseline = needsBaseline
        ? createDecider(
            args.base !== undefined
              ? loadPolicyOrThrow(path.resolve(ctx.cwd, args.base)).policy
              : loadPolicyInput({ cwd: project, manifest: args.manifest === undefined ? undefined : path.resolve(ctx.cwd, args.manifest) }).policy,
          )
        : null;
      return replayCalls(calls, createDecider(candidate), baseline, { all: args.all });
    };
    const { result, label } =
      args.calls !== undefined ? fileReplay(args.calls, ctx.cwd, since, args.action, replay) : await storeReplay(args, ctx, since, candidate, project);
    ctx.stdout(
      formatReplay(result, args.format, { candidate: displayPath(candidate.file, ctx.cwd), calls: label, unit: args.calls !== undefined ? 'line' : 'entry' }),
    );
    return failCode(args.failOn, { any: result.summary.changed > 0, looser: result.summary.looser > 0 });
  },
};

/** The calls of a JSON Lines file, filtered, replayed. */
function fileReplay(
  calls: string,
  cwd: string,
  since: number | null,
  action: string | undefined,
  replay: (calls: RecordedCall[]) => ReplayResult,
): { result: ReplayResult; label: string } {
  const file = path.resolve(cwd, calls);
  const read = readTextFile(file, 'calls', MAX_CALLS_BYTES);
  if ('diagnostic' in read)
    throw new UserError(read.diagnostic.message, [{ ...read.diagnostic, hint: 'point --calls at a JSON Lines file of recorded calls' }]);
  const parsed = parseCallsFile(read.text, file);
  if (parsed.diagnostics.length > 0)
    throw new UserError(
      `the calls file has ${parsed.diagnostics.length} bad line${parsed.diagnostics.length === 1 ? '' : 's'}`,
      parsed.diagnostics.slice(0, 20),
    );
  return {
    result: replay(parsed.calls.filter((c) => (action === undefined || c.action === action) && (since === null || (c.at !== null && c.at >= since)))),
    label: displayPath(file, cwd),
  };
}

/** The calls of the store's decision log (the store filters by --since and --action), replayed page by page as read; the examples that paused get their answers. */
async function storeReplay(
  args: ReplayArgs,
  ctx: Parameters<CommandSpec<ReplayArgs>['run']>[1],
  since: number | null,
  candidate: Policy,
  project: string,
): Promise<{ result: ReplayResult; label: string }> {
  const root = args.store === undefined ? { root: repoRoot(project) } : {};
  return withStore(
    args,
    ctx,
    async (store, label) => {
      // every entry records its decision: the baseline is the log's, so no baseline policy is loaded
      const filter = { ...(since !== null ? { since } : {}), ...(args.action !== undefined ? { action: args.action } : {}) };
      const result = await replayStoreCalls(store, createDecider(candidate), filter, undefined, { all: args.all });
      if (result === null) throw new UserError(`${label}: this store keeps no decision log.\nhint: export the calls one JSON object a line and pass --calls`);
      await attachAnswers(
        store,
        result.changes.map((g) => g.example.call),
      );
      return { result, label: `${label} (decision log)` };
    },
    root,
  );
}

/**
 * Where replay finds the project (the baseline policy, the default store): the one holding the
 * candidate (`apps/web/ctrlrun.next.yaml` at a workspace root, or a nested package's), when that
 * project is within cwd's tree; else cwd's, as ever (a candidate in /tmp, `--manifest` given).
 */
function candidateProject(args: ReplayArgs, cwd: string, candidateFile: string): string {
  if (args.manifest !== undefined) return cwd;
  const holder = findManifest(path.dirname(candidateFile));
  if (holder === undefined) return cwd;
  const rel = path.relative(path.resolve(cwd), path.dirname(holder));
  const within = !rel.startsWith('..') && !path.isAbsolute(rel);
  return within || holder === findManifest(cwd) ? path.dirname(holder) : cwd;
}
