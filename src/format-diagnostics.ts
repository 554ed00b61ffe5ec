import path from 'node:path';
import { codeFrameColumns } from '@babel/code-frame';
import pc from 'picocolors';
import type { Diagnostic } from './diagnostics.js';
import { declaresCtrlrunSchema, readCapped } from './safe-read.js';
import { escapedSource, safePrinter } from './terminal-text.js';

/**
 * `file:line:col: severity: message`, then the path in the document, a code frame and a hint.
 * Paths are printed relative to the working directory. Source text is read from disk unless given.
 * What the files under review chose (a policy key in the message or in `at actions.…`, a line of
 * the code frame) is shown with control, bidi and invisible characters escaped and marked, as the
 * operator CLI shows stored text: a pull request cannot hide or forge lines in a CI log.
 */
export function formatDiagnostics(diagnostics: Diagnostic[], ctx: { cwd: string; color: boolean }, sources: Map<string, string> = new Map()): string {
  const colors = pc.createColors(ctx.color);
  const safe = safePrinter();
  const text = diagnostics
    .map((d) => {
      const file = safe.show(displayPath(d.file, ctx.cwd));
      const head = `${file}:${d.line}:${d.column}: ${d.severity === 'error' ? colors.red('error') : colors.yellow('warning')}: ${safe.show(d.message)}`;
      const lines = [colors.bold(head)];
      if (d.path) lines.push(`  at ${safe.show(d.path)}`);
      const source = sourceOf(d.file, ctx.cwd, sources);
      if (source !== undefined && d.line >= 1) {
        lines.push(
          codeFrameColumns(escapedSource(source), { start: { line: d.line, column: d.column } }, { highlightCode: ctx.color, linesAbove: 1, linesBelow: 1 })
            .split('\n')
            .map((l) => `  ${l}`)
            .join('\n'),
        );
      }
      if (d.related) {
        lines.push(`  ${safe.show(displayPath(d.related.file, ctx.cwd))}:${d.related.line}:${d.related.column}: ${safe.show(d.related.message)}`);
      }
      if (d.hint) lines.push(`  ${colors.cyan('hint')}: ${safe.show(d.hint)}`);
      return lines.join('\n');
    })
    .join('\n\n');
  return `${text}\n${safe.note()}`;
}

export function displayPath(file: string, cwd: string): string {
  if (!path.isAbsolute(file)) return file.split(path.sep).join('/');
  const rel = path.relative(cwd, file);
  return (rel === '' ? '.' : rel).split(path.sep).join('/');
}

/** Files a code frame may show from disk: the source files the scanner parses. */
const SOURCE_EXTENSIONS = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']);
const MAX_FRAME_SOURCE_BYTES = 2_000_000;

/**
 * The text of `file` (relative to `cwd`) for a code frame, cached in `sources`; undefined unless it
 * is the tool's own input. Loaders put what they parsed in `sources`; from disk only a source file
 * or a YAML file declaring a ctrlrun schema is shown, read capped, never a device, FIFO or `/proc`
 * file: a `.env` or a key named as a policy never has its lines printed (and `/dev/zero` cannot hang).
 */
export function sourceOf(file: string, cwd: string, sources: Map<string, string>): string | undefined {
  const cached = sources.get(file);
  if (cached !== undefined) return cached;
  const read = readCapped(path.resolve(cwd, file), MAX_FRAME_SOURCE_BYTES);
  if (!read.ok) return undefined;
  if (!SOURCE_EXTENSIONS.has(path.extname(file).toLowerCase()) && !declaresCtrlrunSchema(read.text)) return undefined;
  sources.set(file, read.text);
  return read.text;
}
