import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';

/*
 * The specifiers a module imports, re-exports or requires, as TypeScript's pre-processor lists them
 * (a scan of the text's tokens, no parse): the unlisted-module search's step (unlisted-imports.ts).
 * A file the scan parsed usually holds nothing but top-level `import`/`export ... from` statements:
 * its tree gives the same list without the token scan (issue 40, item 8), when that is sure.
 */

/** A word the pre-processor may take as a load beyond the top-level statements, or an escape that hides one. */
const OTHER_LOADS = /\brequire\b|\bdefine\b|\\u/;

/** `export * as ns from 's'` (a name or a string as the name): the pre-processor lists nothing for it. */
const NAMESPACE_EXPORT = /(?<![\w$.])export\s*\*\s*as\s+(?:[\w$\u0080-\uffff]+|'[^'\n]*'|"[^"\n]*")\s*from\s*(['"])([^'"\n]+)\1/g;

/** The specifiers of a module's text, by TypeScript's pre-processor, and those of its `export * as ns from` it leaves out (read by a pattern: there is no tree). */
export function textSpecifiers(text: string): string[] {
  const out = preProcessed(text);
  if (text.includes('*')) for (const m of text.matchAll(NAMESPACE_EXPORT)) if (!out.includes(m[2]!)) out.push(m[2]!);
  return out;
}

/**
 * The specifiers of a parsed module: its tree's when they are the pre-processor's list, else the
 * pre-processor's and those of the tree's `export * as ns from` (which the pattern of `textSpecifiers`
 * would miss with a comment inside).
 */
export function parsedSpecifiers(sf: ts.SourceFile): string[] {
  const tree = treeSpecifiers(sf);
  if (tree !== undefined) return tree;
  const out = preProcessed(sf.text);
  for (const st of sf.statements) {
    const spec =
      typescript.isExportDeclaration(st) && !st.isTypeOnly && st.exportClause && typescript.isNamespaceExport(st.exportClause) ? st.moduleSpecifier : undefined;
    if (spec && typescript.isStringLiteral(spec) && !out.includes(spec.text)) out.push(spec.text);
  }
  return out;
}

function preProcessed(text: string): string[] {
  return typescript.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/**
 * The top-level `import ... from 's'` and `export ... from 's'` of a tree in order, when the
 * pre-processor would list exactly these: the text parsed without error, names no `require` or
 * `define` and holds no `\u` escape, and each `import` and `export` word in it is a top-level
 * statement's own (a word anywhere else, in a comment or a string as well, falls back: the count is
 * only ever too high). A form the pre-processor reads otherwise falls back too: `export * as n
 * from`, an import with a phase (`import defer`). Undefined: ask the pre-processor.
 */
export function treeSpecifiers(sf: ts.SourceFile): string[] | undefined {
  const text = sf.text;
  if (OTHER_LOADS.test(text) || ((sf as unknown as { parseDiagnostics?: readonly unknown[] }).parseDiagnostics?.length ?? 0) > 0) return undefined;
  const kinds = typescript.SyntaxKind;
  const out: string[] = [];
  let imports = 0;
  let exports = 0;
  for (const st of sf.statements) {
    if (typescript.isImportDeclaration(st)) {
      imports++;
      const phase = (st.importClause as { phaseModifier?: ts.SyntaxKind } | undefined)?.phaseModifier;
      if (!typescript.isStringLiteral(st.moduleSpecifier) || (phase !== undefined && phase !== kinds.TypeKeyword)) return undefined;
      out.push(st.moduleSpecifier.text);
    } else if (typescript.isExportDeclaration(st)) {
      exports++;
      if (st.moduleSpecifier === undefined) continue;
      if (!typescript.isStringLiteral(st.moduleSpecifier) || (st.exportClause !== undefined && typescript.isNamespaceExport(st.exportClause))) return undefined;
      out.push(st.moduleSpecifier.text);
    } else if (st.kind === kinds.ExportAssignment || st.kind === kinds.NamespaceExportDeclaration || exportModified(st)) exports++;
  }
  return words(text, /\bimport\b/g) === imports && words(text, /\bexport\b/g) === exports ? out : undefined;
}

function exportModified(st: ts.Statement): boolean {
  return typescript.canHaveModifiers(st) && (typescript.getModifiers(st)?.some((m) => m.kind === typescript.SyntaxKind.ExportKeyword) ?? false);
}

function words(text: string, word: RegExp): number {
  let n = 0;
  for (word.lastIndex = 0; word.exec(text) !== null; ) n++;
  return n;
}
