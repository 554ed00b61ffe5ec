import type { ts } from 'ts-morph';
import type { ModuleTreeReader } from './imported-types.js';
import { typescript } from './typescript.js';

/*
 * Whether a module of the app declares a type of its own under a name the SDK uses (issue 40): a
 * workflow engine's `interface RunState` imported by a helper is the app's type, and its
 * `approve` no SDK answer. It is the app's only when what the module exports under that name is
 * plainly its own declaration: a single one (no merging), naming no imported binding, directly or
 * through a local alias or const, and no inline `import('…')` type; and the module re-exports
 * nothing under that name and has no `export *`. Anything else stays taken for the SDK's, failing
 * closed (an app's barrel may hand out the SDK's type as well as the SDK itself).
 */

type Named = ts.Statement & { name?: ts.Node };

/**
 * The readers of the app's other files a file's scan asks, over `moduleOf` (the module a specifier
 * names from a file, when it is a file of the repo): `ownType` (scan/file/context.ts) and
 * `typeModule` (imported-types.ts). Every scan that judges an answer takes both: the repo's, and the
 * importers' search outside a package (path-importers.ts). Only a relative module is the app's own
 * file for `ownType`: a package's (or an alias to one) may be anyone's.
 */
export function typeReaders(moduleOf: ModuleTreeReader): {
  ownType: (specifier: string, fromFile: string, name: string) => boolean;
  typeModule: ModuleTreeReader;
} {
  const own = (specifier: string, fromFile: string, name: string, depth: number): boolean => {
    if (depth > 6 || (!specifier.startsWith('./') && !specifier.startsWith('../'))) return false;
    const tree = moduleOf(specifier, fromFile);
    if (tree === undefined) return false;
    // `export { RunState } from './own.js'` beside an `export *` of the SDK: the listed module's, which wins
    const listed = listedFrom(tree.sf, name);
    return listed ? own(listed.specifier, tree.abs, listed.name, depth + 1) : declaresOwnType(tree.sf, name);
  };
  return { ownType: (specifier, fromFile, name) => own(specifier, fromFile, name, 0), typeModule: moduleOf };
}

/** The module and name an `export { name } from '…'` of `sf` hands `name` out from, or undefined. */
function listedFrom(sf: ts.SourceFile, name: string): { specifier: string; name: string } | undefined {
  for (const s of sf.statements) {
    if (!typescript.isExportDeclaration(s) || !s.moduleSpecifier || !typescript.isStringLiteral(s.moduleSpecifier)) continue;
    const clause = s.exportClause;
    const el = clause && typescript.isNamedExports(clause) ? clause.elements.find((e) => e.name.text === name) : undefined;
    if (el) return { specifier: s.moduleSpecifier.text, name: (el.propertyName ?? el.name).text };
  }
  return undefined;
}

/** Whether `sf` declares a class, interface, type alias or enum named `name` that is plainly its own. */
export function declaresOwnType(sf: ts.SourceFile, name: string): boolean {
  if (reexports(sf, name)) return false;
  const decls = sf.statements.filter((s) => declaredNames(s).includes(name));
  const decl = decls[0];
  if (decls.length !== 1 || decl === undefined || !isTypeDeclaration(decl)) return false;
  const foreign = foreignNames(sf);
  // a class's members may use the SDK (a wrapper holding a run's state); what it is, its heritage and alias, may not
  return !whatItIs(decl).some((n) => namesForeign(n, foreign));
}

const isTypeDeclaration = (s: ts.Statement): s is ts.ClassDeclaration | ts.InterfaceDeclaration | ts.TypeAliasDeclaration | ts.EnumDeclaration =>
  typescript.isClassDeclaration(s) || typescript.isInterfaceDeclaration(s) || typescript.isTypeAliasDeclaration(s) || typescript.isEnumDeclaration(s);

