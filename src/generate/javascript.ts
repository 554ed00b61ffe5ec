/**
 * The generated module for a plain JavaScript project: the TypeScript module `render.ts` makes,
 * with its types taken out (ESM or CommonJS), and a declaration file beside it that gives
 * TypeScript-aware editors the same types. Pure: text in, text out.
 *
 * The types are removed from the TypeScript text by cutting exact source ranges found with the
 * compiler's parser (never by re-printing), so comments, blank lines and layout stay as generated.
 * The result is parsed again and must hold no type syntax: a construct this file does not know is
 * a generator bug, never output.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ts } from 'ts-morph';
import { typescript } from '../scan/typescript.js';
import { readRegularText } from '../safe-read.js';

/** How the generated module is written: TypeScript, or JavaScript in one module system. */
export type OutputKind = 'ts' | 'esm' | 'cjs';

/**
 * From the output's extension: `.ts`/`.mts`/`.cts` TypeScript; `.mjs` ESM; `.cjs` CommonJS; `.js`
 * what Node makes of it: ESM when the nearest package.json says `"type": "module"`, else CommonJS.
 */
export function outputKind(output: string): OutputKind {
  const ext = path.extname(output);
  if (ext === '.mjs') return 'esm';
  if (ext === '.cjs') return 'cjs';
  if (ext !== '.js') return 'ts';
  return packageType(path.dirname(output)) === 'module' ? 'esm' : 'cjs';
}

/** The `type` of the nearest package.json above `dir` (Node's rule); `commonjs` when none says. */
export function packageType(dir: string): 'module' | 'commonjs' {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const file = path.join(current, 'package.json');
    if (existsSync(file)) {
      try {
        const parsed = JSON.parse(readRegularText(file)) as { type?: unknown };
        return parsed.type === 'module' ? 'module' : 'commonjs';
      } catch {
        return 'commonjs';
      }
    }
    if (path.dirname(current) === current) return 'commonjs';
  }
}

