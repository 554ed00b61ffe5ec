import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { isAgentClass, isSdkModule, type Binding, type GeneratedMatch, type ModuleLinks } from '../imports.js';
import { spanOf } from '../parse.js';
import type { KeptBindings } from '../barrels.js';
import type { ModuleLoadContext } from '../module-loads.js';
import type { RunScanContext } from '../runs.js';
import { rootIdentifier, skipWrappers, type DeclarationIndex } from '../syntax.js';
import { declarationOf, initializerInScope, valuesInScope } from '../local-values.js';
import { valueOfExpr } from '../values.js';
import type { ModuleTreeReader } from '../imported-types.js';
import type { PendingWrite } from './property-writes.js';
import { typeImportedSdkName } from '../written-sdk-type.js';
import type { CalleeBinding, FileScan, McpServerList, ModuleImport, RunCall, SandboxAgentSite, SdkFactoryCall, SdkValue, Span } from '../types.js';

export interface ScanSourceOptions {
  /** Absolute repo root `file` is relative to (to resolve relative specifiers). */
  root?: string;
  /** Absolute path of the generated module: its imports are recognised by resolved path. */
  generatedModule?: string;
  /** Resolves barrels, aliases and workspace packages that lead to the SDK (the repo scan gives it). */
  links?: ModuleLinks;
  /** Resolves a `const` string imported from a relative module (for `name`); the repo scan gives it. */
  importedConst?: ImportedConstResolver;
  /** Whether a relative module declares a type of its own under a name (approval-parameters.ts); the repo scan gives it. */
  ownType?: OwnTypeResolver;
  /** Reads another file of the repo's tree, for the types it exports (imported-types.ts); the repo scan gives it. */
  typeModule?: ModuleTreeReader;
  /** The repo scan follows each run's agent across its files afterwards: the file's own evaluation is skipped. */
  reachLater?: boolean;
  /** The file's top-level bindings as the barrels read them with these links, when they are what the scan computes (barrels.ts). */
  keptBindings?: (fileAbs: string, sf: ts.SourceFile) => KeptBindings | undefined;
  /**
   * The names this module exports that another module hands to an agent's `tools` (the repo scan
   * gives it for a module naming neither the SDK nor the generated module): an object literal
   * exported so is read as a door even with a `type` check cannot read (file/agent-tool-exports.ts).
   */
  agentToolExports?: ReadonlySet<string>;
}

/** The string value of `export const <name> = '...'` in the module `specifier` names from `fromFile`. */
export type ImportedConstResolver = (specifier: string, fromFile: string, name: string) => string | undefined;

/** Whether the module `specifier` names from `fromFile` (a file of the repo) declares a type `name` of its own (own-type-declared.ts). */
export type OwnTypeResolver = (specifier: string, fromFile: string, name: string) => boolean;

/** What a callee expression resolves to: an export of an SDK module, and how it was bound. */
export interface ResolvedMember {
  member: string;
  module: string;
  binding: CalleeBinding;
  /** A class of the repo extending the SDK class, imported from its module, that declares members on the way (values.ts `agentSubclasses`). */
  changedBy?: string;
}

/** An `mcpServers` value seen while visiting, read once the whole file is known (guarded servers and agents). */
export interface PendingList {
  span: Span;
  form: McpServerList['form'];
  values: ts.Expression[];
  agentNode?: ts.Node;
  /** The variable holding the agent (`a.mcpServers = [...]`, `const a = new Agent(...)`), as `varKey` gives it. */
  agentVar?: VarKey;
  /** A property check cannot read (a method, a getter): one opaque element. */
  whole?: boolean;
  /** Where the values are read (the walk's ancestors there): their names are looked up in that scope. */
  ancestors: readonly ts.Node[];
  /** Read only in a file of the SDK (a list found by its name, not by the agent it is given to: file/mcp-lists.ts). */
  sdkOnly?: boolean;
  /** A variable holding an agent's list (`const servers = agent.mcpServers`): what the file adds through it is the list's. */
  aliasOf?: string;
  /** Written through a key check cannot know (`agent[key] = [...]`): only its unguarded SDK servers count (file/mcp-servers.ts). */
  serversOnly?: boolean;
}

