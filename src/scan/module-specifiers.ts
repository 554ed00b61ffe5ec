import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';

/*
 * The specifiers a module imports, re-exports or requires, as TypeScript's pre-processor lists them
 * (a scan of the text's tokens, no parse): the unlisted-module search's step (unlisted-imports.ts).
 * A file the scan parsed has a tree that gives the same list without the token scan (issue 40,
 * item 8), when that is sure: usually from its top-level statements alone, else from each word the
 * pre-processor acts on, looked up in the tree.
 */

/** Words the pre-processor may act on beyond a top-level statement's own `import` and `export`. */
const OTHER_WORDS = /\b(?:require|define|declare)\b/;

/** Every word the pre-processor acts on (its tokens are these words, when the text holds no escape). */
const LOAD_WORDS = /\b(?:import|export|require|define|declare)\b/g;

/** `export * as ns from 's'` (a name or a string as the name): the pre-processor lists nothing for it. */
const NAMESPACE_EXPORT = /(?<![\w$.])export\s*\*\s*as\s+(?:[\w$\u0080-\uffff]+|'[^'\n]*'|"[^"\n]*")\s*from\s*(['"])([^'"\n]+)\1/g;

/** The specifiers of a module's text, by TypeScript's pre-processor, and those of its `export * as ns from` it leaves out (read by a pattern: there is no tree). */
export function textSpecifiers(text: string): string[] {
  const out = preProcessed(text);
  if (text.includes('*')) for (const m of text.matchAll(NAMESPACE_EXPORT)) if (!out.includes(m[2]!)) out.push(m[2]!);
  return out;
}

/**
 * The specifiers of a parsed module: the pre-processor's list (from the tree when that is sure) and
 * those of the tree's `export * as ns from` it leaves out (which the pattern of `textSpecifiers`
 * would miss with a comment inside).
 */
export function parsedSpecifiers(sf: ts.SourceFile): string[] {
  const out = treeSpecifiers(sf) ?? preProcessed(sf.text);
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
 * The pre-processor's list of a parsed module, read from its tree; undefined: ask the pre-processor.
 * Only for a text that parsed without error and holds no `\u` escape (a word spelled with one is
 * not seen by the patterns here). First the top-level statements: when every `import` and
 * `export` word of the text is such a statement's own and no other word the pre-processor acts on
 * occurs (`require`, `define`, `declare`), their specifiers are the list. Else each such word is
 * looked up in the tree (`wordLoad`): in a comment or a string it is nothing; an import call, an
 * import type and a `require(` call give the string that follows, as the pre-processor's tokens
 * do; a form it reads otherwise, or one not known here, falls back.
 *
 * Where the pre-processor's token scan misreads a text (it takes a regular expression's quote or
 * backtick for a string or a template, JSX text for code, and a template tagged by a template as
 * code), the tree reads it as it is: the lists may differ there (the tree is right).
 */
export function treeSpecifiers(sf: ts.SourceFile): string[] | undefined {
  const text = sf.text;
  if (text.includes('\\u') || ((sf as unknown as { parseDiagnostics?: readonly unknown[] }).parseDiagnostics?.length ?? 0) > 0) return undefined;
  if (!OTHER_WORDS.test(text)) {
    const top = topLevelLoads(sf);
    if (top !== undefined && words(text, /\bimport\b/g) === top.imports && words(text, /\bexport\b/g) === top.exports) return top.specifiers;
  }
  const out: string[] = [];
  for (const m of text.matchAll(LOAD_WORDS)) {
    const load = wordLoad(sf, m.index, m[0]);
    if (load === FALL_BACK) return undefined;
    if (load !== NOTHING) out.push(load);
  }
  return out;
}