/** Whether `sf` has an `export *`, or an export specifier handing out `name` from elsewhere or under a rename. */
function reexports(sf: ts.SourceFile, name: string): boolean {
  // TypeScript's rule: a name the module exports itself (`export interface RunState`) hides its `export *`'s
  const exportedItself = exportsOwnDeclaration(sf, name);
  return sf.statements.some((s) => {
    if (!typescript.isExportDeclaration(s)) return false;
    const clause = s.exportClause;
    if (clause === undefined) return !exportedItself;
    if (typescript.isNamespaceExport(clause)) return clause.name.text === name;
    return clause.elements.some(
      (e) => e.name.text === name && (s.moduleSpecifier !== undefined || (e.propertyName !== undefined && e.propertyName.text !== name)),
    );
  });
}

/** Whether `sf` exports a declaration named `name` itself: an `export` on it, or a local `export { name }`. */
function exportsOwnDeclaration(sf: ts.SourceFile, name: string): boolean {
  return sf.statements.some((s) => {
    if (typescript.isExportDeclaration(s))
      return (
        !s.moduleSpecifier &&
        s.exportClause !== undefined &&
        typescript.isNamedExports(s.exportClause) &&
        s.exportClause.elements.some((e) => e.name.text === name && (e.propertyName ?? e.name).text === name)
      );
    const mods = typescript.canHaveModifiers(s) ? typescript.getModifiers(s) : undefined;
    const exported = mods?.some((m) => m.kind === typescript.SyntaxKind.ExportKeyword) && !mods.some((m) => m.kind === typescript.SyntaxKind.DefaultKeyword);
    return exported === true && declaredNames(s).includes(name);
  });
}

/** The names a top-level statement declares (a variable statement's every binding name, plainly). */
function declaredNames(s: ts.Statement): string[] {
  if (typescript.isVariableStatement(s)) {
    return s.declarationList.declarations.flatMap((d) => (typescript.isIdentifier(d.name) ? [d.name.text] : []));
  }
  const n = (s as Named).name;
  return n !== undefined && typescript.isIdentifier(n) ? [n.text] : [];
}

/** The parts of a declaration that say what it is: an alias's type, a class's or interface's heritage, a const's value. */
function whatItIs(s: ts.Statement): readonly ts.Node[] {
  if (typescript.isTypeAliasDeclaration(s)) return [s.type];
  if (typescript.isClassDeclaration(s) || typescript.isInterfaceDeclaration(s)) return [...(s.heritageClauses ?? [])];
  if (typescript.isVariableStatement(s)) return s.declarationList.declarations.flatMap((d) => [d.type, d.initializer].filter((x) => x !== undefined));
  return [];
}

/** Whether `node` names one of `foreign` or holds an inline `import('…')` type. */
function namesForeign(node: ts.Node, foreign: ReadonlySet<string>): boolean {
  if (typescript.isImportTypeNode(node)) return true;
  if (typescript.isIdentifier(node) && foreign.has(node.text)) return true;
  return typescript.forEachChild(node, (c) => namesForeign(c, foreign)) === true;
}

/**
 * The module's imported bindings, and (to a fixed point) its local declarations whose alias,
 * heritage or value names one: each may stand for another module's type.
 */
function foreignNames(sf: ts.SourceFile): Set<string> {
  const foreign = new Set<string>();
  for (const s of sf.statements) {
    if (typescript.isImportEqualsDeclaration(s)) foreign.add(s.name.text);
    if (!typescript.isImportDeclaration(s) || s.importClause === undefined) continue;
    const { name, namedBindings } = s.importClause;
    if (name !== undefined) foreign.add(name.text);
    if (namedBindings === undefined) continue;
    if (typescript.isNamespaceImport(namedBindings)) foreign.add(namedBindings.name.text);
    else for (const e of namedBindings.elements) foreign.add(e.name.text);
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const s of sf.statements) {
      const fresh = declaredNames(s).filter((n) => !foreign.has(n));
      if (fresh.length === 0 || !whatItIs(s).some((n) => namesForeign(n, foreign))) continue;
      for (const n of fresh) foreign.add(n);
      grew = true;
    }
  }
  return foreign;
}
