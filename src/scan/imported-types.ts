import type { ts } from 'ts-morph';
import { collectModuleImports, isSdkModule } from './imports.js';
import { jsDocTypedefDeclaration } from './jsdoc-types.js';
import { type Augmentation, augmentedInterfaces } from './module-augmentations.js';
import type { ModuleImport } from './types.js';
import { typescript } from './typescript.js';
import { type ImportedType, type ImportedValue, type MergedInterface, type SdkTypeNames, sdkTypeNames } from './written-sdk-type.js';

/*
 * A type name imported from another file of the app, followed to what that file exports under it
 * (issue 40: `import type { Pending } from './types.js'` of `export interface Pending { state:
 * RunState }`, or `import type { RunState } from './sdk.js'` of `export type { RunState } from
 * '@openai/agents'`). The written-type readers ask it where a name is neither the SDK's nor declared
 * in the file; the declaration it finds is read with ITS file's imports, so `RunState` there is the
 * SDK's only when that file imports it from the SDK (or from a file that does, followed the same way).
 * TypeScript's rule for a module's names holds: a name the module declares or exports itself wins
 * over its `export *`. What cannot be read (a package outside the repo, a chain too long) is
 * undefined: the reader then decides as it did without this file.
 */

/** Reads the module `specifier` names from `fromFile` (a file of the repo): its tree and absolute path; the repo scan gives it. */
export type ModuleTreeReader = (specifier: string, fromFile: string) => ModuleTree | undefined;

/** A module of the app as read: its tree and path, and the other files' augmentations of it when the reader has the repo's (module-augmentations.ts). */
export interface ModuleTree {
  sf: ts.SourceFile;
  abs: string;
  augmentations?: () => readonly Augmentation[];
}

/** How many files one name is followed through (`server.ts` -> `index.ts` -> `types.ts` -> `sdk.ts`). */
const CHAIN = 6;

/**
 * The SDK's type names a file imports (sdkTypeNames), with its imports of other files of the app
 * followed when a reader of modules is given.
 */
export function typeNamesOf(
  imports: readonly ModuleImport[],
  fileAbs: string | undefined,
  read: ModuleTreeReader | undefined,
  viaBarrels?: (name: ts.Identifier) => string | undefined,
  depth = 0,
): SdkTypeNames {
  const names = sdkTypeNames(imports, viaBarrels);
  if (!read || fileAbs === undefined) return names;
  return {
    ...names,
    imported: (local, namespace) => importedType(imports, fileAbs, read, local, namespace, depth),
    // an import type, `import(…).Pending` of `./types.js`: the module named in place, as an import statement's is
    importType: (specifier, name) => (depth >= CHAIN ? undefined : fromModule(specifier, fileAbs, name, read, depth)),
    importedValue: (local) => importedValue(imports, fileAbs, read, local, depth),
  };
}

/** The variable declaration (or default export) the value imported as `local` is, in the file of the app that exports it (through `export { a as b }` and re-exports). */
function importedValue(imports: readonly ModuleImport[], fileAbs: string, read: ModuleTreeReader, local: string, depth: number): ImportedValue | undefined {
  if (depth >= CHAIN) return undefined;
  for (const imp of imports) {
    if (imp.syntax !== 'import' || isSdkModule(imp.module)) continue;
    const name = imp.defaultName === local ? 'default' : imp.named.find((n) => n.local === local)?.imported;
    if (name === undefined) continue;
    const tree = read(imp.module, fileAbs);
    return tree && exportedValue(tree, name, read, depth + 1);
  }
  return undefined;
}

