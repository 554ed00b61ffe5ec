import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';
import { bindingsOf, isAgentClass, moduleValue, requiredModule, type Binding, type GeneratedMatch, type ModuleLinks } from './imports.js';
import { bindingNames, dynamicImportOf, isStringLike, propertyName, skipWrappers } from './syntax.js';
import type { ModuleImport, SdkValue } from './types.js';

// What a file's names and expressions are worth to the scan: SDK values through imports, aliases,
// barrels and CommonJS exports.

/** The SDK values a module exports, for a barrel's importers. */
export interface SdkExports {
  named: Map<string, SdkValue>;
  /** `export * from` a module that leads to the SDK. */
  stars: SdkValue[];
  /**
   * Names the module exports itself that are no SDK value (`export class RunState`): TypeScript's
   * rule, a module's own export wins over its `export *`, so the star's member of that name is hidden.
   */
  own?: ReadonlySet<string>;
}

/** The value of a barrel: its exports by name, falling back to its `export *` modules. */
export function barrelValue(specifier: string, exp: SdkExports): SdkValue | undefined {
  if (exp.named.size === 0 && exp.stars.length === 0) return undefined;
  return {
    kind: 'module',
    module: specifier,
    member: (name) => {
      const named = exp.named.get(name);
      if (named) return named;
      if (exp.own?.has(name)) return undefined;
      for (const star of exp.stars) {
        if (name === 'default') break;
        const m = star.kind === 'module' ? star.member(name) : undefined;
        if (m) return m;
      }
      return undefined;
    },
  };
}

/** Whether a binding or scope entry is an SDK value. */
export const sdkValueOf = (b: Binding | null | undefined): SdkValue | undefined => (b && b.kind === 'sdk' ? b.value : undefined);

/**
 * The file's top-level bindings: its imports, then top-level aliases in order
 * (`const t = sdk.tool`, `const { tool } = sdk`, `const sdk = await import('@openai/agents')`).
 */
export function topLevelBindings(sf: ts.SourceFile, imports: ModuleImport[], match: GeneratedMatch, links: ModuleLinks | undefined): Map<string, Binding> {
  const bindings = bindingsOf(imports, match, links);
  const lookup = (name: string) => bindings.get(name);
  for (const st of sf.statements) {
    if (!typescript.isVariableStatement(st)) continue;
    for (const d of st.declarationList.declarations) {
      if (!d.initializer || requiredModule(d.initializer) !== undefined) continue;
      for (const [name, value] of aliasValues(d, (e) => valueOfExpr(e, lookup, match.fileAbs, links))) {
        bindings.set(name, { kind: 'sdk', value, via: value.kind === 'module' ? 'namespace' : 'named' });
      }
    }
  }
  return bindings;
}

