import type { ts } from 'ts-morph';
import { isSdkModule, type ModuleLinks, moduleValue } from './imports.js';
import { type InnerTypeDeclaration, innerTypeDeclaration } from './type-scope.js';
import { jsDocTypedefDeclaration } from './jsdoc-types.js';
import type { ModuleImport } from './types.js';
import { isNullishType } from './nullish-type.js';
import { typescript } from './typescript.js';

/*
 * Whether a written type IS one of the SDK's types (issue 40, no false alarm): the one test every
 * reader of written types shares (a local's or a parameter's declared type, a class field's, a
 * member's, React state's). A type counts only when it is a reference to a name imported from the
 * SDK's packages (under any local name, or `ns.RunState` of `import * as ns`), or to a file-local
 * alias of such a name, possibly with `| null | undefined`; for lists, as an array's element. A
 * name that is only a type argument (`Deferred<RunState>`) or appears inside another type (`{
 * resolve: (s: RunState) => void }`) does not count, nor does the app's own `RunState` (imported
 * from its own module, declared in the file, or declared by the function, class or block around
 * the name, which hides the import as TypeScript's scopes do: type-scope.ts). A union is the SDK's
 * when every alternative is (`isWrittenSdkType`), or, for a reader of answers, may be when any one
 * is (`mayBeWrittenSdkType`, session 26: fail closed, as the codemod breaks an answer on it).
 */

/** The SDK's types that answer: a run's state, its context, a realtime session. */
export const RECEIVER_TYPES: ReadonlySet<string> = new Set(['RunState', 'RunContext', 'RealtimeSession']);
/** The SDK's approval items. */
export const ITEM_TYPES: ReadonlySet<string> = new Set(['RunToolApprovalItem', 'ToolApprovalItem', 'RealtimeToolApprovalRequest']);

/** The SDK's type names a file imports: local name -> the SDK's name; namespaces under `*`. */
export interface SdkTypeNames {
  named: ReadonlyMap<string, string>;
  namespaces: ReadonlySet<string>;
  /** The scan's resolver of a name to the SDK's export through the app's barrels and aliases, when the caller has it. */
  viaBarrels?: (name: ts.Identifier) => string | undefined;
  /** What a name (or `namespace.name`) imported from another file of the app stands for there (imported-types.ts), when the scan reads other files. */
  imported?: (local: string, namespace?: string) => ImportedType | undefined;
  /** What `import('specifier').name` stands for in that file of the app (imported-types.ts), when the scan reads other files. */
  importType?: (specifier: string, name: string) => ImportedType | undefined;
  /** The variable another file of the app exports as the value imported under `local` (`typeof api.load`), read with that file's names. */
  importedValue?: (local: string) => ImportedValue | undefined;
}

/** A variable another file of the app exports (`export const api = { load(): RunState {…} }`), with that file's names. */
export interface ImportedValue {
  /** The variable exported; none for a default export of an expression (`export default { … }`), whose expression is `value`. */
  decl?: ts.VariableDeclaration;
  value?: ts.Expression;
  sf: ts.SourceFile;
  names: SdkTypeNames;
}

/** A type name of another file of the app: the SDK's own, or that file's declaration, read with that file's names. */
export type ImportedType =
  | { kind: 'sdk'; name: string }
  | {
      kind: 'declared';
      decl: ts.TypeAliasDeclaration | ts.InterfaceDeclaration | ts.ClassDeclaration;
      sf: ts.SourceFile;
      names: SdkTypeNames;
      /** An interface's declarations other files merge into it (`declare module './types.js' { interface Pending {…} }`). */
      merged?: readonly MergedInterface[];
    };

/** An interface declaration merged into another file's interface, read with its own file's names. */
export interface MergedInterface {
  decl: ts.InterfaceDeclaration;
  sf: ts.SourceFile;
  names: SdkTypeNames;
}

/**
 * The SDK's names among the file's top-level imports, as its scan collected them (type-only
 * imports too: types are often imported so). `import sdk = require('@openai/agents')` gives the
 * namespace `sdk` (`sdk.RunState` is a valid type), and a `require` its names (a class made by
 * `new` in plain JavaScript): the SDK's either way, so they count (fail closed).
 */
export function sdkTypeNames(imports: readonly ModuleImport[], viaBarrels?: (name: ts.Identifier) => string | undefined): SdkTypeNames {
  const named = new Map<string, string>();
  const namespaces = new Set<string>();
  for (const imp of imports) {
    if (!isSdkModule(imp.module)) continue;
    if (imp.namespaceName !== undefined) namespaces.add(imp.namespaceName);
    for (const n of imp.named) named.set(n.local, n.imported);
  }
  return { named, namespaces, ...(viaBarrels ? { viaBarrels } : {}) };
}

