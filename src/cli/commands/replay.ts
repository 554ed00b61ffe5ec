import path from 'node:path';
import { UserError } from '../../diagnostics.js';
import { loadPolicyOrThrow, readTextFile } from '../../policy/load.js';
import { parseCallsFile } from '../../policy-test/calls-file.js';
import { createDecider } from '../../policy-test/decider.js';
import type { ReportFormat } from '../../policy-test/diff-report.js';
import { failCode, type FailOn } from '../../policy-test/oversight.js';
import { replayCalls } from '../../policy-test/replay.js';
import { formatReplay } from '../../policy-test/replay-report.js';
import type { CommandSpec } from '../context.js';
import { displayPath } from '../format-diagnostics.js';
import { loadPolicyInput } from '../policy-input.js';

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
      .option('store', { type: 'string', describe: 'A store URL to read the decision log from (not in this version: use --calls)' })
      .option('manifest', { type: 'string', describe: 'The project whose policy is the baseline for calls recorded without a decision' })
      .option('base', { type: 'string', describe: 'The baseline policy for calls recorded without a decision (default: the working policy)' })
      .option('since', { type: 'string', describe: 'Only calls decided at or after this ISO 8601 time' })
      .option('action', { type: 'string', describe: 'Only calls to this action' })
      .option('format', { choices: ['text', 'json', 'markdown'], default: 'text', describe: 'Report format (markdown: for a pull-request comment)' })
      .option('fail-on', { choices: ['looser', 'any', 'never'], default: 'looser', describe: 'Exit 1 when a call would get less oversight (looser), on any change, or never' }),
  examples: [
    ['ctrlrun-gen replay --policy new.yaml --calls calls.jsonl', 'What the candidate would decide differently on the recorded calls'],
    ['ctrlrun-gen replay --policy new.yaml --calls calls.jsonl --action stripe.refund --since 2026-11-01T00:00:00Z', 'Only recent refunds'],
    ['ctrlrun-gen replay --policy new.yaml --calls calls.jsonl --format markdown', 'A pull-request comment'],
  ],
  run: async (args, ctx) => {
    if (args.calls === undefined) {
      throw new UserError(`replay needs --calls <file.jsonl>${args.store !== undefined ? ': reading the decision log from a store is not in this version' : ''}\nhint: export the recorded calls one JSON object a line ({"action": "...", "args": {...}, "decision": "allow"}) and pass --calls`);
    }
    const since = args.since === undefined ? null : Date.parse(args.since);
    if (since !== null && Number.isNaN(since)) throw new UserError(`--since is not an ISO 8601 time: ${args.since}\nhint: --since 2026-11-01T00:00:00Z`);
    const candidate = loadPolicyOrThrow(path.resolve(ctx.cwd, args.policy)).policy;
    const file = path.resolve(ctx.cwd, args.calls);
    const read = readTextFile(file, 'calls', MAX_CALLS_BYTES);
    if ('diagnostic' in read) throw new UserError(read.diagnostic.message, [{ ...read.diagnostic, hint: 'point --calls at a JSON Lines file of recorded calls' }]);
    const parsed = parseCallsFile(read.text, file);
    if (parsed.diagnostics.length > 0) throw new UserError(`the calls file has ${parsed.diagnostics.length} bad line${parsed.diagnostics.length === 1 ? '' : 's'}`, parsed.diagnostics.slice(0, 20));
    const calls = parsed.calls.filter((c) => (args.action === undefined || c.action === args.action) && (since === null || (c.at !== null && c.at >= since)));
    // a call recorded without its decision is compared with the working (or --base) policy's
    const needsBaseline = calls.some((c) => c.recorded === null);
    const baseline = needsBaseline ? createDecider(args.base !== undefined ? loadPolicyOrThrow(path.resolve(ctx.cwd, args.base)).policy : loadPolicyInput({ cwd: ctx.cwd, manifest: args.manifest }).policy) : null;
    const result = replayCalls(calls, createDecider(candidate), baseline);
    ctx.stdout(formatReplay(result, args.format, { candidate: displayPath(candidate.file, ctx.cwd), calls: displayPath(file, ctx.cwd) }));
    return failCode(args.failOn, { any: result.summary.changed > 0, looser: result.summary.looser > 0 });
  },
};
