import path from 'node:path';
import { ts } from 'ts-morph';
import type { Span } from './types.js';

/** The extensions the scanner reads. `.d.ts` files are excluded by the repo walk, not here. */
export const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'] as const;

export function isSourceFile(file: string): boolean {
  const ext = path.extname(file).toLowerCase();
  if (!(SOURCE_EXTENSIONS as readonly string[]).includes(ext)) return false;
  return !/\.d\.[cm]?ts$/i.test(file);
}

export function scriptKindFor(file: string): ts.ScriptKind {
  switch (path.extname(file).toLowerCase()) {
    case '.tsx':
      return ts.ScriptKind.TSX;
    case '.jsx':
      return ts.ScriptKind.JSX;
    case '.js':
    case '.mjs':
    case '.cjs':
      return ts.ScriptKind.JS;
    default:
      return ts.ScriptKind.TS;
  }
}

export interface Parsed {
  sf: ts.SourceFile;
  parseError?: { line: number; column: number; message: string };
}

/** Parses with the raw compiler API: no program, no type checker, no parent pointers. */
export function parseSource(file: string, text: string): Parsed {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, scriptKindFor(file));
  const diagnostics = (sf as unknown as { parseDiagnostics?: readonly ts.Diagnostic[] }).parseDiagnostics ?? [];
  const first = diagnostics[0];
  if (!first) return { sf };
  const { line, character } = sf.getLineAndCharacterOfPosition(first.start ?? 0);
  return {
    sf,
    parseError: { line: line + 1, column: character + 1, message: ts.flattenDiagnosticMessageText(first.messageText, '\n') },
  };
}

/** Span of a node from its first token (leading trivia excluded) to its end. */
export function spanOf(node: ts.Node, sf: ts.SourceFile): Span {
  const start = node.getStart(sf);
  return spanAt(start, node.end, sf);
}

export function spanAt(start: number, end: number, sf: ts.SourceFile): Span {
  const { line, character } = sf.getLineAndCharacterOfPosition(start);
  return { start, end, line: line + 1, column: character + 1 };
}
