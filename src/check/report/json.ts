import type { CheckReport } from './types.js';

/** `--format json`: `{ findings: [{ ruleId, severity, file, line, column, message, hint }], summary }` (docs/check.md). */
export function formatJson(report: CheckReport): string {
  const findings = report.findings.map(({ ruleId, severity, file, line, column, message, hint }) => ({ ruleId, severity, file, line, column, message, hint }));
  return `${JSON.stringify({ findings, summary: report.summary }, null, 2)}\n`;
}
