import { codeFrameColumns } from '@babel/code-frame';
import pc from 'picocolors';
import type { Finding } from '../types.js';
import type { CheckReport, SourceReader } from './types.js';

/** `--format text`: findings grouped by file, each with a code frame, its rule id and a hint. */
export function formatText(report: CheckReport, options: { color: boolean; readSource: SourceReader }): string {
  const c = pc.createColors(options.color);
  const groups = new Map<string, Finding[]>();
  for (const f of report.findings) {
    const list = groups.get(f.file);
    if (list) list.push(f);
    else groups.set(f.file, [f]);
  }
  const out: string[] = [];
  for (const [file, findings] of groups) {
    out.push(c.underline(c.bold(file)));
    const text = options.readSource(file);
    for (const f of findings) {
      const severity = f.severity === 'error' ? c.red('error') : c.yellow('warning');
      out.push(`  ${f.line}:${f.column}  ${severity}  ${f.message}  ${c.dim(f.ruleId)}`);
      if (text !== undefined) {
        const frame = codeFrameColumns(text, { start: { line: f.line, column: f.column } }, { highlightCode: options.color, forceColor: options.color, linesAbove: 1, linesBelow: 1 });
        out.push(indent(frame, '    '));
      }
      out.push(indent(`${c.cyan('hint')}: ${f.hint}`, '    '));
      out.push('');
    }
  }
  out.push(summary(report, c));
  return `${out.join('\n')}\n`;
}

function indent(text: string, by: string): string {
  return text
    .split('\n')
    .map((l) => (l.length > 0 ? by + l : l))
    .join('\n');
}

function summary(report: CheckReport, c: ReturnType<typeof pc.createColors>): string {
  const { errors, warnings, total, omitted, filesParsed, filesConsidered } = report.summary;
  const files = `${filesConsidered} file(s) considered, ${filesParsed} parsed`;
  if (total === 0) return c.green(`✔ no findings (${files})`);
  const counts = `${total} finding(s): ${errors} error(s), ${warnings} warning(s)`;
  const more = omitted > 0 ? `; ${omitted} not shown (--max-findings)` : '';
  return (errors > 0 ? c.red : c.yellow)(c.bold(`✖ ${counts}${more} (${files})`));
}
