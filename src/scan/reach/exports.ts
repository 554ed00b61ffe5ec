import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { isStringLike, propertyName, skipWrappers } from '../syntax.js';
import type { ReachValue } from '../types.js';
import { bindingValue, functionValue, reachValueOf, type ReachContext } from './convert.js';
import { member, unknown } from './values.js';

/**
 * What a module exports under a name, as a `ReachValue` (issue 40, item 3): `export const`,
 * `export function`, `export default`, `export { a as b }`, re-exports (`export { x } from`,
 * `export * as ns from`), and CommonJS (`module.exports = …`, `exports.a = …`). `stars` are the
 * modules of `export * from …`, asked in turn when the module itself has no such export.
 */
export interface ExportLookup {
  value?: ReachValue;
  stars: string[];
}

const hasExport = (st: ts.Statement): boolean =>
  typescript.canHaveModifiers(st) && !!typescript.getModifiers(st)?.some((m) => m.kind === typescript.SyntaxKind.ExportKeyword);
const hasDefault = (st: ts.Statement): boolean =>
  typescript.canHaveModifiers(st) && !!typescript.getModifiers(st)?.some((m) => m.kind === typescript.SyntaxKind.DefaultKeyword);

export function exportedValue(name: string, rc: ReachContext): ExportLookup {
  const sf = rc.cx.sf;
  const stars: string[] = [];
  const found: ReachValue[] = [];
  const local = (id: string, at: number): ReachValue => {
    const b = rc.bindings().lookup(id, at);
    return b ? bindingValue(id, b, rc) : unknown(`\`${id}\` is not declared in ${rc.cx.scan.file}`);
  };
  for (const st of sf.statements) {
    if (typescript.isExportDeclaration(st)) {
      const spec = st.moduleSpecifier && isStringLike(st.moduleSpecifier) ? st.moduleSpecifier.text : undefined;
      if (st.isTypeOnly) continue;
      const clause = st.exportClause;
      if (!clause) {
        if (spec !== undefined) stars.push(spec);
        continue;
      }
      if (typescript.isNamespaceExport(clause)) {
        if (clause.name.text === name && spec !== undefined) found.push({ k: 'import', from: rc.cx.fileAbs, specifier: spec, name: '*' });
        continue;
      }
      for (const el of clause.elements) {
        if (el.name.text !== name || el.isTypeOnly) continue;
        const inner = (el.propertyName ?? el.name).text;
        found.push(spec !== undefined ? { k: 'import', from: rc.cx.fileAbs, specifier: spec, name: inner } : local(inner, st.end - 1));
      }
    } else if (typescript.isExportAssignment(st)) {
      // `export default x` (ESM), `export = x` (CommonJS in TypeScript)
      if (!st.isExportEquals && name === 'default') found.push(reachValueOf(st.expression, rc));
      if (st.isExportEquals) found.push(name === 'default' ? reachValueOf(st.expression, rc) : member(reachValueOf(st.expression, rc), name));
    } else if (hasExport(st)) {
      const own = declaredExport(st, name, rc);
      if (own) found.push(own);
    } else if (typescript.isExpressionStatement(st)) {
      const cjs = commonJsExport(st.expression, name, rc);
      if (cjs) found.push(cjs);
    }
  }
  return found.length > 0 ? { value: found.length === 1 ? found[0]! : { k: 'all', of: found }, stars } : { stars };
}

/** `export const a = …`, `export function a() {}`, `export default function () {}`, `export class A`. */
function declaredExport(st: ts.Statement, name: string, rc: ReachContext): ReachValue | undefined {
  const isDefault = hasDefault(st);
  if (typescript.isFunctionDeclaration(st)) {
    if ((isDefault && name === 'default') || st.name?.text === name) return functionValue(st, rc);
    return undefined;
  }
  if (typescript.isClassDeclaration(st)) {
    if ((isDefault && name === 'default') || st.name?.text === name) return unknown(`the class \`${st.name?.text ?? 'default'}\` is not followed`);
    return undefined;
  }
  if (typescript.isEnumDeclaration(st)) return st.name.text === name ? { k: 'none' } : undefined;
  if (!typescript.isVariableStatement(st)) return undefined;
  for (const d of st.declarationList.declarations) {
    const ids = typescript.isIdentifier(d.name) ? [d.name] : bindingIdentifiers(d.name);
    const id = ids.find((i) => i.text === name);
    if (id) {
      const b = rc.bindings().lookup(name, id.end - 1);
      return b ? bindingValue(name, b, rc) : unknown(`\`${name}\` is not read`);
    }
  }
  return undefined;
}

/** `module.exports = x`, `module.exports.a = x`, `exports.a = x`. */
function commonJsExport(e: ts.Expression, name: string, rc: ReachContext): ReachValue | undefined {
  const x = skipWrappers(e);
  if (!typescript.isBinaryExpression(x) || x.operatorToken.kind !== typescript.SyntaxKind.EqualsToken) return undefined;
  const left = skipWrappers(x.left);
  const isModuleExports = (n: ts.Expression): boolean =>
    typescript.isPropertyAccessExpression(n) && n.name.text === 'exports' && typescript.isIdentifier(n.expression) && n.expression.text === 'module';
  if (isModuleExports(left)) return name === 'default' ? reachValueOf(x.right, rc) : member(reachValueOf(x.right, rc), name);
  if (!typescript.isPropertyAccessExpression(left) && !typescript.isElementAccessExpression(left)) return undefined;
  const key = typescript.isPropertyAccessExpression(left) ? left.name.text : propertyName(left.argumentExpression as ts.PropertyName);
  const holder = skipWrappers(left.expression);
  const isExports = (typescript.isIdentifier(holder) && holder.text === 'exports') || isModuleExports(holder);
  return isExports && key === name ? reachValueOf(x.right, rc) : undefined;
}

function bindingIdentifiers(name: ts.BindingName): ts.Identifier[] {
  if (typescript.isIdentifier(name)) return [name];
  return name.elements.flatMap((el) => (typescript.isOmittedExpression(el) ? [] : bindingIdentifiers(el.name)));
}
