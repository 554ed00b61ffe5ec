import path from 'node:path';
import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';
import { bareSpecifier } from './bare-specifier.js';
import { spanOf } from './parse.js';
import { SDK_ENTRIES, type SdkEntry } from './sdk-entries.js';
import { SDK_DOORS, givesModelSomething } from './sdk-surface.js';
import type { ImportedName, ModuleImport, SdkValue } from './types.js';

const ENTRIES = new Map(SDK_ENTRIES.map((e) => [e.specifier, e]));

/**
 * Any specifier of an `@openai/agents*` package. One the table (derived from the installed SDK)
 * does not list is still the SDK: a newer subpath is assumed to export `tool` and every `*Tool`
 * factory (fail closed), never ignored.
 */
const SDK_PATTERN = /^@openai\/agents(?:-[a-z0-9-]+)?(?:\/[^\s]*)?$/;

/**
 * Whether a specifier names the SDK: by its bare name, or by Deno's `npm:` or a URL that serves it
 * (`bareSpecifier`), so an edge function's doors are read as a Node app's are (issue 40 item 4).
 */
export function isSdkModule(specifier: string): boolean {
  const bare = bareSpecifier(specifier);
  return ENTRIES.has(bare) || SDK_PATTERN.test(bare);
}

/** The table's entry for an SDK specifier (in any form `isSdkModule` takes); an unknown subpath gets a fail-closed stand-in. */
export function sdkEntry(specifier: string): SdkEntry | undefined {
  const bare = bareSpecifier(specifier);
  const known = ENTRIES.get(bare);
  if (known) return known;
  if (!SDK_PATTERN.test(bare)) return undefined;
  return { specifier: bare, factories: ['tool'], agentClasses: ['Agent', 'RealtimeAgent'], namespaces: {} };
}

/** Whether `member` of SDK `module` makes a tool (`tool`, `hostedMcpTool`, `shellTool`, ...). */
export function isToolFactory(module: string, member: string): boolean {
  const entry = sdkEntry(module);
  if (!entry) return false;
  if (entry.factories.includes(member)) return true;
  // An entry not in the table: every `tool` / `*Tool` export counts.
  return !ENTRIES.has(entry.specifier) && /^(?:tool|[a-z][A-Za-z0-9]*Tool)$/.test(member);
}

export function isAgentClass(module: string, member: string): boolean {
  return sdkEntry(module)?.agentClasses.includes(member) ?? false;
}

/** The whole SDK module as a value, named by its bare specifier whatever form the import wrote. */
export function sdkModuleValue(specifier: string): SdkValue {
  const module = bareSpecifier(specifier);
  return { kind: 'module', module, member: (name) => sdkMemberValue(module, name) };
}

/** `module.name`: another entry's namespace (`realtime`) or an export. */
export function sdkMemberValue(module: string, name: string): SdkValue {
  const ns = sdkEntry(module)?.namespaces[name];
  if (ns) return sdkModuleValue(ns);
  return { kind: 'member', module, member: name };
}

/** Whether a value is, or holds, a tool factory (a factory itself, or a module exporting one). */
export function holdsToolFactory(v: SdkValue): boolean {
  if (v.kind === 'member') return isToolFactory(v.module, v.member);
  const entry = sdkEntry(v.module);
  if (entry) return entry.factories.length > 0 || Object.keys(entry.namespaces).length > 0;
  // A local barrel's namespace: does it export a factory under the usual names?
  const t = v.member('tool');
  return t !== undefined && t.kind === 'member' && isToolFactory(t.module, t.member);
}

/**
 * Whether `member` of SDK `module` makes a door the scanner reads where it is used (a tool factory,
 * `handoff`, `Agent`, `SandboxAgent`, a capability, `getAllMcpTools`, ...): such a value must be
 * used where check follows it (called, constructed, a member read, aliased, re-exported). The MCP
 * server classes are not: their servers are followed to `mcpServers` whatever made them.
 */
export function isTrackedDoor(module: string, member: string): boolean {
  if (isToolFactory(module, member)) return true;
  if (!isSdkModule(module)) return false;
  if (givesModelSomething(member)) return SDK_DOORS[member]?.rule !== 'mcp-server-unguarded';
  // an object holding a door (`Capabilities.default`)
  return Object.keys(SDK_DOORS).some((name) => name.startsWith(`${member}.`));
}

/** Whether a value is, or holds, a door the scanner tracks (`isTrackedDoor`, or a module exporting one). */
export function holdsDoor(v: SdkValue): boolean {
  if (v.kind === 'member') return isTrackedDoor(v.module, v.member);
  // every entry of the SDK exports a door
  if (sdkEntry(v.module)) return true;
  return TRACKED_NAMES.some((name) => {
    const m = v.member(name);
    return m !== undefined && m.kind === 'member' && isTrackedDoor(m.module, m.member);
  });
}

