import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { isSdkModule } from '../imports.js';
import { initializerInScope } from '../local-values.js';
import { isWrapper, skipWrappers } from '../syntax.js';
import type { FileContext } from './context.js';
import { importedBinding } from './door-exports.js';

// A tool handed to an agent from another module (issue 40 item 4, "no false green"): a literal door
// whose `type` check cannot read (`{ type: SHELL, shell }`) is reported only in a file using the SDK
// or the generated module, since other libraries write such objects (`{ type: Column.Text, editor }`).
// A module naming neither may still export one that an agent's `tools` holds: the agent's file keeps
// the imports its agents' `tools` name, and the repo scan reads those exports in such a module.

/**
 * The imports an agent's `tools` value names (`[shellTool, ...more, ns.patch]`, an imported list, a
 * list the file holds), kept in the scan; returns the object literals it holds here (`[{ ... }]`, a
 * variable of the file holding one), which file/function-objects.ts `onHandedObject` reads.
 */
export function onAgentTools(cx: FileContext, value: ts.Expression): ts.ObjectLiteralExpression[] {
  let v = skipWrappers(value);
  // a list the file holds (`const tools = [myShell]; new Agent({ tools })`), read in its scope; a
  // `let`'s initializer too (its imports are more modules to read, never fewer findings)
  const held = typescript.isIdentifier(v) ? initializerInScope(v.text, cx.ancestors, cx.hoisted) : undefined;
  const list = held ? skipWrappers(held.init) : undefined;
  if (list && typescript.isArrayLiteralExpression(list)) v = list;
  const elements = typescript.isArrayLiteralExpression(v) ? v.elements.map((e) => (typescript.isSpreadElement(e) ? e.expression : e)) : [v];
  const objects: ts.ObjectLiteralExpression[] = [];
  for (const element of elements) {
    let e = skipWrappers(element);
    if (typescript.isAwaitExpression(e)) e = skipWrappers(e.expression);
    const object = heldObject(cx, e);
    if (object) objects.push(object);
    // `makeTools()`: what the imported function returns is the agent's (`call`)
    const callee = typescript.isCallExpression(e) ? skipWrappers(e.expression) : undefined;
    const call = callee !== undefined;
    const from = importedName(cx, callee ?? e);
    if (from === undefined || isSdkModule(from.specifier)) continue;
    cx.scan.agentToolImports = cx.scan.agentToolImports ?? [];
    const kept = cx.scan.agentToolImports;
    if (!kept.some((i) => i.specifier === from.specifier && i.name === from.name && !i.call === !call)) kept.push(call ? { ...from, call } : from);
  }
  return objects;
}

/** The tools a file adds to an agent after it is made (`agent.tools.push(a, ...b)`, `agent.tools = [a]`): read as its `tools`. */
export function onAddedTools(cx: FileContext, values: readonly ts.Expression[]): ts.ObjectLiteralExpression[] {
  return values.flatMap((v) => onAgentTools(cx, typescript.isSpreadElement(v) ? v.expression : v));
}

/** An object literal written in the list, or held by a variable of the file (`const lookup = { ... }`, read in its scope). */
function heldObject(cx: FileContext, e: ts.Expression): ts.ObjectLiteralExpression | undefined {
  const held = typescript.isIdentifier(e) ? initializerInScope(e.text, cx.ancestors, cx.hoisted) : undefined;
  const v = held ? skipWrappers(held.init) : e;
  return typescript.isObjectLiteralExpression(v) ? v : undefined;
}

/** `x` of `import { y as x }` (or a default import), `ns.y` of `import * as ns`: the module and the export read (door-exports.ts `importedBinding`, no member past the export). */
function importedName(cx: FileContext, e: ts.Expression): { specifier: string; name: string } | undefined {
  const b = importedBinding(cx, e, cx.ancestors);
  return b !== undefined && b.members.length === 0 ? { specifier: b.specifier, name: b.name } : undefined;
}

/**
 * Whether an object literal is what this module exports under a name another module hands to an
 * agent's `tools` (`ScanSourceOptions.agentToolExports`): the initializer of a top-level variable
 * exported under it (or an element of one, a list of tools), or the default export; or what an
 * exported function returns (an element of the list it returns), when the agent's `tools` calls it.
 */
