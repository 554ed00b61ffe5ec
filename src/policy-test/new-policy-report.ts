/**
 * `diff`'s report when the base revision has no policy at the working policy's path: the policy is
 * new (the change adopts ctrlrun-gen, or adds a workspace package). Every action is new; nothing
 * had a decision before, so no call gets less oversight than it had. Pure.
 */
import type { Policy } from '../policy/types.js';
import type { PolicyDiff } from './diff.js';
import type { DiffLabels, ReportFormat } from './diff-report.js';

export function formatNewPolicy(policy: Policy, format: ReportFormat, labels: DiffLabels, revision: string): string {
  const actions = Object.keys(policy.actions).sort();
  const n = `${actions.length} action${actions.length === 1 ? '' : 's'}`;
  if (format === 'json') {
    // the diff's own summary shape: a field added there is a type error here
    const summary: PolicyDiff['summary'] = {
      added: actions.length,
      removed: 0,
      changed: 0,
      callsChanged: 0,
      looserCalls: 0,
      tighterCalls: 0,
      looserSettings: 0,
    };
    const body = {
      base: { label: labels.base, hash: null },
      head: { label: labels.head, hash: policy.hash },
      new_policy: true,
      actions: actions.map((action) => ({ action, kind: 'added' })),
      summary,
    };
    return `${JSON.stringify(body, null, 2)}\n`;
  }
  if (format === 'markdown') {
    const list = actions.map((a) => `\`${a}\``).join(', ');
    return `### Policy diff: \`${labels.base}\` → \`${labels.head}\`\n\nA new policy (none at \`${revision}\`): ${n}${actions.length > 0 ? `: ${list}` : ''}.\n`;
  }
  return `policy diff: ${labels.base} → ${labels.head} (${policy.hash.slice(0, 19)})\nnew policy (none at ${revision}): ${n}${actions.length > 0 ? `: ${actions.join(', ')}` : ''}\n`;
}

/**
 * Several packages' reports (a workspace root) as one: text and markdown one after another (each
 * names its policy), JSON as `{ "packages": [...] }` of each package's own object.
 */
export function joinReports(reports: readonly string[], format: ReportFormat): string {
  if (reports.length === 1) return reports[0]!;
  if (format === 'json') return `${JSON.stringify({ packages: reports.map((r) => JSON.parse(r) as unknown) }, null, 2)}\n`;
  return reports.join('\n');
}
