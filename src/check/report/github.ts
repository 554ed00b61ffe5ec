import { terminalSafe, terminalSafeLines } from '../../terminal-text.js';
import type { CheckReport } from './types.js';

/** Escapes a workflow command's message (data). */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow command's property value. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** `--format github`: one `::error`/`::warning` workflow command per finding, then a summary line. */
export function formatGithub(report: CheckReport): string {
  const lines = report.findings.map((f) => {
    // the file and the texts may hold what the files under review chose: escaped and marked, so an
    // ESC sequence or a bidi control cannot rewrite the CI log around the annotation
    const props = `file=${escapeProperty(terminalSafe(f.file).text)},line=${f.line},col=${f.column},title=${escapeProperty(f.ruleId)}`;
    return `::${f.severity} ${props}::${escapeData(`${terminalSafe(f.message).text}\nhint: ${terminalSafeLines(f.hint).text}`)}`;
  });
  lines.push(summaryLine(report));
  return `${lines.join('\n')}\n`;
}

function summaryLine(report: CheckReport): string {
  const { errors, warnings, omitted } = report.summary;
  return `ctrlrun-gen check: ${errors} error(s), ${warnings} warning(s)${omitted > 0 ? `, ${omitted} not shown (--max-findings)` : ''}`;
}