export function handedToAgent(cx: FileContext, node: ts.ObjectLiteralExpression): boolean {
  const names = cx.options.agentToolExports;
  if (names === undefined || names.size === 0) return false;
  // the tree has no parent links: the walk's ancestors (the last is the object's parent)
  const up = cx.ancestors;
  let i = wrapped(up, up.length - 1);
  let n: ts.Node = i + 1 < up.length ? up[i + 1]! : node;
  if (i >= 0 && typescript.isArrayLiteralExpression(up[i]!)) {
    n = up[i]!;
    i = wrapped(up, i - 1);
  }
  const p = up[i];
  if (p === undefined) return false;
  // what an exported function returns, handed to an agent by a call (`tools: makeTools()`): `name()`
  const fn = typescript.isReturnStatement(p) || (typescript.isArrowFunction(p) && p.body === n) ? returningFunction(up, i) : -1;
  if (fn < 0) return holderNames(cx, up, i, n).some((x) => names.has(x));
  const f = up[fn]!;
  const j = wrapped(up, fn - 1);
  const called = typescript.isFunctionDeclaration(f) ? (fn === 1 ? functionNames(cx.sf, f) : []) : holderNames(cx, up, j, up[j + 1]!);
  return called.some((x) => names.has(`${x}()`));
}

/**
 * The names the value `child` of `up[i]` is exported under, when `up[i]` is the default export or
 * the declaration of a top-level variable it initializes.
 */
function holderNames(cx: FileContext, up: readonly ts.Node[], i: number, child: ts.Node): string[] {
  const p = up[i];
  if (p && typescript.isExportAssignment(p)) return p.isExportEquals ? [] : ['default'];
  if (!p || !typescript.isVariableDeclaration(p) || p.initializer !== child || !typescript.isIdentifier(p.name)) return [];
  const statement = up[i - 2];
  if (!statement || !typescript.isVariableStatement(statement) || i - 2 !== 1) return [];
  return exportNames(cx.sf, p.name.text, hasExport(statement));
}

/** The names a top-level function declaration is exported under (`export function f`, `export default function`, a list). */
function functionNames(sf: ts.SourceFile, f: ts.FunctionDeclaration): string[] {
  const mods = f.modifiers ?? [];
  if (hasExport(f) && mods.some((m) => m.kind === typescript.SyntaxKind.DefaultKeyword)) return ['default'];
  return f.name ? exportNames(sf, f.name.text, hasExport(f)) : [];
}

const hasExport = (n: ts.VariableStatement | ts.FunctionDeclaration): boolean => !!n.modifiers?.some((m) => m.kind === typescript.SyntaxKind.ExportKeyword);

/** The index of the function a `return` at `up[i]` (or an arrow's expression body, `up[i]` itself) returns from, or -1. */
function returningFunction(up: readonly ts.Node[], i: number): number {
  for (let j = i; j >= 0; j--) if (typescript.isFunctionLike(up[j]!)) return j;
  return -1;
}

/** The index of the first ancestor at or above `i` that is no wrapper (parentheses, `as`, `satisfies`, `!`). */
function wrapped(up: readonly ts.Node[], i: number): number {
  let j = i;
  while (j >= 0 && isWrapper(up[j]!)) j--;
  return j;
}

/** The names a top-level variable is exported under: itself (`export const`), `export { v as n }`, `export default v`. */
function exportNames(sf: ts.SourceFile, local: string, exported: boolean): string[] {
  const out = exported ? [local] : [];
  for (const st of sf.statements) {
    if (typescript.isExportAssignment(st) && !st.isExportEquals && typescript.isIdentifier(st.expression) && st.expression.text === local) out.push('default');
    if (!typescript.isExportDeclaration(st) || st.moduleSpecifier || st.isTypeOnly || !st.exportClause || !typescript.isNamedExports(st.exportClause)) continue;
    for (const el of st.exportClause.elements) if ((el.propertyName ?? el.name).text === local) out.push(el.name.text);
  }
  return out;
}
