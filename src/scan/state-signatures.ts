import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';
import { heldFunction } from './held-function.js';
import { isStringLike } from './syntax.js';
import { collectModuleImports, importedAs } from './imports.js';

/**
 * Whether a function gives back the RunState it is handed, read from its written signature only
 * (issue 40, item 3: `run(agent, decodeInterruptResponses(answers, state))` resumes the run). Yes
 * when it is declared to return `RunState<…>`, or to return a type parameter `S` that is the
 * declared type of the parameter at `index` (`<S extends …>(answers, state: S): S`). Every
 * signature of the name must say so (overloads); no signature, or an unwritten type: no.
 */
export function returnsGivenState(signatures: readonly ts.SignatureDeclaration[], index: number): boolean {
  return signatures.length > 0 && signatures.every((s) => signatureReturnsState(s, index));
}

function signatureReturnsState(sig: ts.SignatureDeclaration, index: number): boolean {
  const ret = sig.type;
  if (!ret || !typescript.isTypeReferenceNode(ret)) return false;
  const name = typescript.isIdentifier(ret.typeName) ? ret.typeName.text : ret.typeName.right.text;
  if (name === 'RunState') return true;
  if (ret.typeArguments || !typescript.isIdentifier(ret.typeName)) return false;
  if (!sig.typeParameters?.some((p) => p.name.text === name)) return false;
  // a `this` parameter takes no argument
  const params = sig.parameters.filter((p) => !(typescript.isIdentifier(p.name) && p.name.text === 'this'));
  const param = params[index];
  if (!param?.type || params.slice(0, index + 1).some((p) => p.dotDotDotToken)) return false;
  const t = param.type;
  if (!(typescript.isTypeReferenceNode(t) && !t.typeArguments && typescript.isIdentifier(t.typeName) && t.typeName.text === name)) return false;
  // `<S>(state: S, other: S): S` may give back `other` (a new input, when `S` is a union): only the state's parameter may name `S`
  const others = [
    ...params.filter((p) => p !== param).map((p) => p.type),
    ...sig.typeParameters.filter((p) => p.name.text !== name).flatMap((p) => [p.constraint, p.default]),
  ];
  return !others.some((node) => node !== undefined && namesType(node, name));
}

/** Whether a type node mentions the identifier `name` anywhere (`S`, `S[]`, `{ a: S }`, `Promise<S>`). */
function namesType(node: ts.Node, name: string): boolean {
  if (typescript.isIdentifier(node)) return node.text === name;
  return typescript.forEachChild(node, (child) => namesType(child, name) || undefined) ?? false;
}

/**
 * The signatures of the top-level function `name` of a file: its declarations (the overloads when
 * there are some, as callers see them), or a `const` holding a function or typed as one
 * (`export declare const f: <S>(s: S) => S` in a `.d.ts`). None: not a function the file declares.
 */
export function topLevelSignatures(sf: ts.SourceFile, name: string): ts.SignatureDeclaration[] {
  const fns = sf.statements.filter((st): st is ts.FunctionDeclaration => typescript.isFunctionDeclaration(st) && st.name?.text === name);
  if (fns.length > 0) {
    const overloads = fns.filter((f) => !f.body);
    return overloads.length > 0 ? overloads : fns;
  }
  for (const st of sf.statements) {
    if (!typescript.isVariableStatement(st) || !(st.declarationList.flags & typescript.NodeFlags.Const)) continue;
    const d = st.declarationList.declarations.find((x) => typescript.isIdentifier(x.name) && x.name.text === name);
    if (d) return variableSignature(d);
  }
  return [];
}

/** A `const` typed as a function, or holding an arrow function or function expression. */
export function variableSignature(d: ts.VariableDeclaration): ts.SignatureDeclaration[] {
  if (d.type) return typescript.isFunctionTypeNode(d.type) ? [d.type] : [];
  const fn = heldFunction(d.initializer);
  return fn ? [fn] : [];
}

/** Where a module's export `name` is: signatures of the file itself, or another module's export to ask. */
export type ExportSite = { signatures: ts.SignatureDeclaration[] } | { specifier: string; name: string; star?: true };

/**
 * The places a module's export `name` may be declared ('default' for the default export): its own
 * function (`export function`, `export declare function`, `export const`), a local name or an
 * import exported under it (`export { a as name }`), a re-export (`export { a as name } from`), and
 * the modules of `export * from` (`star`: asked when nothing else names it; the first that exports it answers).
 */
export function exportSites(sf: ts.SourceFile, name: string): ExportSite[] {
  const out: ExportSite[] = [];
  const stars: ExportSite[] = [];
  for (const st of sf.statements) {
    if (typescript.isExportDeclaration(st)) {
      const spec = st.moduleSpecifier && isStringLike(st.moduleSpecifier) ? st.moduleSpecifier.text : undefined;
      if (!st.exportClause) {
        if (spec !== undefined && name !== 'default') stars.push({ specifier: spec, name, star: true });
        continue;
      }
      if (!typescript.isNamedExports(st.exportClause)) continue;
      for (const el of st.exportClause.elements) {
        if (el.name.text !== name) continue;
        const inner = (el.propertyName ?? el.name).text;
        out.push(spec !== undefined ? { specifier: spec, name: inner } : localSite(sf, inner));
      }
    } else if (exportsAs(st, name)) {
      out.push({ signatures: typescript.isFunctionDeclaration(st) && st.name ? topLevelSignatures(sf, st.name.text) : ownSignatures(st, name) });
    }
  }
  return out.length > 0 ? out : stars;
}

function ownSignatures(st: ts.Statement, name: string): ts.SignatureDeclaration[] {
  if (typescript.isFunctionDeclaration(st)) return [st];
  if (!typescript.isVariableStatement(st)) return [];
  const d = st.declarationList.declarations.find((x) => typescript.isIdentifier(x.name) && x.name.text === name);
  return d && st.declarationList.flags & typescript.NodeFlags.Const ? variableSignature(d) : [];
}

/** Whether a statement exports `name` itself (`export function name`, `export default function`, `export const name`). */
function exportsAs(st: ts.Statement, name: string): boolean {
  const mods = typescript.canHaveModifiers(st) ? (typescript.getModifiers(st) ?? []) : [];
  if (!mods.some((m) => m.kind === typescript.SyntaxKind.ExportKeyword)) return false;
  const isDefault = mods.some((m) => m.kind === typescript.SyntaxKind.DefaultKeyword);
  if (typescript.isFunctionDeclaration(st)) return isDefault ? name === 'default' : st.name?.text === name;
  return typescript.isVariableStatement(st) && st.declarationList.declarations.some((d) => typescript.isIdentifier(d.name) && d.name.text === name);
}

/** A local name exported (`export { decode }`): the file's own function, or what it imports under that name. */
function localSite(sf: ts.SourceFile, local: string): ExportSite {
  const own = topLevelSignatures(sf, local);
  if (own.length > 0) return { signatures: own };
  return importedAs(local, collectModuleImports(sf)) ?? { signatures: [] };
}
