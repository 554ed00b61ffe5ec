import { codeFrameColumns } from '@babel/code-frame';
import pc from 'picocolors';
import { escapedSource, MARK_NOTE, safePrinter, terminalSafeLines } from '../../terminal-text.js';
import type { Finding } from '../types.js';
import type { CheckReport, SourceReader } from './types.js';

/**
 * `--format text`: findings grouped by file, each with a code frame, its rule id and a hint. What
 * the files under review chose (a policy key, a tool name, a path) is shown with control, bidi and
 * invisible characters escaped and marked, as `validate` shows it: a pull request cannot hide or
 * forge lines in a CI log.
 */
export function formatText(report: CheckReport, options: { color: boolean; readSource: SourceReader }): string {
  const c = pc.createColors(options.color);
  const safe = safePrinter();
  let hintsMarked = false;
  // a hint may span lines of ours (unmapped-tool's YAML snippet): each line is escaped on its own
  const hintOf = (f: Finding) => {
    const out = terminalSafeLines(f.hint);
    hintsMarked ||= out.marked;
    return out.text;
  };
  const groups = new Map<string, Finding[]>();
  for (const f of report.findings) {
    const list = groups.get(f.file);
    if (list) list.push(f);
    else groups.set(f.file, [f]);
  }
  const out: string[] = [];
  for (const [file, findings] of groups) {
    out.push(c.underline(c.bold(safe.show(file))));
    const text = options.readSource(file);
    for (const f of findings) {
      const severity = f.severity === 'error' ? c.red('error') : c.yellow('warning');
      out.push(`  ${f.line}:${f.column}  ${severity}  ${safe.show(f.message)}  ${c.dim(f.ruleId)}`);
      if (text !== undefined) {
        const frame = codeFrameColumns(
          escapedSource(text),
          { start: { line: f.line, column: f.column } },
          { highlightCode: options.color, forceColor: options.color, linesAbove: 1, linesBelow: 1 },
        );
        out.push(indent(frame, '    '));
      }
      out.push(indent(`${c.cyan('hint')}: ${hintOf(f)}`, '    '));
      out.push('');
    }
  }
  out.push(summary(report, c));
  return `${out.join('\n')}\n${safe.note() || (hintsMarked ? `${MARK_NOTE}\n` : '')}`;
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