/**
 * The SDK's export a type-only import names through the app's own barrel (`import type { RunState }
 * from './sdk.js'` of `export * from '@openai/agents'`): the scan binds no value to a type-only
 * import, so the value resolver does not see it, while the type it names is the SDK's all the same.
 */
export function typeImportedSdkName(local: string, imports: readonly ModuleImport[], fileAbs: string, links: ModuleLinks | undefined): string | undefined {
  for (const imp of imports) {
    if (imp.syntax !== 'import' || isSdkModule(imp.module)) continue;
    const spec = imp.named.find((n) => n.local === local && n.typeOnly);
    if (!spec) continue;
    const from = moduleValue(imp.module, fileAbs, links);
    const member = from?.kind === 'module' ? from.member(spec.imported) : undefined;
    return member?.kind === 'member' && isSdkModule(member.module) ? member.member : undefined;
  }
  return undefined;
}

/**
 * The aliases (and type parameters) a test has followed (`type Item = RunToolApprovalItem`, a chain
 * of renames across an app's layers): one met again is a cycle, and the test ends there; no count
 * of renames is too many.
 */
type Seen = ReadonlySet<ts.Node>;
const also = (seen: Seen, decl: ts.Node): Seen => new Set([...seen, decl]);

/**
 * Whether `type` is one of the SDK's `wanted` types (`| null | undefined` allowed), a union only
 * when every alternative is; with `element`, an array of one (`T[]`, `readonly T[]`, `Array<T>`,
 * `ReadonlyArray<T>`) counts too. For readers whose wrong "yes" would hide or raise another finding.
 */
export function isWrittenSdkType(
  type: ts.TypeNode | undefined,
  wanted: ReadonlySet<string>,
  names: SdkTypeNames,
  sf: ts.SourceFile,
  opts: { element?: boolean } = {},
): boolean {
  return type !== undefined && isSdk(type, { wanted, element: opts.element === true, some: false }, names, sf, new Set());
}

/**
 * Whether a value of `type` may be one of the SDK's `wanted` types: as `isWrittenSdkType`, but a
 * union (`RunState | Review`, `(RunState | Review)[]`) when any alternative is (issue 40, fail
 * closed): the app's answer on such a value breaks when it is the SDK's state.
 */
export function mayBeWrittenSdkType(
  type: ts.TypeNode | undefined,
  wanted: ReadonlySet<string>,
  names: SdkTypeNames,
  sf: ts.SourceFile,
  opts: { element?: boolean } = {},
): boolean {
  return type !== undefined && isSdk(type, { wanted, element: opts.element === true, some: true }, names, sf, new Set());
}

/** What the test looks for: the SDK's names, whether a list of them counts, and whether any alternative of a union is enough. */
interface Wanted {
  wanted: ReadonlySet<string>;
  element: boolean;
  some: boolean;
}

function isSdk(type: ts.TypeNode, w: Wanted, names: SdkTypeNames, sf: ts.SourceFile, seen: Seen): boolean {
  const { wanted, element } = w;
  if (typescript.isParenthesizedTypeNode(type)) return isSdk(type.type, w, names, sf, seen);
  if (typescript.isUnionTypeNode(type)) {
    const rest = type.types.filter((t) => !isNullishType(t));
    return w.some ? rest.some((t) => isSdk(t, w, names, sf, seen)) : rest.length > 0 && rest.every((t) => isSdk(t, w, names, sf, seen));
  }
  // `RunState<…> & Extra` is a RunState, whatever else it is: any part (for either test)
  if (typescript.isIntersectionTypeNode(type)) return type.types.some((t) => isSdk(t, w, names, sf, seen));
  if (element) {
    if (typescript.isArrayTypeNode(type)) return isSdk(type.elementType, { ...w, element: false }, names, sf, seen);
    if (typescript.isTypeOperatorNode(type) && type.operator === typescript.SyntaxKind.ReadonlyKeyword) return isSdk(type.type, w, names, sf, seen);
  }
  // `import('@openai/agents').RunState`, or a name another file of the app exports named so
  if (typescript.isImportTypeNode(type)) return isImportTypeSdk(type, w, names, seen);
  if (!typescript.isTypeReferenceNode(type)) return false;
  const ref = type.typeName;
  if (typescript.isQualifiedName(ref)) {
    if (!typescript.isIdentifier(ref.left)) return false;
    if (names.namespaces.has(ref.left.text)) return wanted.has(ref.right.text);
    // `sdk.RunState` of `import type * as sdk from './sdk.js'`, the app's barrel
    return isImportedSdk(names.imported?.(ref.right.text, ref.left.text), w, seen);
  }
  const local = ref.text;
  // a type the function, class or block declares (a local alias, a type parameter) hides the file's import
  const inner = innerTypeDeclaration(local, type, sf);
  if (inner !== undefined) return isInnerSdk(inner, w, names, sf, seen);
  if (element && /^(?:Readonly)?Array$/.test(local) && type.typeArguments?.length === 1 && !declaredInFile(local, sf))
    return isSdk(type.typeArguments[0]!, { ...w, element: false }, names, sf, seen);
  const imported = names.named.get(local);
  if (imported !== undefined) return wanted.has(imported);
  // `import type { RunState } from './sdk.js'` of a barrel that re-exports the SDK
  const reexported = names.viaBarrels?.(ref);
  if (reexported !== undefined) return wanted.has(reexported);
  // a file-local alias of the SDK's type (`type Item = RunToolApprovalItem`, a JavaScript `/** @typedef {RunState} S *\/`)
  const alias =
    sf.statements.find((s): s is ts.TypeAliasDeclaration => typescript.isTypeAliasDeclaration(s) && s.name.text === local) ??
    jsDocTypedefDeclaration(sf, local);
  if (alias !== undefined) return !seen.has(alias) && isSdk(alias.type, w, names, sf, also(seen, alias));
  // a name another file of the app exports: the SDK's re-exported, or an alias that file declares
  return isImportedSdk(names.imported?.(local), w, seen);
}