/** The top-level variable the module exports as `name`: `export const name = …`, `export { v as name }`, one it re-exports from a file of the app, or the default export's expression. */
function exportedValue(tree: ModuleTree, name: string, read: ModuleTreeReader, depth: number): ImportedValue | undefined {
  if (depth >= CHAIN) return undefined;
  const { sf, abs } = tree;
  const own = (n: string, exported: boolean): ImportedValue | undefined => {
    for (const s of sf.statements) {
      if (!typescript.isVariableStatement(s) || (exported && !hasExport(s))) continue;
      const decl = s.declarationList.declarations.find((d) => typescript.isIdentifier(d.name) && d.name.text === n);
      if (decl) return { decl, sf, names: typeNamesOf(collectModuleImports(sf), abs, read, undefined, depth) };
    }
    return undefined;
  };
  const found = own(name, true);
  if (found) return found;
  // `export default { load(): RunState { … } }`, `export default api`
  const assigned = name === 'default' ? sf.statements.find((s): s is ts.ExportAssignment => typescript.isExportAssignment(s) && !s.isExportEquals) : undefined;
  if (assigned) {
    const e = assigned.expression;
    return typescript.isIdentifier(e) ? own(e.text, false) : { value: e, sf, names: typeNamesOf(collectModuleImports(sf), abs, read, undefined, depth) };
  }
  for (const s of sf.statements) {
    if (!typescript.isExportDeclaration(s) || !s.exportClause || !typescript.isNamedExports(s.exportClause)) continue;
    const spec = s.exportClause.elements.find((e) => e.name.text === name);
    if (!spec) continue;
    const inner = (spec.propertyName ?? spec.name).text;
    if (!s.moduleSpecifier) return own(inner, false);
    if (!typescript.isStringLiteral(s.moduleSpecifier) || isSdkModule(s.moduleSpecifier.text)) return undefined;
    const next = read(s.moduleSpecifier.text, abs);
    return next && exportedValue(next, inner, read, depth + 1);
  }
  return undefined;
}

const hasExport = (s: ts.Statement): boolean =>
  typescript.canHaveModifiers(s) && (typescript.getModifiers(s)?.some((m) => m.kind === typescript.SyntaxKind.ExportKeyword) ?? false);

/** What `local` (or `namespace.local`) imported from a file of the app stands for there. */
function importedType(
  imports: readonly ModuleImport[],
  fileAbs: string,
  read: ModuleTreeReader,
  local: string,
  namespace: string | undefined,
  depth: number,
): ImportedType | undefined {
  if (depth >= CHAIN) return undefined;
  for (const imp of imports) {
    if (imp.syntax !== 'import' || isSdkModule(imp.module)) continue;
    if (namespace !== undefined && imp.namespaceName !== namespace) {
      // `import type { agents } from './sdk.js'` of `export * as agents from '@openai/agents'`: `agents.RunState`
      const ns = imp.named.find((n) => n.local === namespace);
      const tree = ns && read(imp.module, fileAbs);
      const spec = tree && namespaceExport(tree.sf, ns.imported);
      if (spec !== undefined) return fromModule(spec, tree!.abs, local, read, depth + 1);
      continue;
    }
    const name = namespace === undefined ? (imp.defaultName === local ? 'default' : imp.named.find((n) => n.local === local)?.imported) : local;
    if (name === undefined) continue;
    const tree = read(imp.module, fileAbs);
    return tree && exportedType(tree, name, read, depth + 1);
  }
  return undefined;
}

type TypeDeclaration = ts.TypeAliasDeclaration | ts.InterfaceDeclaration | ts.ClassDeclaration;

