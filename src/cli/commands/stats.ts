import { UserError } from '../../diagnostics.js';
import { fatigueOf, periodOf } from '../../insights/period.js';
import { insightsOf } from '../../insights/stats.js';
import { insightsText } from '../../insights/text.js';
import { DEFAULT_APPROVAL_TTL_MS } from '../../runtime/control.js';
import { safePrinter, terminalJson } from '../../terminal-text.js';
import type { CommandSpec } from '../context.js';
import { storeOption, withStore } from '../store-url.js';

interface StatsArgs {
  store?: string;
  period?: string;
  since?: string;
  until?: string;
  format: 'text' | 'json';
  'approval-ttl-ms': number;
  'fatigue-answers'?: number;
  'fatigue-window'?: string;
  'fatigue-min-time'?: string;
}

/** The fatigue flags, shared with `serve` (which also records each finding as a receipt when any is given). */
export const fatigueOptions = {
  'fatigue-answers': {
    type: 'number',
    requiresArg: true,
    describe: 'Approval fatigue: more than this many answers by one approver within --fatigue-window (default 20)',
  },
  'fatigue-window': { type: 'string', requiresArg: true, describe: 'The window of --fatigue-answers (default 15m)' },
  'fatigue-min-time': { type: 'string', requiresArg: true, describe: 'Approval fatigue: an approval given less than this after the pause (default 10s)' },
} as const;

/** `ctrlrun-gen stats`: approvals insights over the store for a period (docs/observability.md). */
export const statsCommand: CommandSpec<StatsArgs> = {
  command: 'stats',
  describe: 'Approval insights for a period: per action and approver, rates, time to decide, the busiest rules, approval fatigue',
  builder: (y) =>
    y
      .option('store', storeOption)
      .option('period', { type: 'string', requiresArg: true, describe: 'The period ending now (or at --until): 7d (default), 24h, 90m' })
      .option('since', { type: 'string', requiresArg: true, describe: 'Start of the period (ISO 8601), instead of --period' })
      .option('until', { type: 'string', requiresArg: true, describe: 'End of the period (ISO 8601; default now)' })
      .option('format', { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'Output format' })
      .option('approval-ttl-ms', {
        type: 'number',
        default: DEFAULT_APPROVAL_TTL_MS,
        describe: "The control's approvalTtlMs (an approval unused after it has expired)",
      })
      .options(fatigueOptions),
  examples: [
    ['ctrlrun-gen stats', 'The last seven days'],
    ['ctrlrun-gen stats --period 24h --format json', 'The last day, as JSON'],
    ['ctrlrun-gen stats --fatigue-answers 10 --fatigue-window 5m --fatigue-min-time 30s', 'Stricter approval-fatigue rules'],
  ],
  run: async (args, ctx) => {
    const ask = {
      period: args.period,
      since: args.since,
      until: args.until,
      fatigueAnswers: args['fatigue-answers'],
      fatigueWindow: args['fatigue-window'],
      fatigueMinTime: args['fatigue-min-time'],
    };
    const period = periodOf(ask, Date.now());
    if (!period.ok) throw new UserError(`--${period.message}\nhint: --period 7d, or --since 2026-11-01T00:00:00Z`);
    const fatigue = fatigueOf(ask);
    if (!fatigue.ok) throw new UserError(`--${fatigue.message}`);
    if (!Number.isFinite(args['approval-ttl-ms']) || args['approval-ttl-ms'] <= 0) throw new UserError('--approval-ttl-ms: a positive number of milliseconds.');
    return withStore(args, ctx, async (store) => {
      const [requests, receipts] = await Promise.all([store.listRequests(), store.listReceipts()]);
      const insights = insightsOf(requests, receipts, { ...period.value, approvalTtlMs: args['approval-ttl-ms'], fatigue: fatigue.value.rules });
      // names and reasons came from people and models: escaped for the terminal, as every listing does
      if (args.format === 'json') ctx.stdout(`${terminalJson(insights)}\n`);
      else {
        const printer = safePrinter();
        ctx.stdout(insightsText(insights).split('\n').map(printer.show).join('\n') + printer.note());
      }
      return 0;
    });
  },
};