/** The export names a local barrel is probed for (`holdsDoor`). */
const TRACKED_NAMES = [...new Set([...SDK_ENTRIES.flatMap((e) => [...e.factories, ...e.agentClasses]), ...Object.keys(SDK_DOORS)])].filter(
  (n) => !n.includes('.'),
);

/** What a local identifier stands for, resolved syntactically from the file's imports and aliases. */
export type Binding =
  /** A value that leads to the SDK: an export (`tool`), or a whole module (`import * as agents`). */
  | { kind: 'sdk'; value: SdkValue; via: 'named' | 'namespace' | 'require'; spec?: ImportedName; importedFrom?: string }
  /** `protectedTool` imported from the generated module. */
  | { kind: 'generated'; spec: ImportedName }
  /** The generated module as a namespace (`import * as gen`): `gen.protectedTool`. */
  | { kind: 'generated-namespace' };

/**
 * Resolves an import specifier that is not the SDK's own: a package.json `imports` or tsconfig
 * `paths` alias, a workspace package, or a local module (a barrel). Returns the module's value when
 * it leads to the SDK; undefined when it does not (or cannot be resolved).
 */
export interface ModuleLinks {
  resolve(specifier: string, fromFile: string): SdkValue | undefined;
  /**
   * Whether `specifier` is a module of the repo (a relative path, an `imports` or `paths` alias, a
   * workspace package): true, false for another package, undefined when it resolves to nothing.
   */
  inRepo(specifier: string, fromFile: string): boolean | undefined;
}

/** The value of `specifier` imported from `fromFile`: the SDK itself, or what the links say. */
export function moduleValue(specifier: string, fromFile: string | undefined, links: ModuleLinks | undefined): SdkValue | undefined {
  if (isSdkModule(specifier)) return sdkModuleValue(specifier);
  if (!links || !fromFile) return undefined;
  return links.resolve(specifier, fromFile);
}

/**
 * Reads every top-level import declaration, `import x = require()` and `require` statement. Kept
 * by tree: a repo scan asks twice for each parsed file (its barrel exports, then its scan), and
 * every reader only reads the list.
 */
export function collectModuleImports(sf: ts.SourceFile): ModuleImport[] {
  let imports = importsByTree.get(sf);
  if (!imports) {
    // frozen: every reader of the tree shares the list, so none may change it (a write throws)
    imports = Object.freeze(readModuleImports(sf).map(freezeImport)) as ModuleImport[];
    importsByTree.set(sf, imports);
  }
  return imports;
}

/**
 * The file's imports as a scan's own copy: the scan counts the references to each named import in
 * it (file/references.ts), so a second scan of the same tree starts from zero again and leaves the
 * first scan's counts as they were.
 */
export function moduleImportsToCount(sf: ts.SourceFile): ModuleImport[] {
  return collectModuleImports(sf).map((imp) => ({ ...imp, named: imp.named.map((n) => ({ ...n })) }));
}

function freezeImport(imp: ModuleImport): ModuleImport {
  for (const n of imp.named) Object.freeze(n);
  Object.freeze(imp.named);
  return Object.freeze(imp);
}

const importsByTree = new WeakMap<ts.SourceFile, ModuleImport[]>();

function readModuleImports(sf: ts.SourceFile): ModuleImport[] {
  const out: ModuleImport[] = [];
  for (const st of sf.statements) {
    if (typescript.isImportDeclaration(st) && typescript.isStringLiteral(st.moduleSpecifier)) {
      const clause = st.importClause;
      const typeOnly = !!clause?.isTypeOnly;
      const imp: ModuleImport = { span: spanOf(st, sf), module: st.moduleSpecifier.text, syntax: 'import', typeOnly, named: [] };
      if (clause?.name) imp.defaultName = clause.name.text;
      const nb = clause?.namedBindings;
      if (nb && typescript.isNamespaceImport(nb)) imp.namespaceName = nb.name.text;
      if (nb && typescript.isNamedImports(nb)) {
        imp.namedSpan = spanOf(nb, sf);
        for (const el of nb.elements) {
          imp.named.push({
            imported: (el.propertyName ?? el.name).text,
            local: el.name.text,
            span: spanOf(el, sf),
            typeOnly: typeOnly || el.isTypeOnly,
            references: 0,
          });
        }
      }
      out.push(imp);
    } else if (typescript.isImportEqualsDeclaration(st)) {
      const ref = st.moduleReference;
      if (typescript.isExternalModuleReference(ref) && typescript.isStringLiteral(ref.expression)) {
        out.push({ span: spanOf(st, sf), module: ref.expression.text, syntax: 'require', typeOnly: st.isTypeOnly, named: [], namespaceName: st.name.text });
      }
    } else if (typescript.isVariableStatement(st)) {
      for (const decl of st.declarationList.declarations) {
        const module = requiredModule(decl.initializer);
        if (module === undefined) continue;
        const imp: ModuleImport = { span: spanOf(st, sf), module, syntax: 'require', typeOnly: false, named: [] };
        if (typescript.isIdentifier(decl.name)) imp.namespaceName = decl.name.text;
        else if (typescript.isObjectBindingPattern(decl.name)) {
          imp.namedSpan = spanOf(decl.name, sf);
          for (const el of decl.name.elements) {
            if (el.dotDotDotToken || !typescript.isIdentifier(el.name)) continue;
            const prop = el.propertyName;
            const imported = prop && (typescript.isIdentifier(prop) || typescript.isStringLiteral(prop)) ? prop.text : el.name.text;
            imp.named.push({ imported, local: el.name.text, span: spanOf(el, sf), typeOnly: false, references: 0 });
          }
        }
        out.push(imp);
      }
    }
  }
  return out;
}

