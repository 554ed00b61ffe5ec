import type { FatigueFinding } from './fatigue.js';
import type { Insights, Timing } from './stats.js';

/** A duration as people read it: `850ms`, `42s`, `12m`, `3.5h`, `2.0d`; `-` for none. */
export function durationText(ms: number | null): string {
  if (ms === null) return '-';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${Math.round(ms / 1000)}s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)}m`;
  if (ms < 86_400_000) return `${(ms / 3_600_000).toFixed(1)}h`;
  return `${(ms / 86_400_000).toFixed(1)}d`;
}

export const rateText = (t: Pick<Timing, 'approvalRate'>) => (t.approvalRate === null ? '-' : `${Math.round(t.approvalRate * 100)}%`);

/** A finding in one line: who, what, when. */
export function findingText(f: FatigueFinding, rules: Insights['fatigueRules']): string {
  return f.kind === 'volume'
    ? `${f.approver} answered ${f.value} requests within ${durationText(rules.windowMs)} (limit ${rules.maxAnswers}) at ${new Date(f.at).toISOString()}`
    : `${f.approver} approved ${f.callId} (${f.action}) ${durationText(f.value)} after it was filed (under ${durationText(rules.minDecideMs)}) at ${new Date(f.at).toISOString()}`;
}

/** Rows of cells as a plain, aligned table. */
function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)].join('\n');
}

/** `ctrlrun-gen stats`'s text report. */
export function insightsText(s: Insights): string {
  const out: string[] = [`Approvals from ${new Date(s.since).toISOString()} to ${new Date(s.until).toISOString()}`, ''];
  const actions = [s.totals, ...s.actions];
  out.push(
    table(
      ['ACTION', 'REQUESTS', 'APPROVED', 'REJECTED', 'RATE', 'MEDIAN', 'P90', 'PENDING', 'EXPIRED', 'EDITS', 'GRANTS USED'],
      actions.map((a) =>
        [
          a.action,
          a.requests,
          a.approved,
          a.rejected,
          rateText(a),
          durationText(a.medianMs),
          durationText(a.p90Ms),
          a.pending,
          a.expired,
          a.edits,
          a.grantsUsed,
        ].map(String),
      ),
    ),
    '',
  );
  out.push(
    s.approvers.length === 0
      ? 'No answers in this period.'
      : table(
          ['APPROVER', 'ANSWERS', 'APPROVED', 'REJECTED', 'RATE', 'MEDIAN', 'P90', 'FATIGUE'],
          s.approvers.map((a) =>
            [a.approver, a.answers, a.approved, a.rejected, rateText(a), durationText(a.medianMs), durationText(a.p90Ms), a.fatigue].map(String),
          ),
        ),
    '',
  );
  out.push(
    s.rules.length === 0
      ? 'No decisions in this period.'
      : table(
          ['BUSIEST RULES', 'CALLS'],
          s.rules.map((r) => [`${r.action} ${r.reason}`, String(r.calls)]),
        ),
    '',
  );
  if (s.fatigue.length === 0) out.push('Approval fatigue: none.');
  else
    out.push(
      `Approval fatigue (${s.fatigue.length}; ${s.fatigueRecorded} recorded as receipts):`,
      ...s.fatigue.map((f) => `  ${findingText(f, s.fatigueRules)}`),
    );
  return `${out.join('\n')}\n`;
}