/** A local alias is read as the file's are; a type parameter as its constraint (fail closed: `<S extends RunState>` is one); a local interface, class or enum is the app's. */
function isInnerSdk(inner: InnerTypeDeclaration, w: Wanted, names: SdkTypeNames, sf: ts.SourceFile, seen: Seen): boolean {
  const written = typescript.isTypeAliasDeclaration(inner) ? inner.type : typescript.isTypeParameterDeclaration(inner) ? inner.constraint : undefined;
  return written !== undefined && !seen.has(inner) && isSdk(written, w, names, sf, also(seen, inner));
}

/**
 * The module and name an import type names (`import(…).Pending` of `./types.js`), or undefined for
 * `typeof import(…)` (a module's value, no type), a namespace's member or a computed module.
 */
export function importTypeName(type: ts.ImportTypeNode): { specifier: string; name: string } | undefined {
  const arg = type.argument;
  if (type.isTypeOf || !typescript.isLiteralTypeNode(arg) || !typescript.isStringLiteral(arg.literal)) return undefined;
  return type.qualifier && typescript.isIdentifier(type.qualifier) ? { specifier: arg.literal.text, name: type.qualifier.text } : undefined;
}

function isImportTypeSdk(type: ts.ImportTypeNode, w: Wanted, names: SdkTypeNames, seen: Seen): boolean {
  const at = importTypeName(type);
  if (at === undefined) return false;
  if (isSdkModule(at.specifier)) return w.wanted.has(at.name);
  return isImportedSdk(names.importType?.(at.specifier, at.name), w, seen);
}

function isImportedSdk(found: ImportedType | undefined, w: Wanted, seen: Seen): boolean {
  if (found?.kind === 'sdk') return w.wanted.has(found.name);
  return (
    found?.kind === 'declared' &&
    typescript.isTypeAliasDeclaration(found.decl) &&
    !seen.has(found.decl) &&
    isSdk(found.decl.type, w, found.names, found.sf, also(seen, found.decl))
  );
}

/**
 * Whether a value's class (`RealtimeSession` of `new RealtimeSession(agent)`) is one of the SDK's
 * `wanted` classes: a name imported from the SDK (or through the app's barrels), or `ns.X` of `import
 * * as ns` from it. A class the file declares, or imports from the app's own module, is the app's.
 */
export function isSdkClass(callee: ts.Expression, wanted: ReadonlySet<string>, names: SdkTypeNames): boolean {
  if (typescript.isPropertyAccessExpression(callee))
    return typescript.isIdentifier(callee.expression) && names.namespaces.has(callee.expression.text) && wanted.has(callee.name.text);
  if (!typescript.isIdentifier(callee)) return false;
  const imported = names.named.get(callee.text) ?? names.viaBarrels?.(callee);
  return imported !== undefined && wanted.has(imported);
}

function declaredInFile(name: string, sf: ts.SourceFile): boolean {
  return sf.statements.some(
    (s) => (typescript.isTypeAliasDeclaration(s) || typescript.isInterfaceDeclaration(s) || typescript.isClassDeclaration(s)) && s.name?.text === name,
  );
}