/**
 * The module and export a local name is imported as by an `import` (not a type-only one); with
 * `everyForm`, also by a `require` or a namespace import (`*`). Undefined when it is not imported so.
 */
export function importedAs(
  local: string,
  imports: readonly ModuleImport[],
  forms: { everyForm?: boolean } = {},
): { specifier: string; name: string } | undefined {
  for (const imp of imports) {
    if (imp.typeOnly || (imp.syntax !== 'import' && !forms.everyForm)) continue;
    if (imp.defaultName === local) return { specifier: imp.module, name: 'default' };
    if (forms.everyForm && imp.namespaceName === local) return { specifier: imp.module, name: '*' };
    const named = imp.named.find((n) => n.local === local && !n.typeOnly);
    if (named) return { specifier: imp.module, name: named.imported };
  }
  return undefined;
}

/** `require('m')` (also `require("m")`, a template without substitutions), the module name; undefined otherwise. */
export function requiredModule(expr: ts.Expression | undefined): string | undefined {
  if (!expr || !typescript.isCallExpression(expr)) return undefined;
  if (!typescript.isIdentifier(expr.expression) || expr.expression.text !== 'require') return undefined;
  const arg = expr.arguments[0];
  if (expr.arguments.length !== 1 || !arg || !(typescript.isStringLiteral(arg) || typescript.isNoSubstitutionTemplateLiteral(arg))) return undefined;
  return arg.text;
}

export interface GeneratedMatch {
  /** Absolute path of the file being scanned (to resolve relative specifiers). */
  fileAbs?: string;
  /** Absolute path of the generated module. */
  generatedModule?: string;
}

const STRIP_EXT = /\.(?:[cm]?[jt]s|[jt]sx)$/i;

/**
 * Whether `specifier` names the generated module. With the module's path: the specifier resolves
 * to it (extension-insensitive: `./x.js` names `x.ts`). Without: any relative specifier (the name
 * `protectedTool` is checked by the caller).
 */
export function isGeneratedSpecifier(specifier: string, match: GeneratedMatch): boolean {
  if (isSdkModule(specifier)) return false;
  const relative = specifier.startsWith('./') || specifier.startsWith('../');
  if (!match.generatedModule || !match.fileAbs) return relative;
  const target = match.generatedModule.replace(STRIP_EXT, '');
  if (relative) {
    const resolved = path.resolve(path.dirname(match.fileAbs), specifier);
    return resolved === target || resolved.replace(STRIP_EXT, '') === target;
  }
  // A path alias (`@/ctrlrun.generated`): same base name as the generated module.
  return path.posix.basename(specifier).replace(STRIP_EXT, '') === path.basename(target);
}

/** Builds the local-name → binding map of the file's SDK, linked-module and generated-module imports. */
export function bindingsOf(imports: ModuleImport[], match: GeneratedMatch, links?: ModuleLinks): Map<string, Binding> {
  const map = new Map<string, Binding>();
  for (const imp of imports) {
    const value = imp.typeOnly ? undefined : moduleValue(imp.module, match.fileAbs, links);
    if (value) {
      const importedFrom = imp.module;
      if (imp.namespaceName) map.set(imp.namespaceName, { kind: 'sdk', value, via: imp.syntax === 'import' ? 'namespace' : 'require', importedFrom });
      if (imp.defaultName && value.kind === 'module') {
        // `import sdk from '@openai/agents'` (esModuleInterop): the default is the namespace for CommonJS interop; a local barrel's `default` export.
        const d = isSdkModule(imp.module) ? value : value.member('default');
        if (d) map.set(imp.defaultName, { kind: 'sdk', value: d, via: 'named', importedFrom });
      }
      for (const spec of imp.named) {
        if (spec.typeOnly) continue;
        const member = value.kind === 'module' ? value.member(spec.imported) : undefined;
        if (member) map.set(spec.local, { kind: 'sdk', value: member, via: imp.syntax === 'import' ? 'named' : 'require', spec, importedFrom });
      }
    } else if (!imp.typeOnly && isGeneratedSpecifier(imp.module, match)) {
      if (imp.namespaceName) map.set(imp.namespaceName, { kind: 'generated-namespace' });
      for (const spec of imp.named) {
        if (spec.imported === 'protectedTool' && !spec.typeOnly) map.set(spec.local, { kind: 'generated', spec });
      }
    }
  }
  return map;
}
