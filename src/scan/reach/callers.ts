import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { isStringLike, skipWrappers } from '../syntax.js';
import type { ReachValue } from '../types.js';
import { hasExportModifier, type Ref } from './bindings.js';
import { reachValueOf, type ReachContext } from './convert.js';

/**
 * A function's callers in other files (issue 40, item 3): `runWithRetry(agent, prompt)` written in
 * one module and called from others. The module names its exports of the function; each importer
 * says what its calls pass, or why they cannot be listed (the function handed on, imported as a
 * namespace), and under which names it exports the function again (a barrel).
 */
export type ImportersPass = { values: ReachValue[]; reexported: string[] } | { why: string };

/** The names a local function is exported under (`export function f`, `export { f as g }`, `export default f`). */
export function exportNamesOf(local: string, rc: ReachContext): string[] {
  const out = new Set<string>();
  for (const st of rc.cx.sf.statements) {
    if ((typescript.isFunctionDeclaration(st) || typescript.isClassDeclaration(st)) && st.name?.text === local && hasExportModifier(st)) {
      const isDefault = !!typescript.getModifiers(st)?.some((m) => m.kind === typescript.SyntaxKind.DefaultKeyword);
      out.add(isDefault ? 'default' : local);
    } else if (typescript.isVariableStatement(st) && hasExportModifier(st)) {
      for (const d of st.declarationList.declarations) if (typescript.isIdentifier(d.name) && d.name.text === local) out.add(local);
    } else if (typescript.isExportDeclaration(st) && !st.moduleSpecifier && st.exportClause && typescript.isNamedExports(st.exportClause)) {
      for (const el of st.exportClause.elements) if ((el.propertyName ?? el.name).text === local) out.add(el.name.text);
    } else if (typescript.isExportAssignment(st) && !st.isExportEquals) {
      const e = skipWrappers(st.expression);
      if (typescript.isIdentifier(e) && e.text === local) out.add('default');
    }
  }
  return [...out];
}

/** In an importer: what its calls of `name` (imported from a module `isTarget` names) pass as the `index`th argument. */
export function importersPass(isTarget: (specifier: string) => boolean, name: string, index: number, rc: ReachContext): ImportersPass {
  const values: ReachValue[] = [];
  const reexported: string[] = [];
  for (const st of rc.cx.sf.statements) {
    if (typescript.isExportDeclaration(st) && st.moduleSpecifier && isStringLike(st.moduleSpecifier) && isTarget(st.moduleSpecifier.text)) {
      const clause = st.exportClause;
      if (!clause) reexported.push(name);
      else if (typescript.isNamedExports(clause))
        for (const el of clause.elements) if ((el.propertyName ?? el.name).text === name) reexported.push(el.name.text);
      continue;
    }
    for (const local of importedAs(st, isTarget, name)) {
      if (local.namespace) return { why: `a module that imports it as a namespace (${rc.cx.scan.file})` };
      const b = rc.bindings().lookup(local.name, local.pos);
      if (!b) continue;
      const passed = callsPass(rc.bindings().refsOf(local.name, b), index, local.name, rc);
      if ('why' in passed) return passed;
      values.push(...passed.values);
      if (passed.exported) reexported.push(...exportNamesOf(local.name, rc));
    }
  }
  return { values, reexported: [...new Set(reexported)] };
}

/** What the calls of a binding pass at `index`; its exports; or why its uses cannot be listed. */
function callsPass(refs: readonly Ref[], index: number, name: string, rc: ReachContext): { values: ReachValue[]; exported: boolean } | { why: string } {
  const values: ReachValue[] = [];
  let exported = false;
  for (const ref of refs) {
    if (ref.exported) {
      exported = true;
      continue;
    }
    if (!ref.call) return { why: `\`${name}\` is used other than called in ${rc.cx.scan.file}` };
    const args = ref.call.arguments ?? [];
    if (args.slice(0, index + 1).some((a) => typescript.isSpreadElement(a))) return { why: `\`${name}\` is called with a spread in ${rc.cx.scan.file}` };
    const arg = args[index];
    if (arg) values.push(reachValueOf(arg, rc));
  }
  return { values, exported };
}

/** The local names a statement imports `name` under from a module `isTarget` names (`import { name as x }`, `const { name } = require()`). */
function importedAs(st: ts.Statement, isTarget: (specifier: string) => boolean, name: string): Array<{ name: string; pos: number; namespace?: boolean }> {
  const out: Array<{ name: string; pos: number; namespace?: boolean }> = [];
  if (typescript.isImportDeclaration(st) && isStringLike(st.moduleSpecifier) && isTarget(st.moduleSpecifier.text)) {
    const clause = st.importClause;
    if (!clause || clause.isTypeOnly) return out;
    if (clause.name && name === 'default') out.push({ name: clause.name.text, pos: clause.name.end - 1 });
    const nb = clause.namedBindings;
    if (nb && typescript.isNamespaceImport(nb)) out.push({ name: nb.name.text, pos: nb.name.end - 1, namespace: true });
    if (nb && typescript.isNamedImports(nb))
      for (const el of nb.elements) if ((el.propertyName ?? el.name).text === name && !el.isTypeOnly) out.push({ name: el.name.text, pos: el.name.end - 1 });
    return out;
  }
  if (!typescript.isVariableStatement(st)) return out;
  for (const d of st.declarationList.declarations) {
    const init = d.initializer ? skipWrappers(d.initializer) : undefined;
    if (!init || !typescript.isCallExpression(init) || !typescript.isIdentifier(init.expression) || init.expression.text !== 'require') continue;
    const arg = init.arguments[0];
    if (!arg || !isStringLike(arg) || !isTarget(arg.text)) continue;
    if (typescript.isIdentifier(d.name)) out.push({ name: d.name.text, pos: d.name.end - 1, namespace: name !== 'default' });
    else if (typescript.isObjectBindingPattern(d.name)) {
      for (const el of d.name.elements) {
        const key = (el.propertyName ?? el.name) as ts.Node;
        if (typescript.isIdentifier(key) && key.text === name && typescript.isIdentifier(el.name)) out.push({ name: el.name.text, pos: el.name.end - 1 });
      }
    }
  }
  return out;
}