/** The SDK values a file exports (re-exports, exported aliases, `export default`, CommonJS exports). */
export function sdkExportsOf(sf: ts.SourceFile, bindings: Map<string, Binding>, fileAbs: string | undefined, links: ModuleLinks | undefined): SdkExports {
  const named = new Map<string, SdkValue>();
  const stars: SdkValue[] = [];
  const lookup = (name: string) => bindings.get(name);
  const exprValue = (e: ts.Expression) => valueOfExpr(e, lookup, fileAbs, links);
  const exportObject = (obj: ts.ObjectLiteralExpression): void => {
    for (const p of obj.properties) {
      if (typescript.isShorthandPropertyAssignment(p)) {
        const v = sdkValueOf(lookup(p.name.text));
        if (v) named.set(p.name.text, v);
      } else if (typescript.isPropertyAssignment(p)) {
        const key = propertyName(p.name);
        const v = exprValue(p.initializer);
        if (key !== undefined && v) named.set(key, v);
      } else if (typescript.isSpreadAssignment(p)) {
        const v = exprValue(p.expression);
        if (v) stars.push(v);
      }
    }
  };
  const subclasses = agentSubclasses(sf, exprValue);
  for (const st of sf.statements) {
    if (typescript.isClassDeclaration(st) && st.name && subclasses.has(st.name.text) && hasModifier(st, typescript.SyntaxKind.ExportKeyword))
      named.set(hasModifier(st, typescript.SyntaxKind.DefaultKeyword) ? 'default' : st.name.text, subclasses.get(st.name.text)!);
    if (typescript.isExportDeclaration(st)) {
      if (st.isTypeOnly) continue;
      if (st.moduleSpecifier && typescript.isStringLiteral(st.moduleSpecifier)) {
        const from = moduleValue(st.moduleSpecifier.text, fileAbs, links);
        if (from?.kind !== 'module') continue;
        const clause = st.exportClause;
        if (!clause) stars.push(from);
        else if (typescript.isNamespaceExport(clause)) named.set(clause.name.text, from);
        else
          for (const el of clause.elements) {
            if (el.isTypeOnly) continue;
            const v = from.member((el.propertyName ?? el.name).text);
            if (v) named.set(el.name.text, v);
          }
      } else if (st.exportClause && typescript.isNamedExports(st.exportClause)) {
        for (const el of st.exportClause.elements) {
          if (el.isTypeOnly) continue;
          const local = (el.propertyName ?? el.name).text;
          const v = sdkValueOf(lookup(local)) ?? subclasses.get(local);
          if (v) named.set(el.name.text, v);
        }
      }
    } else if (typescript.isExportAssignment(st)) {
      const e = skipWrappers(st.expression);
      const v = exprValue(st.expression) ?? (typescript.isIdentifier(e) ? subclasses.get(e.text) : undefined);
      if (v && st.isExportEquals) stars.push(v);
      else if (v) named.set('default', v);
    } else if (typescript.isVariableStatement(st) && typescript.getModifiers(st)?.some((m) => m.kind === typescript.SyntaxKind.ExportKeyword)) {
      for (const d of st.declarationList.declarations) {
        for (const name of bindingNames(d.name)) {
          const v = sdkValueOf(lookup(name));
          if (v) named.set(name, v);
        }
      }
    } else if (
      typescript.isExpressionStatement(st) &&
      typescript.isBinaryExpression(st.expression) &&
      st.expression.operatorToken.kind === typescript.SyntaxKind.EqualsToken
    ) {
      // CommonJS: `module.exports = ...`, `module.exports.x = ...`, `exports.x = ...`.
      const target = st.expression.left;
      const value = skipWrappers(st.expression.right);
      const text = typescript.isPropertyAccessExpression(target) ? target.getText(sf) : '';
      if (text === 'module.exports') {
        if (typescript.isObjectLiteralExpression(value)) exportObject(value);
        else {
          const v = exprValue(value);
          if (v?.kind === 'module') stars.push(v);
          else if (v) named.set('default', v);
        }
      } else if (typescript.isPropertyAccessExpression(target) && /^(?:module\.)?exports\.[^.]+$/.test(text)) {
        const v = exprValue(value);
        if (v) named.set(target.name.text, v);
      }
    }
  }
  const own = ownExports(sf);
  return own.size > 0 ? { named, stars, own } : { named, stars };
}

/** The names `sf` exports by a declaration or an export list of its own (those that are SDK values are in `named`, read first). */
function ownExports(sf: ts.SourceFile): Set<string> {
  const own = new Set<string>();
  for (const st of sf.statements) {
    if (typescript.isExportDeclaration(st)) {
      if (st.exportClause && typescript.isNamedExports(st.exportClause)) for (const el of st.exportClause.elements) own.add(el.name.text);
      continue;
    }
    if (!hasModifier(st, typescript.SyntaxKind.ExportKeyword) || hasModifier(st, typescript.SyntaxKind.DefaultKeyword)) continue;
    if (typescript.isVariableStatement(st)) for (const d of st.declarationList.declarations) for (const n of bindingNames(d.name)) own.add(n);
    const name = (st as ts.Statement & { name?: ts.Node }).name;
    if (name !== undefined && typescript.isIdentifier(name)) own.add(name.text);
  }
  return own;
}

const hasModifier = (node: ts.Node, kind: ts.SyntaxKind): boolean =>
  typescript.canHaveModifiers(node) && (typescript.getModifiers(node)?.some((m) => m.kind === kind) ?? false);