/** The top-level `import ... from 's'` and `export ... from 's'` in order, and how many import and export statements there are; undefined: a form the pre-processor reads otherwise. */
function topLevelLoads(sf: ts.SourceFile): { specifiers: string[]; imports: number; exports: number } | undefined {
  const kinds = typescript.SyntaxKind;
  const specifiers: string[] = [];
  let imports = 0;
  let exports = 0;
  for (const st of sf.statements) {
    if (typescript.isImportDeclaration(st)) {
      imports++;
      const spec = importSpecifier(st);
      if (spec === undefined) return undefined;
      specifiers.push(spec);
    } else if (typescript.isExportDeclaration(st)) {
      exports++;
      const spec = exportSpecifier(st);
      if (spec === FALL_BACK) return undefined;
      if (spec !== NOTHING) specifiers.push(spec);
    } else if (st.kind === kinds.ExportAssignment || st.kind === kinds.NamespaceExportDeclaration || exportModified(st)) exports++;
  }
  return { specifiers, imports, exports };
}

/** An import declaration's specifier, as the pre-processor reads it; undefined: it reads the form otherwise (an import with a phase, `import defer`). */
function importSpecifier(st: ts.ImportDeclaration): string | undefined {
  const phase = (st.importClause as { phaseModifier?: ts.SyntaxKind } | undefined)?.phaseModifier;
  if (!typescript.isStringLiteral(st.moduleSpecifier) || (phase !== undefined && phase !== typescript.SyntaxKind.TypeKeyword)) return undefined;
  return st.moduleSpecifier.text;
}

/** An export declaration's specifier; nothing for `export { a }` and for `export * as ns from 's'` (the pre-processor lists nothing for it). */
function exportSpecifier(st: ts.ExportDeclaration): string | typeof NOTHING | typeof FALL_BACK {
  if (st.moduleSpecifier === undefined || (st.exportClause !== undefined && typescript.isNamespaceExport(st.exportClause))) return NOTHING;
  return typescript.isStringLiteral(st.moduleSpecifier) ? st.moduleSpecifier.text : FALL_BACK;
}

function exportModified(st: ts.Statement): boolean {
  return typescript.canHaveModifiers(st) && (typescript.getModifiers(st)?.some((m) => m.kind === typescript.SyntaxKind.ExportKeyword) ?? false);
}

function words(text: string, word: RegExp): number {
  let n = 0;
  for (word.lastIndex = 0; word.exec(text) !== null; ) n++;
  return n;
}

/** A word the pre-processor acts on that lists nothing. */
const NOTHING = 0;
/** A word whose reading by the pre-processor is not known here: ask it. */
const FALL_BACK = 1;

/**
 * The innermost node whose text (with its leading trivia) holds `pos`, its parent, whether it is
 * inside a template's substitution, and where its last child before `pos` ends (-1: none).
 */
interface Found {
  node: ts.Node;
  parent: ts.Node | undefined;
  inSpan: boolean;
  lastEnd: number;
}

function nodeAt(sf: ts.SourceFile, pos: number): Found {
  const kinds = typescript.SyntaxKind;
  const found: Found = { node: sf, parent: undefined, inSpan: false, lastEnd: -1 };
  // the first child not ending before `pos` (children come in order): it holds `pos`, or starts past it
  const notBefore = (c: ts.Node): ts.Node | undefined => {
    if (c.end > pos) return c;
    found.lastEnd = c.end;
    return undefined;
  };
  for (;;) {
    found.lastEnd = -1;
    const child = typescript.forEachChild(found.node, notBefore);
    if (child === undefined || child.pos > pos) return found;
    if (found.node.kind === kinds.TemplateSpan || found.node.kind === kinds.TemplateLiteralTypeSpan) found.inSpan = true;
    found.parent = found.node;
    found.node = child;
  }
}

/**
 * What the pre-processor lists for the word at `at`, read from the tree: a specifier, NOTHING or
 * FALL_BACK. Its token scan reads a template's substitutions for `import` alone, and with a stale
 * previous token there (after two `import.meta`, it takes each later `import` for a member, and the
 * first token after the template too): an `import` inside one falls back; a `require` inside one is
 * nothing.
 */