/**
 * One file's scan in progress: what was read of the file before the walk, the walk's position
 * (scopes and ancestors) and what it collects. The door modules read and add to it; nothing
 * outlives the scan of the file.
 */
export interface FileContext {
  sf: ts.SourceFile;
  fileAbs: string;
  links: ModuleLinks | undefined;
  /** How the generated module's imports are recognised (by resolved path when the root is known). */
  match: GeneratedMatch;
  options: ScanSourceOptions;
  scan: FileScan;
  moduleImports: ModuleImport[];
  /** The file's top-level bindings (imports and top-level aliases). */
  bindings: Map<string, Binding>;
  /** Names worth tracking through scopes. */
  interesting: Set<string>;
  /** The file's `var` declarations by the function they are hoisted to (found with the alias names). */
  hoisted: Map<ts.Node, ts.VariableDeclaration[]>;
  constStrings: Map<string, string>;
  /** Scope entries: a name bound to an SDK value in that scope, or `null` when the scope shadows it. */
  scopes: Map<string, Binding | null>[];
  ancestors: ts.Node[];
  /** Local names of the generated module's door functions (`protectMcpServer` → its export), and its namespaces. */
  generatedDoorNames: Map<string, string>;
  generatedNamespaces: Set<string>;
  /**
   * Servers passed to `protectMcpServer(x)` and agents to `protectAgent(x)` in this file (guarded in
   * place), by `varKey`: another function's `fs` of the same name is not guarded by it.
   */
  guardedServerVars: Set<VarKey>;
  /** Where the first in-place `protectMcpServer(x)` of each variable ends: a write of its guard after it drops the guard (file/door-writes.ts). */
  serverGuardEnds: Map<VarKey, number>;
  guardedAgentVars: Set<VarKey>;
  guardedAgentNodes: Set<ts.Node>;
  pendingLists: PendingList[];
  /** The pending list of each property named `mcpServers`, whether the walk met its object or its agent first (file/mcp-lists.ts). */
  mcpProperties: Map<ts.Node, PendingList>;
  /** Runs seen by the walk, with their agent argument: followed once the walk is done. */
  pendingRuns: Array<{ run: RunCall; agent: ts.Expression }>;
  /** `hostedMcpTool` calls with no literal label in place, with their options argument: read once the walk is done. */
  pendingHosted: Array<{ call: FileScan['hostedMcpCalls'][number]; optionsArg: ts.Expression | undefined }>;
  /** SandboxAgents seen, settled once the file's guarded agents are known (file/sandbox-agents.ts). */
  pendingSandboxAgents: Array<{ site: SandboxAgentSite; node: ts.Node; agentVar?: VarKey }>;
  /** Agents' `handoffs` values, read once the walk is done (file/handoffs.ts). */
  pendingHandoffLists: Array<{ value: ts.Expression; ancestors: readonly ts.Node[] }>;
  /** The servers given to `getAllMcpTools` / `mcpToFunctionTool`, read once the whole file is known. */
  pendingConversions: Array<{ call: SdkFactoryCall; values: ts.Expression[]; ancestors: readonly ts.Node[] }>;
  /** Writes of a property some door depends on, read once the walk is done (file/door-writes.ts). */
  pendingWrites: PendingWrite[];
  /** Lazily built indexes of the file's declarations. */
  /** The file's declarations by name (first of each), found by the walk before the scan's (syntax.ts). */
  declarations: DeclarationIndex;
  cache: {
    returns?: Map<string, ts.Expression[]>;
    /** The last callee `resolve` answered, with the innermost scope open then (see `resolve`). */
    resolved?: { expr: ts.Expression; scope: Map<string, Binding | null> | undefined; answer: ResolvedMember | undefined };
    /** The file's direct calls of a function by its name, with their ancestors (file/door-holders.ts). */
    callsByName?: Map<string, Array<{ call: ts.CallExpression; scope: readonly ts.Node[] }>>;
    /** Whether the file names a function other than where it is declared or called (file/door-holders.ts). */
    namedOtherwise?: Map<string, boolean>;
  };
  moduleLoads: ModuleLoadContext;
  runScan: RunScanContext;
}