/**
 * The file's top-level classes that extend an SDK agent class (`class OpsAgent extends
 * SandboxAgent {}`), directly or through other classes of the file: each as the SDK class, with the
 * first class on the way that declares members (it may change what a `new` of it shows). Exported,
 * they are what an importer's `new OpsAgent(...)` makes, so the barrels carry them.
 */
function agentSubclasses(sf: ts.SourceFile, exprValue: (e: ts.Expression) => SdkValue | undefined): Map<string, SdkValue & { kind: 'member' }> {
  const classes = new Map<string, ts.ClassDeclaration>();
  for (const st of sf.statements) if (typescript.isClassDeclaration(st) && st.name) classes.set(st.name.text, st);
  const out = new Map<string, SdkValue & { kind: 'member' }>();
  if (classes.size === 0) return out;
  const of = (name: string, depth: number): (SdkValue & { kind: 'member' }) | undefined => {
    const cls = classes.get(name);
    const base = cls?.heritageClauses?.find((h) => h.token === typescript.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
    if (!cls || !base || depth > 8) return undefined;
    const v = exprValue(base);
    const b = skipWrappers(base);
    const found =
      v?.kind === 'member'
        ? isAgentClass(v.module, v.member)
          ? v
          : undefined
        : typescript.isIdentifier(b) && b.text !== name
          ? of(b.text, depth + 1)
          : undefined;
    if (!found) return undefined;
    return cls.members.length > 0 && found.changedBy === undefined ? { ...found, changedBy: name } : found;
  };
  for (const name of classes.keys()) {
    const v = of(name, 0);
    if (v) out.set(name, v);
  }
  return out;
}

/** The names a variable declaration binds to SDK values: `const t = sdk.tool`, `const { tool: t } = sdk`. */
export function aliasValues(d: ts.VariableDeclaration, exprValue: (e: ts.Expression) => SdkValue | undefined): Array<[string, SdkValue]> {
  if (!d.initializer) return [];
  const v = exprValue(d.initializer);
  if (!v) return [];
  if (typescript.isIdentifier(d.name)) return [[d.name.text, v]];
  if (!typescript.isObjectBindingPattern(d.name) || v.kind !== 'module') return [];
  const out: Array<[string, SdkValue]> = [];
  for (const el of d.name.elements) {
    if (el.dotDotDotToken || !typescript.isIdentifier(el.name)) continue;
    const key = el.propertyName ? propertyName(el.propertyName) : el.name.text;
    const m = key !== undefined ? v.member(key) : undefined;
    if (m) out.push([el.name.text, m]);
  }
  return out;
}

/**
 * What an expression evaluates to, when it leads to the SDK: an identifier's binding, a member
 * (`sdk.tool`, `sdk['tool']`), `await import('m')`, `require('m')`, through wrappers and commas.
 */
export function valueOfExpr(
  expr: ts.Expression,
  lookup: (name: string) => Binding | null | undefined,
  fileAbs: string | undefined,
  links: ModuleLinks | undefined,
): SdkValue | undefined {
  const e = skipWrappers(expr);
  if (typescript.isIdentifier(e)) return sdkValueOf(lookup(e.text));
  if (typescript.isPropertyAccessExpression(e) || typescript.isElementAccessExpression(e)) {
    const key = typescript.isPropertyAccessExpression(e)
      ? e.name.text
      : isStringLike(skipWrappers(e.argumentExpression))
        ? (skipWrappers(e.argumentExpression) as ts.StringLiteral).text
        : undefined;
    if (key === undefined) return undefined;
    const base = valueOfExpr(e.expression, lookup, fileAbs, links);
    if (base?.kind === 'module') return base.member(key);
    return undefined;
  }
  if (typescript.isAwaitExpression(e)) {
    const spec = dynamicImportOf(skipWrappers(e.expression));
    return spec !== undefined ? moduleValue(spec, fileAbs, links) : undefined;
  }
  const req = requiredModule(e);
  if (req !== undefined) return moduleValue(req, fileAbs, links);
  return undefined;
}