/** What the module `tree` exports as the type `name`: the SDK's, its own declaration, or undefined. */
function exportedType(tree: ModuleTree, name: string, read: ModuleTreeReader, depth: number): ImportedType | undefined {
  if (depth >= CHAIN) return undefined;
  const { sf, abs } = tree;
  const imports = collectModuleImports(sf);
  const local = (n: string): ImportedType | undefined => {
    const decl = declarationOf(sf, n);
    if (!decl) return undefined;
    const merged = typescript.isInterfaceDeclaration(decl) ? mergedInterfaces(tree, [n, name], read, depth) : [];
    return { kind: 'declared', decl, sf, names: typeNamesOf(imports, abs, read, undefined, depth), ...(merged.length > 0 ? { merged } : {}) };
  };
  if (name === 'default') {
    // `export default interface Pending {…}`, or `interface P {…}; export default P`
    const decl = sf.statements.find((s): s is TypeDeclaration => isTypeDeclaration(s) && isDefaultExport(s));
    if (decl) return { kind: 'declared', decl, sf, names: typeNamesOf(imports, abs, read, undefined, depth) };
    const assigned = sf.statements.find((s): s is ts.ExportAssignment => typescript.isExportAssignment(s) && !s.isExportEquals);
    const e = assigned?.expression;
    return e && typescript.isIdentifier(e) ? (local(e.text) ?? ownName(imports, abs, read, e.text, depth)) : undefined;
  }
  const own = local(name);
  if (own) return own;
  for (const s of sf.statements) {
    if (!typescript.isExportDeclaration(s) || !s.exportClause || !typescript.isNamedExports(s.exportClause)) continue;
    const spec = s.exportClause.elements.find((e) => e.name.text === name);
    if (!spec) continue;
    const inner = (spec.propertyName ?? spec.name).text;
    // `export { RunState }` of a name the file imports, or `export type { P as Pending }` of its own declaration
    if (!s.moduleSpecifier) return local(inner) ?? ownName(imports, abs, read, inner, depth);
    return typescript.isStringLiteral(s.moduleSpecifier) ? fromModule(s.moduleSpecifier.text, abs, inner, read, depth) : undefined;
  }
  // `import { RunState } from '@openai/agents'; export type Paused = …` is a declaration; a bare import is no export, but
  // TypeScript still resolves `export { X }` above: a name neither declared nor exported by a list comes only from `export *`
  for (const s of sf.statements) {
    if (!typescript.isExportDeclaration(s) || s.exportClause || !s.moduleSpecifier || !typescript.isStringLiteral(s.moduleSpecifier)) continue;
    const found = fromModule(s.moduleSpecifier.text, abs, name, read, depth);
    if (found) return found;
  }
  return undefined;
}

const isTypeDeclaration = (s: ts.Statement): s is TypeDeclaration =>
  typescript.isTypeAliasDeclaration(s) || typescript.isInterfaceDeclaration(s) || typescript.isClassDeclaration(s);

const isDefaultExport = (s: ts.Statement): boolean =>
  typescript.canHaveModifiers(s) && (typescript.getModifiers(s)?.some((m) => m.kind === typescript.SyntaxKind.DefaultKeyword) ?? false);

/** The type the module declares as `name` (a type alias, an interface, a class; a JavaScript module's `@typedef`). */
function declarationOf(sf: ts.SourceFile, name: string): TypeDeclaration | undefined {
  return sf.statements.find((s): s is TypeDeclaration => isTypeDeclaration(s) && s.name?.text === name) ?? jsDocTypedefDeclaration(sf, name);
}

/** The module `export * as name from '…'` names, or undefined. */
function namespaceExport(sf: ts.SourceFile, name: string): string | undefined {
  for (const s of sf.statements) {
    if (!typescript.isExportDeclaration(s) || !s.exportClause || !s.moduleSpecifier || !typescript.isStringLiteral(s.moduleSpecifier)) continue;
    if (typescript.isNamespaceExport(s.exportClause) && s.exportClause.name.text === name) return s.moduleSpecifier.text;
  }
  return undefined;
}

/** A name the module imports and exports again: the SDK's, or followed into its module. */
function ownName(imports: readonly ModuleImport[], abs: string, read: ModuleTreeReader, local: string, depth: number): ImportedType | undefined {
  for (const imp of imports) {
    const n = imp.syntax === 'import' ? imp.named.find((x) => x.local === local) : undefined;
    if (n) return fromModule(imp.module, abs, n.imported, read, depth);
  }
  return undefined;
}

/** `name` of the module `specifier`: the SDK's own, or what that file of the app exports. */
function fromModule(specifier: string, fromFile: string, name: string, read: ModuleTreeReader, depth: number): ImportedType | undefined {
  if (isSdkModule(specifier)) return { kind: 'sdk', name };
  const tree = read(specifier, fromFile);
  return tree && exportedType(tree, name, read, depth + 1);
}

/**
 * The interfaces other files' `declare module` blocks merge into the module's interface (named as
 * the module declares it or as it exports it), each read with its own file's names.
 */
function mergedInterfaces(tree: ModuleTree, names: readonly string[], read: ModuleTreeReader, depth: number): MergedInterface[] {
  const augmentations = tree.augmentations?.() ?? [];
  if (augmentations.length === 0) return [];
  return augmentedInterfaces(augmentations, names).map(({ decl, sf, abs }) => ({
    decl,
    sf,
    names: typeNamesOf(collectModuleImports(sf), abs, read, undefined, depth),
  }));
}