/** The exports of the generated module that guard a door (besides `protectedTool`). */
export const GENERATED_DOORS = new Set([
  'protectMcpServer',
  'protectMcpTools',
  'protectMcpFunctionTool',
  'protectAgent',
  'protectAgentTool',
  'protectHostedMcp',
  'protectShellTool',
  'protectApplyPatchTool',
  'protectComputerTool',
  'protectSandboxAgent',
  'protectHandoff',
]);

export function lookupName(cx: FileContext, name: string): Binding | undefined {
  for (let i = cx.scopes.length - 1; i >= 0; i--) {
    const s = cx.scopes[i]!;
    if (s.has(name)) return s.get(name) ?? undefined;
  }
  return cx.bindings.get(name);
}

export const isTopLevel = (cx: FileContext, name: string): boolean => !cx.scopes.some((s) => s.has(name));

export const exprValue = (cx: FileContext, e: ts.Expression): SdkValue | undefined => valueOfExpr(e, (n) => lookupName(cx, n), cx.fileAbs, cx.links);

/**
 * What a callee resolves to. Each call's callee is asked twice (is it a run? an SDK call?): the
 * last answer is kept with the innermost scope open when it was given. The answer depends only on
 * the expression and the scopes, and the scopes are a stack whose maps are filled when pushed, so
 * the same innermost map means the same scopes.
 */
export function resolve(cx: FileContext, expr: ts.Expression): ResolvedMember | undefined {
  const e = skipWrappers(expr);
  const scope = cx.scopes[cx.scopes.length - 1];
  const last = cx.cache.resolved;
  if (last !== undefined && last.expr === e && last.scope === scope) return last.answer;
  const v = exprValue(cx, e);
  const answer =
    v?.kind === 'member'
      ? { member: v.member, module: v.module, binding: calleeBinding(cx, e, v.module), ...(v.changedBy !== undefined ? { changedBy: v.changedBy } : {}) }
      : undefined;
  cx.cache.resolved = { expr: e, scope, answer };
  return answer;
}

/** An SDK agent class reached through a class of this file (`class OpsAgent extends SandboxAgent {}`). */
export interface AgentClass extends ResolvedMember {
  /** The first class of this file on the way that declares members (a constructor, a field): it may change the options. */
  changedBy?: string;
}

/**
 * The SDK agent class (`Agent`, `SandboxAgent`, ...) a constructor expression makes: the class itself,
 * or a class of this file that extends one (through any number of this file's classes).
 */