function wordLoad(sf: ts.SourceFile, at: number, word: string): string | typeof NOTHING | typeof FALL_BACK {
  const kinds = typescript.SyntaxKind;
  const found = nodeAt(sf, at);
  const { node, parent } = found;
  const start = node.getStart(sf);
  // in trivia (a comment: whitespace holds no word), before the node's first token or after its
  // last child before the word; or inside a string or a template's text
  if (at < start || (found.lastEnd >= 0 && skipTrivia(sf.text, found.lastEnd) > at) || insideString(node.kind)) return NOTHING;
  const token = start === at && node.end === at + word.length;
  // a statement starting with the word (at any depth: the pre-processor reads one in a namespace too)
  const first = start === at;
  switch (word) {
    case 'import':
      if (first && typescript.isImportDeclaration(node)) return importSpecifier(node) ?? FALL_BACK;
      if (found.inSpan) return FALL_BACK;
      if (node.kind === kinds.MetaProperty && start === at) return NOTHING;
      if (token && node.kind === kinds.ImportKeyword && parent !== undefined && typescript.isCallExpression(parent) && parent.expression === node)
        return callLoad(sf, at + word.length);
      if (typescript.isImportTypeNode(node) && (node.isTypeOf ? skipTrivia(sf.text, start + 'typeof'.length) === at : start === at))
        return callLoad(sf, at + word.length);
      return FALL_BACK;
    case 'export':
      if (first && typescript.isExportDeclaration(node)) return exportSpecifier(node);
      if (first && (node.kind === kinds.ExportAssignment || node.kind === kinds.NamespaceExportDeclaration)) return NOTHING;
      // a declaration's `export` modifier: the pre-processor reads the next token as usual (`export
      // import a = require('s')` falls back on its `import`)
      return token && node.kind === kinds.ExportKeyword ? NOTHING : FALL_BACK;
    case 'require':
      if (!token || !typescript.isIdentifier(node)) return FALL_BACK;
      return found.inSpan ? NOTHING : callLoad(sf, node.end);
    default:
      // `define(` (an AMD module's list) and `declare module` (an ambient module's name): the pre-processor's, when they occur
      if (!token || !(typescript.isIdentifier(node) || node.kind === kinds.DeclareKeyword)) return FALL_BACK;
      return nextWordIs(sf.text, node.end, word === 'define' ? '(' : 'module') ? FALL_BACK : NOTHING;
  }
}

/** A string's or a template text's kind: a word inside one is no token of the pre-processor's either. */
function insideString(kind: ts.SyntaxKind): boolean {
  const k = typescript.SyntaxKind;
  return (
    kind === k.StringLiteral || kind === k.NoSubstitutionTemplateLiteral || kind === k.TemplateHead || kind === k.TemplateMiddle || kind === k.TemplateTail
  );
}

/**
 * The string after `(` following a call's name at `after` (`import(`, `require(`), as the
 * pre-processor reads the tokens: a string or a template without substitutions right after the
 * parenthesis, else nothing.
 */
function callLoad(sf: ts.SourceFile, after: number): string | typeof NOTHING {
  const text = sf.text;
  const paren = skipTrivia(text, after);
  if (text.charCodeAt(paren) !== 0x28) return NOTHING;
  const at = skipTrivia(text, paren + 1);
  const arg = nodeAt(sf, at).node;
  return (typescript.isStringLiteral(arg) || typescript.isNoSubstitutionTemplateLiteral(arg)) && arg.getStart(sf) === at ? arg.text : NOTHING;
}

/** Whether the token after `pos` starts with `next` (a word: not followed by a word's character). */
function nextWordIs(text: string, pos: number, next: string): boolean {
  const at = skipTrivia(text, pos);
  return text.startsWith(next, at) && (next === '(' || !/[\w$]/.test(text.charAt(at + next.length)));
}

/** The compiler's own trivia skipper (whitespace and comments, as its scanner skips them). */
function skipTrivia(text: string, pos: number): number {
  return (typescript as unknown as { skipTrivia: (text: string, pos: number) => number }).skipTrivia(text, pos);
}