/** The declaration file beside a JavaScript module: `x.js` → `x.d.ts`, `x.mjs` → `x.d.mts`, `x.cjs` → `x.d.cts`. */
export function typingsPath(output: string): string {
  const ext = path.extname(output);
  const stem = output.slice(0, output.length - ext.length);
  return `${stem}${{ '.mjs': '.d.mts', '.cjs': '.d.cts' }[ext] ?? '.d.ts'}`;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** The generated TypeScript module as JavaScript in `system`. */
export function toJavaScript(tsText: string, system: 'esm' | 'cjs'): string {
  const source = typescript.createSourceFile('generated.ts', tsText, typescript.ScriptTarget.Latest, true, typescript.ScriptKind.TS);
  const edits: Edit[] = [];
  const exported: string[] = [];
  const cut = (start: number, end: number, text = ''): void => void edits.push({ start, end, text });

  const visit = (node: ts.Node): void => {
    if (typescript.isTypeAliasDeclaration(node) || typescript.isInterfaceDeclaration(node)) {
      cut(...wholeStatement(tsText, node));
      return;
    }
    if (typescript.isImportDeclaration(node) && node.importClause?.isTypeOnly) {
      // the line goes with it (its leading comments may be the file's header, which stays)
      cut(node.getStart(source), tsText[node.end] === '\n' ? node.end + 1 : node.end);
      return;
    }
    if (typescript.isImportDeclaration(node)) {
      cut(node.getStart(source), node.end, importAsJavaScript(node, source, system));
      return;
    }
    if (typescript.isParameter(node) && node.type) cut(node.name.end, node.type.end);
    if ((typescript.isFunctionDeclaration(node) || typescript.isArrowFunction(node) || typescript.isFunctionExpression(node)) && node.type) {
      cut(node.parameters.end, node.type.end, ')');
    }
    if (typescript.isVariableDeclaration(node) && node.type) cut(node.name.end, node.type.end);
    if (typescript.isCallExpression(node) && node.typeArguments) cut(node.typeArguments.pos - 1, node.typeArguments.end + 1);
    if (typescript.isParenthesizedExpression(node) && typescript.isAsExpression(node.expression) && isPlainReference(uncast(node.expression))) {
      // `(args as Record<string, unknown>)[name]` → `args[name]`: the parentheses only held the cast
      // (or casts: `(Object as unknown as T)` → `Object`).
      cut(node.getStart(source), node.end, uncast(node.expression).getText(source));
      return;
    }
    if (typescript.isAsExpression(node) || typescript.isSatisfiesExpression(node) || typescript.isNonNullExpression(node)) {
      // the casts after the expression go; the expression is visited (`f<T>(x) as U` → `f(x)`)
      const inner = uncast(node);
      cut(inner.end, node.end);
      visit(inner);
      return;
    }
    if (system === 'cjs' && typescript.isExportAssignment(node) && !node.isExportEquals) {
      // `export default x;` → `module.exports = x;`
      cut(node.getStart(source), node.expression.getStart(source), 'module.exports = ');
    }
    if (system === 'cjs' && typescript.isVariableStatement(node) && node.modifiers?.some((m) => m.kind === typescript.SyntaxKind.ExportKeyword)) {
      const keyword = node.modifiers.find((m) => m.kind === typescript.SyntaxKind.ExportKeyword) as ts.Modifier;
      cut(keyword.getStart(source), keyword.end + 1);
      for (const d of node.declarationList.declarations) if (typescript.isIdentifier(d.name)) exported.push(d.name.text);
    }
    typescript.forEachChild(node, visit);
  };
  typescript.forEachChild(source, visit);

  let text = applyEdits(tsText, edits);
  if (system === 'cjs' && exported.length > 0) text = `${text.replace(/\n+$/, '')}\n\nmodule.exports = { ${exported.join(', ')} };\n`;
  text = `${text.replace(/\n{3,}/g, '\n\n').replace(/\n+$/, '')}\n`;
  assertNoTypeSyntax(text);
  return text;
}

/** The expression under a chain of casts (`x as unknown as T`, `x!`, `x satisfies T`). */
function uncast(node: ts.Expression): ts.Expression {
  let e = node;
  while (typescript.isAsExpression(e) || typescript.isSatisfiesExpression(e) || typescript.isNonNullExpression(e)) e = e.expression;
  return e;
}

/**
 * The declaration file of the JavaScript module: its header, its type-only imports (the SDK's public
 * type names `protectedTool`'s type is written with), `ActionId` and the other type aliases, and the
 * exports' types.
 */
export function typingsFor(tsText: string): string {
  const source = typescript.createSourceFile('generated.ts', tsText, typescript.ScriptTarget.Latest, true, typescript.ScriptKind.TS);
  const header = tsText.split('\n').slice(0, 2).join('\n');
  const runtimeTypes = new Set<string>();
  const typeImports: string[] = [];
  const parts: string[] = [];
  const typed = (text: string): string => {
    for (const name of text.match(/\b(AgentDoors|CompiledPolicy|LocalDoors|McpDoors|ProtectedTool|ProtectHostedMcp)\b/g) ?? []) runtimeTypes.add(name);
    return text;
  };
  for (const statement of source.statements) {
    const comments = leadingComments(tsText, statement);
    if (typescript.isImportDeclaration(statement) && statement.importClause?.isTypeOnly) {
      typeImports.push(statement.getText(source));
    } else if (typescript.isTypeAliasDeclaration(statement)) {
      parts.push(`${comments}${typed(statement.getText(source))}`);
    } else if (typescript.isVariableStatement(statement) && statement.modifiers?.some((m) => m.kind === typescript.SyntaxKind.ExportKeyword)) {
      for (const d of statement.declarationList.declarations) {
        if (!d.type) throw new Error(`generator bug: no declared type for the export ${d.name.getText(source)}`);
        parts.push(`${comments}export declare const ${d.name.getText(source)}: ${typed(d.type.getText(source))};`);
      }
    }
  }
  if (runtimeTypes.size > 0) typeImports.push(`import type { ${[...runtimeTypes].sort().join(', ')} } from 'ctrlrun-gen/runtime';`);
  const imports = typeImports.length > 0 ? `${typeImports.join('\n')}\n\n` : '';
  return `${header}\n${imports}${parts.join('\n\n')}\n`;
}

/** `import { a, type B } from 'm'` as JavaScript: type-only names dropped; CommonJS: a `require`. */
function importAsJavaScript(node: ts.ImportDeclaration, source: ts.SourceFile, system: 'esm' | 'cjs'): string {
  const clause = node.importClause;
  const specifier = node.moduleSpecifier.getText(source);
  if (!clause) return '';
  const named =
    clause.namedBindings && typescript.isNamedImports(clause.namedBindings)
      ? clause.namedBindings.elements.filter((e) => !e.isTypeOnly).map((e) => e.getText(source))
      : [];
  const defaultName = clause.name?.text;
  if (system === 'esm') {
    const bindings = [...(defaultName ? [defaultName] : []), ...(named.length > 0 ? [`{ ${named.join(', ')} }`] : [])];
    return bindings.length === 0 ? '' : `import ${bindings.join(', ')} from ${specifier};`;
  }
  const lines: string[] = [];
  if (named.length > 0) lines.push(`const { ${named.map((n) => n.replace(/\s+as\s+/, ': ')).join(', ')} } = require(${specifier});`);
  if (defaultName) {
    // `module.exports = createControl(…)`, or a module compiled from `export default` (`__esModule`).
    lines.push(`const ${defaultName}Module = require(${specifier});`);
    lines.push(`const ${defaultName} = ${defaultName}Module.__esModule ? ${defaultName}Module.default : ${defaultName}Module;`);
  }
  return lines.join('\n');
}

function isPlainReference(node: ts.Expression): boolean {
  return typescript.isIdentifier(node) || (typescript.isPropertyAccessExpression(node) && isPlainReference(node.expression));
}

/** A statement with its leading comments and the line break after it. */
function wholeStatement(text: string, node: ts.Node): [number, number] {
  const comments = typescript.getLeadingCommentRanges(text, node.pos) ?? [];
  const start = comments[0]?.pos ?? node.getStart();
  let end = node.end;
  if (text[end] === '\n') end += 1;
  return [start, end];
}

function leadingComments(text: string, node: ts.Node): string {
  const comments = typescript.getLeadingCommentRanges(text, node.pos) ?? [];
  // The file header (lines 1-2) leads the first statement: it is written once, not per statement.
  return comments
    .filter((c) => c.pos >= text.indexOf('\n', text.indexOf('\n') + 1))
    .map((c) => `${text.slice(c.pos, c.end)}\n`)
    .join('');
}

function applyEdits(text: string, edits: Edit[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start);
  let out = text;
  let limit = Infinity;
  for (const e of sorted) {
    if (e.end > limit) throw new Error('generator bug: overlapping type-removal edits');
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
    limit = e.start;
  }
  return out;
}

/** Modifiers JavaScript has not (a function, so that loading this module does not load the compiler). */
const tsOnlyModifiers = (): ReadonlySet<ts.SyntaxKind> =>
  new Set<ts.SyntaxKind>([
    typescript.SyntaxKind.DeclareKeyword,
    typescript.SyntaxKind.AbstractKeyword,
    typescript.SyntaxKind.PublicKeyword,
    typescript.SyntaxKind.PrivateKeyword,
    typescript.SyntaxKind.ProtectedKeyword,
    typescript.SyntaxKind.ReadonlyKeyword,
    typescript.SyntaxKind.OverrideKeyword,
  ]);

/** Parses the JavaScript as TypeScript and fails on any TypeScript-only syntax left in it. */
function assertNoTypeSyntax(js: string): void {
  const source = typescript.createSourceFile('generated.ts', js, typescript.ScriptTarget.Latest, true, typescript.ScriptKind.TS);
  const parseErrors = (source as unknown as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? [];
  if (parseErrors.length > 0)
    throw new Error(`generator bug: the JavaScript module does not parse: ${typescript.flattenDiagnosticMessageText(parseErrors[0]?.messageText ?? '', ' ')}`);
  const onlyTs = tsOnlyModifiers();
  const visit = (node: ts.Node): void => {
    if (
      typescript.isTypeNode(node) ||
      typescript.isTypeAliasDeclaration(node) ||
      typescript.isInterfaceDeclaration(node) ||
      typescript.isAsExpression(node) ||
      typescript.isSatisfiesExpression(node) ||
      typescript.isNonNullExpression(node) ||
      typescript.isEnumDeclaration(node) ||
      typescript.isModuleDeclaration(node) ||
      typescript.isImportEqualsDeclaration(node) ||
      (typescript.isExportAssignment(node) && node.isExportEquals) ||
      (typescript.canHaveModifiers(node) && typescript.getModifiers(node)?.some((m) => onlyTs.has(m.kind))) ||
      (typescript.isImportDeclaration(node) && node.importClause?.isTypeOnly) ||
      (typescript.isImportSpecifier(node) && node.isTypeOnly)
    ) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      throw new Error(`generator bug: type syntax left in the JavaScript module at line ${line + 1}: ${node.getText(source)}`);
    }
    typescript.forEachChild(node, visit);
  };
  visit(source);
}