export function agentClassOf(cx: FileContext, expr: ts.Expression, depth = 0): AgentClass | undefined {
  const r = resolve(cx, expr);
  if (r) return isAgentClass(r.module, r.member) ? r : undefined;
  const e = skipWrappers(expr);
  const cls = depth < 8 ? (typescript.isClassExpression(e) ? e : typescript.isIdentifier(e) ? classOf(cx, e.text) : undefined) : undefined;
  const base = cls?.heritageClauses?.find((h) => h.token === typescript.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
  const found = base ? agentClassOf(cx, base, depth + 1) : undefined;
  if (!found || !cls) return undefined;
  return cls.members.length > 0 && found.changedBy === undefined ? { ...found, changedBy: cls.name?.text ?? 'an anonymous class' } : found;
}

/** The first class of this file named `name` (`class X {}`, `const X = class {}`). */
function classOf(cx: FileContext, name: string): ts.ClassLikeDeclaration | undefined {
  return cx.declarations.classes.get(name);
}

/** The SDK export a callee names, when it is one of the SDK's own modules. */
export function sdkMember(cx: FileContext, e: ts.Expression): string | undefined {
  const r = resolve(cx, e);
  return r && isSdkModule(r.module) ? r.member : undefined;
}

/**
 * The SDK export a name stands for as a type: as a value (`sdkMember`), or through a type-only
 * import of the app's barrel, which binds no value (written-sdk-type.ts `typeImportedSdkName`).
 */
export function sdkTypeMember(cx: FileContext, e: ts.Expression): string | undefined {
  const member = sdkMember(cx, e);
  if (member !== undefined || !typescript.isIdentifier(e)) return member;
  return typeImportedSdkName(e.text, cx.moduleImports, cx.fileAbs, cx.links);
}

/** How the callee was bound: the identifier at its root, and whether it is a namespace member. */
function calleeBinding(cx: FileContext, e: ts.Expression, module: string): CalleeBinding {
  let root: ts.Expression = e;
  let member = false;
  for (;;) {
    root = skipWrappers(root);
    if (typescript.isPropertyAccessExpression(root) || typescript.isElementAccessExpression(root)) {
      member = true;
      root = root.expression;
    } else if (typescript.isAwaitExpression(root)) root = root.expression;
    else break;
  }
  const localName = typescript.isIdentifier(root) ? root.text : root.getText(cx.sf);
  const b = typescript.isIdentifier(root) ? lookupName(cx, root.text) : undefined;
  const out: CalleeBinding = { module, kind: member ? 'namespace' : b?.kind === 'sdk' && b.via === 'require' ? 'require' : 'named', localName };
  if (b?.kind === 'sdk' && b.importedFrom && !isSdkModule(b.importedFrom)) out.importedFrom = b.importedFrom;
  return out;
}

export function opaque(cx: FileContext, node: ts.Node, what: string, reason: string, door?: string): void {
  cx.scan.opaqueFactoryUses!.push({ kind: 'opaque-factory', span: spanOf(node, cx.sf), what, reason, ...(door !== undefined ? { door } : {}) });
}

/**
 * `const <name> = { ... }` for options passed by name: the variable the name is where it is read
 * (`ancestors`: the walk's position; another function's `const opts` is not this one's). A name
 * the scope does not hold in a variable (a parameter, an import; after the walk) keeps the first
 * such declaration of the file.
 */
export function constObjectLiteral(cx: FileContext, name: string, ancestors: readonly ts.Node[] = cx.ancestors): ts.ObjectLiteralExpression | undefined {
  const scoped = initializerInScope(name, ancestors, cx.hoisted);
  if (scoped) {
    const init = scoped.constant ? skipWrappers(scoped.init) : undefined;
    return init && typescript.isObjectLiteralExpression(init) ? init : undefined;
  }
  return cx.declarations.constObjects.get(name);
}

/** The first `const|let|var <name> = <init>` of this file (any scope), for following a variable. */
export function initializerOf(cx: FileContext, name: string): ts.Expression | undefined {
  return cx.declarations.initializers.get(name);
}

/**
 * What the function `<name>` of this file returns (`function f() { return x }`, `const f = () => x`), for following a
 * factory (`const a = makeAgent(); a.asTool()`). Only its own `return`s: those of functions nested in it are not its value.
 */
export function returnsOf(cx: FileContext, name: string): ts.Expression[] | undefined {
  if (cx.cache.returns === undefined) {
    const found = new Map<string, ts.Expression[]>();
    const walk = (n: ts.Node): void => {
      if (typescript.isFunctionDeclaration(n) && n.name && n.body && !found.has(n.name.text)) found.set(n.name.text, ownReturns(n.body));
      if (typescript.isVariableDeclaration(n) && typescript.isIdentifier(n.name) && n.initializer && !found.has(n.name.text)) {
        const f = skipWrappers(n.initializer);
        if (typescript.isArrowFunction(f) || typescript.isFunctionExpression(f))
          found.set(n.name.text, typescript.isBlock(f.body) ? ownReturns(f.body) : [f.body as ts.Expression]);
      }
      typescript.forEachChild(n, walk);
    };
    walk(cx.sf);
    cx.cache.returns = found;
  }
  return cx.cache.returns.get(name);
}

export function ownReturns(body: ts.Block): ts.Expression[] {
  const out: ts.Expression[] = [];
  const walk = (n: ts.Node): void => {
    if (typescript.isReturnStatement(n) && n.expression) out.push(n.expression);
    if (typescript.isFunctionLike(n) || typescript.isClassLike(n)) return;
    typescript.forEachChild(n, walk);
  };
  typescript.forEachChild(body, walk);
  return out;
}

/**
 * A variable as the guards of the file know it: the name's own binding in the declaration it is
 * read from (`ancestors`), so `protectMcpServer(fs)` in one function does not guard another
 * function's `fs`, nor `const { fs, sh } = ..` guard `sh`; the name itself for an import or a
 * global (no declaration in the file's scopes).
 */
export type VarKey = ts.Node | string;

export const varKey = (cx: FileContext, name: string, ancestors: readonly ts.Node[] = cx.ancestors): VarKey => {
  const declaration = declarationOf(name, ancestors, cx.hoisted);
  return declaration === undefined ? name : (bindingOf(declaration, name) ?? declaration);
};

/** The identifier that binds `name` in a declaration's name or pattern (`{ a, b: [c] }`); undefined if none does. */
function bindingOf(declaration: ts.Node, name: string): ts.Identifier | undefined {
  let bound: ts.Node | undefined;
  if (typescript.isVariableDeclaration(declaration) || typescript.isParameter(declaration) || typescript.isBindingElement(declaration))
    bound = declaration.name;
  else if (
    (typescript.isForOfStatement(declaration) || typescript.isForInStatement(declaration)) &&
    typescript.isVariableDeclarationList(declaration.initializer)
  )
    bound = declaration.initializer.declarations[0]?.name;
  return bound === undefined ? undefined : identifierIn(bound, name);
}

function identifierIn(bound: ts.Node, name: string): ts.Identifier | undefined {
  if (typescript.isIdentifier(bound)) return bound.text === name ? bound : undefined;
  if (!typescript.isObjectBindingPattern(bound) && !typescript.isArrayBindingPattern(bound)) return undefined;
  for (const element of bound.elements) {
    const found = typescript.isBindingElement(element) ? identifierIn(element.name, name) : undefined;
    if (found) return found;
  }
  return undefined;
}

/**
 * The key a guard in place (`protectMcpServer(fs)`, `protectAgent(a)`) files its variable under, or
 * undefined when the variable may hold more than one value (a `let` given another server after
 * the guard: the guard is not the new one's).
 */
export function guardKey(cx: FileContext, name: string): VarKey | undefined {
  return (valuesInScope(name, cx.ancestors, cx.hoisted)?.length ?? 0) > 1 ? undefined : varKey(cx, name);
}

/** The variable at the root of `a.b.mcpServers` (`a`), as `varKey` gives it where the walk is. */
export function agentVarOf(cx: FileContext, expr: ts.Expression): VarKey | undefined {
  const name = rootIdentifier(expr);
  return name === undefined ? undefined : varKey(cx, name);
}

/** The variable an expression being visited is assigned to (`const a = new Agent(...)`), through wrappers, as `varKey` gives it. */
export function ownerOf(cx: FileContext): VarKey | undefined {
  for (let i = cx.ancestors.length - 1; i >= 0; i--) {
    const p = cx.ancestors[i]!;
    if (
      typescript.isParenthesizedExpression(p) ||
      typescript.isAsExpression(p) ||
      typescript.isSatisfiesExpression(p) ||
      typescript.isNonNullExpression(p) ||
      typescript.isAwaitExpression(p)
    )
      continue;
    return typescript.isVariableDeclaration(p) && typescript.isIdentifier(p.name) ? varKey(cx, p.name.text) : undefined;
  }
  return undefined;
}

/** Whether the file uses the SDK (or a barrel of it) or the generated module; the SDK's own source names neither (it imports itself by paths). */
export const usesAgents = (cx: FileContext): boolean => cx.scan.importsSdk || cx.generatedDoorNames.size > 0 || cx.generatedNamespaces.size > 0;

/** The generated module's door a callee names (`protectMcpServer`, `g.protectAgent`), if any. */
export function doorOf(cx: FileContext, callee: ts.Expression): string | undefined {
  const c = skipWrappers(callee);
  if (typescript.isIdentifier(c)) return isTopLevel(cx, c.text) ? cx.generatedDoorNames.get(c.text) : undefined;
  if (
    typescript.isPropertyAccessExpression(c) &&
    typescript.isIdentifier(c.expression) &&
    cx.generatedNamespaces.has(c.expression.text) &&
    GENERATED_DOORS.has(c.name.text)
  )
    return c.name.text;
  return undefined;
}

export function isProtectedToolCallee(cx: FileContext, callee: ts.Expression): boolean {
  const c = skipWrappers(callee);
  if (typescript.isIdentifier(c)) return lookupName(cx, c.text)?.kind === 'generated';
  if (typescript.isPropertyAccessExpression(c) && typescript.isIdentifier(c.expression) && c.name.text === 'protectedTool') {
    return lookupName(cx, c.expression.text)?.kind === 'generated-namespace';
  }
  return false;
}
