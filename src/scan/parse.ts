import path from 'node:path';
import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';
import type { Span } from './types.js';
import { componentScript, isComponentFile } from './component-script.js';

export { isSourceFile, SOURCE_EXTENSIONS } from './source-files.js';

export function scriptKindFor(file: string): ts.ScriptKind {
  switch (path.extname(file).toLowerCase()) {
    case '.tsx':
      return typescript.ScriptKind.TSX;
    case '.jsx':
      return typescript.ScriptKind.JSX;
    case '.js':
    case '.mjs':
    case '.cjs':
      return typescript.ScriptKind.JS;
    default:
      return typescript.ScriptKind.TS;
  }
}

export interface Parsed {
  sf: ts.SourceFile;
  parseError?: { line: number; column: number; message: string };
}

/**
 * Parses with the raw compiler API: no program, no type checker, no parent pointers. A component
 * file (`.vue`, `.svelte`, `.astro`, `.mdx`) is parsed as its code in place (component-script.ts).
 */
export function parseSource(file: string, text: string): Parsed {
  let sf: ts.SourceFile;
  let kind = scriptKindFor(file);
  if (isComponentFile(file)) {
    const script = componentScript(file, text);
    text = script.text;
    kind = script.jsx ? typescript.ScriptKind.TSX : typescript.ScriptKind.TS;
  }
  try {
    sf = typescript.createSourceFile(file, text, typescript.ScriptTarget.Latest, false, kind);
  } catch (error) {
    // The compiler's parser is recursive: a 20,000-deep array overflows the stack. Such a file is
    // reported as not parsed (located at its deepest point), as a syntax error is.
    if (!(error instanceof RangeError)) throw error;
    return tooDeep(file, text);
  }
  const deep = nodeTooDeep(sf);
  if (deep) return tooDeepTree(file, deep, sf);
  const diagnostics = (sf as unknown as { parseDiagnostics?: readonly ts.Diagnostic[] }).parseDiagnostics ?? [];
  const first = diagnostics[0];
  if (!first) return { sf };
  const { line, character } = sf.getLineAndCharacterOfPosition(first.start ?? 0);
  return {
    sf,
    parseError: { line: line + 1, column: character + 1, message: typescript.flattenDiagnosticMessageText(first.messageText, '\n') },
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

/** A file the parser could not read for its nesting: an empty tree and a parse error at its deepest point. */
export function tooDeep(file: string, text: string): Parsed {
  const sf = typescript.createSourceFile(file, '', typescript.ScriptTarget.Latest, false, scriptKindFor(file));
  const at = deepestPoint(text);
  // few brackets: the parser recursed on something else (`a = b = …`, `else if` thousands long),
  // which the bracket count cannot place
  if (at.depth < FEW_BRACKETS) {
    return {
      sf,
      parseError: {
        line: 1,
        column: 1,
        message:
          'the file nests too deeply to parse (an expression or statement the parser reads one inside another, as `a = b = …` thousands long); it is not scanned',
      },
    };
  }
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < at.offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return {
    sf,
    parseError: {
      line,
      column: at.offset - lineStart + 1,
      message: `the file nests too deeply to parse (about ${at.depth} brackets deep here); it is not scanned`,
    },
  };
}

/**
 * How many levels deep a tree the readers walk. The parser builds a chain (`'a' + 'b' + …`,
 * `x.a.a.a…`, `p.then(f).then(f)…`) in a loop, so it reads one of any length, but the scanner's walks
 * recurse once a level and overflow the stack near 2,000 levels (Node 24's default stack). Real code
 * is a few dozen levels deep.
 */
export const MAX_TREE_DEPTH = 1000;

/**
 * A node's subtree is at most this many levels deep per character it spans, plus DEPTH_SLACK: each
 * level of a chain takes a character or more (`!`, `.a`, `a=>`, `<a>`), and a broken file's
 * zero-width nodes at most double that (`@@@…`). test/scan/tree-depth.test.ts checks the bound on
 * every node of real and hostile files; the walk below skips what the bound keeps shallow.
 */
export const DEPTH_PER_CHAR = 4;
export const DEPTH_SLACK = 8;

/**
 * The first node found deeper than MAX_TREE_DEPTH, by a walk that keeps its own stack (it cannot
 * overflow). A child too short to reach past it is not entered, so the walk reads only the few
 * long nodes of a file (a full walk cost ~10% of the parse).
 */
export function nodeTooDeep(sf: ts.SourceFile): ts.Node | undefined {
  const nodes: ts.Node[] = [sf];
  const depths: number[] = [0];
  const lastToken = typescript.SyntaxKind.LastToken;
  let depth = 0;
  const push = (child: ts.Node): void => {
    if (depth + 1 + DEPTH_PER_CHAR * (child.end - child.pos) + DEPTH_SLACK <= MAX_TREE_DEPTH) return;
    nodes.push(child);
    depths.push(depth + 1);
  };
  while (nodes.length > 0) {
    const n = nodes.pop()!;
    depth = depths.pop()!;
    if (depth > MAX_TREE_DEPTH) return n;
    // a token (a name, a literal, a keyword) has no children
    if (n.kind > lastToken) typescript.forEachChild(n, push);
  }
  return undefined;
}

/** A file the parser read whose tree is deeper than the readers walk: an empty tree and a parse error at the deep node. */
function tooDeepTree(file: string, deep: ts.Node, parsed: ts.SourceFile): Parsed {
  const { line, character } = parsed.getLineAndCharacterOfPosition(deep.getStart(parsed));
  return {
    sf: typescript.createSourceFile(file, '', typescript.ScriptTarget.Latest, false, scriptKindFor(file)),
    parseError: {
      line: line + 1,
      column: character + 1,
      message: `the file nests too deeply to read (an expression over ${MAX_TREE_DEPTH} levels deep here); it is not scanned`,
    },
  };
}

/** Fewer brackets than this cannot overflow the parser: the count says nothing of where it did. */
const FEW_BRACKETS = 200;

/** Where brackets nest deepest (a rough count: strings and comments are not skipped). */
function deepestPoint(text: string): { offset: number; depth: number } {
  let depth = 0;
  let best = { offset: 0, depth: 0 };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x28 || c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > best.depth) best = { offset: i, depth };
    } else if ((c === 0x29 || c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return best;
}
