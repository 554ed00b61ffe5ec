import path from 'node:path';
import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';
import { scopeDeclarations } from './scope.js';
import {
  bindingsOf,
  collectModuleImports,
  holdsToolFactory,
  isAgentClass,
  isGeneratedSpecifier,
  isSdkModule,
  isToolFactory,
  moduleValue,
  requiredModule,
  type Binding,
  type GeneratedMatch,
  type ModuleLinks,
} from './imports.js';
import { parseSource, spanOf } from './parse.js';
import { isSdkApprovalCall } from './approvals.js';
import { opaqueModuleLoad, type ModuleLoadContext } from './module-loads.js';
import { identityReadOf, runCallOf, runtimeImportNames, type RunScanContext } from './runs.js';
import { approvalHandlerOf, realtimeSessionOf } from './realtime-sessions.js';
import { findSuppressions } from './suppressions.js';
import type { AgentAsToolCall, CalleeBinding, FileScan, HostedMcpCall, InvokeReplacement, McpServerElement, McpServerList, Span, ModuleImport, NameSource, ObjectLiteralTool, OptionProperty, SdkToolCall, SdkValue, ToolCallOptions } from './types.js';

export interface ScanSourceOptions {
  /** Absolute repo root `file` is relative to (to resolve relative specifiers). */
  root?: string;
  /** Absolute path of the generated module: its imports are recognised by resolved path. */
  generatedModule?: string;
  /** Resolves barrels, aliases and workspace packages that lead to the SDK (the repo scan gives it). */
  links?: ModuleLinks;
  /** Resolves a `const` string imported from a relative module (for `name`); the repo scan gives it. */
  importedConst?: ImportedConstResolver;
}

/** The string value of `export const <name> = '...'` in the module `specifier` names from `fromFile`. */
export type ImportedConstResolver = (specifier: string, fromFile: string, name: string) => string | undefined;

/** What a callee expression resolves to: an export of an SDK module, and how it was bound. */
interface ResolvedMember {
  member: string;
  module: string;
  binding: CalleeBinding;
}

/** Scans one file's text (pure). */
export function scanSource(file: string, text: string, options: ScanSourceOptions = {}): FileScan {
  return scanParsed(file, text, parseSource(file, text), options);
}

/** The SDK values a module exports, for a barrel's importers. */
export interface SdkExports {
  named: Map<string, SdkValue>;
  /** `export * from` a module that leads to the SDK. */
  stars: SdkValue[];
}

/** The value of a barrel: its exports by name, falling back to its `export *` modules. */
export function barrelValue(specifier: string, exp: SdkExports): SdkValue | undefined {
  if (exp.named.size === 0 && exp.stars.length === 0) return undefined;
  return {
    kind: 'module',
    module: specifier,
    member: (name) => {
      const own = exp.named.get(name);
      if (own) return own;
      for (const star of exp.stars) {
        if (name === 'default') break;
        const m = star.kind === 'module' ? star.member(name) : undefined;
        if (m) return m;
      }
      return undefined;
    },
  };
}

type Parsed = ReturnType<typeof parseSource>;

/** Whether a binding or scope entry is an SDK value. */
const sdkValueOf = (b: Binding | null | undefined): SdkValue | undefined => (b && b.kind === 'sdk' ? b.value : undefined);

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
  for (const st of sf.statements) {
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
          const v = sdkValueOf(lookup((el.propertyName ?? el.name).text));
          if (v) named.set(el.name.text, v);
        }
      }
    } else if (typescript.isExportAssignment(st)) {
      const v = exprValue(st.expression);
      if (v && st.isExportEquals) stars.push(v);
      else if (v) named.set('default', v);
    } else if (typescript.isVariableStatement(st) && typescript.getModifiers(st)?.some((m) => m.kind === typescript.SyntaxKind.ExportKeyword)) {
      for (const d of st.declarationList.declarations) {
        for (const name of bindingNames(d.name)) {
          const v = sdkValueOf(lookup(name));
          if (v) named.set(name, v);
        }
      }
    } else if (typescript.isExpressionStatement(st) && typescript.isBinaryExpression(st.expression) && st.expression.operatorToken.kind === typescript.SyntaxKind.EqualsToken) {
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
  return { named, stars };
}

function bindingNames(name: ts.BindingName): string[] {
  if (typescript.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((el) => (typescript.isOmittedExpression(el) ? [] : bindingNames(el.name)));
}

/** The names a variable declaration binds to SDK values: `const t = sdk.tool`, `const { tool: t } = sdk`. */
function aliasValues(d: ts.VariableDeclaration, exprValue: (e: ts.Expression) => SdkValue | undefined): Array<[string, SdkValue]> {
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

/** Parentheses, casts (`as`, `<T>`, `satisfies`) and non-null assertions do not change a value. */
function skipWrappers(expr: ts.Expression): ts.Expression {
  for (;;) {
    if (typescript.isParenthesizedExpression(expr) || typescript.isAsExpression(expr) || typescript.isSatisfiesExpression(expr) || typescript.isNonNullExpression(expr) || typescript.isTypeAssertionExpression(expr)) {
      expr = expr.expression;
    } else if (typescript.isBinaryExpression(expr) && expr.operatorToken.kind === typescript.SyntaxKind.CommaToken) {
      expr = expr.right;
    } else return expr;
  }
}

/** `import('m')` with a literal specifier: the specifier. */
function dynamicImportOf(expr: ts.Expression): string | undefined {
  if (!typescript.isCallExpression(expr) || expr.expression.kind !== typescript.SyntaxKind.ImportKeyword) return undefined;
  const arg = expr.arguments[0];
  return arg && isStringLike(arg) ? arg.text : undefined;
}

/**
 * What an expression evaluates to, when it leads to the SDK: an identifier's binding, a member
 * (`sdk.tool`, `sdk['tool']`), `await import('m')`, `require('m')`, through wrappers and commas.
 */
function valueOfExpr(expr: ts.Expression, lookup: (name: string) => Binding | null | undefined, fileAbs: string | undefined, links: ModuleLinks | undefined): SdkValue | undefined {
  const e = skipWrappers(expr);
  if (typescript.isIdentifier(e)) return sdkValueOf(lookup(e.text));
  if (typescript.isPropertyAccessExpression(e) || typescript.isElementAccessExpression(e)) {
    const key = typescript.isPropertyAccessExpression(e) ? e.name.text : isStringLike(skipWrappers(e.argumentExpression)) ? (skipWrappers(e.argumentExpression) as ts.StringLiteral).text : undefined;
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

/** Scans one already-parsed file (pure). */
export function scanParsed(file: string, text: string, parsed: Parsed, options: ScanSourceOptions = {}): FileScan {
  const { sf, parseError } = parsed;
  const links = options.links;
  const moduleImports = collectModuleImports(sf);
  const fileAbs = options.root ? path.resolve(options.root, file) : path.resolve(file);
  const match: GeneratedMatch = { fileAbs: options.root ? fileAbs : undefined, generatedModule: options.generatedModule };
  const bindings = topLevelBindings(sf, moduleImports, { ...match, fileAbs }, links);
  const scan: FileScan = {
    file,
    importsSdk: false,
    sdkToolCalls: [],
    protectedToolCalls: [],
    generatedImports: [],
    hostedMcpCalls: [],
    agentMcpServers: [],
    stickyApprovals: [],
    disablesSensitiveTracing: false,
    suppressions: findSuppressions(sf, text),
    sdkFactoryCalls: [],
    opaqueFactoryUses: [],
    objectLiteralTools: [],
    invokeReplacements: [],
    sdkApprovals: [],
    generatedDoorCalls: [],
    mcpServerLists: [],
    mcpErrorFunctions: [],
    agentAsToolCalls: [],
    runCalls: [],
    identityReads: [],
    realtimeSessions: [],
    realtimeApprovalHandlers: [],
    moduleImports,
  };
  if (parseError) scan.parseError = parseError;

  /** Local names of the generated module's door functions (`protectMcpServer` → its export), and its namespaces. */
  const generatedDoorNames = new Map<string, string>();
  const generatedNamespaces = new Set<string>();
  let esmSyntax = false;
  let requires = false;
  for (const imp of moduleImports) {
    if (imp.syntax === 'import') esmSyntax = true;
    else requires = true;
    if (isSdkModule(imp.module) || (!imp.typeOnly && moduleValue(imp.module, fileAbs, links))) scan.importsSdk = true;
    if (imp.module && !isSdkModule(imp.module) && isGeneratedSpecifier(imp.module, match)) {
      if (imp.namespaceName && !imp.typeOnly) {
        scan.generatedImports.push({ span: imp.span, specifier: imp.module, localName: `${imp.namespaceName}.protectedTool`, syntax: imp.syntax });
      }
      for (const spec of imp.named) {
        if (spec.imported === 'protectedTool' && !spec.typeOnly) {
          scan.generatedImports.push({ span: imp.span, specifier: imp.module, localName: spec.local, syntax: imp.syntax });
        }
        if (GENERATED_DOORS.has(spec.imported) && !spec.typeOnly) generatedDoorNames.set(spec.local, spec.imported);
      }
      if (imp.namespaceName && !imp.typeOnly) generatedNamespaces.add(imp.namespaceName);
    }
  }
  for (const st of sf.statements) {
    const exported = typescript.canHaveModifiers(st) && !!typescript.getModifiers(st)?.some((m) => m.kind === typescript.SyntaxKind.ExportKeyword);
    if (typescript.isExportDeclaration(st) || typescript.isExportAssignment(st) || exported) esmSyntax = true;
    if (typescript.isExportDeclaration(st) && st.moduleSpecifier && typescript.isStringLiteral(st.moduleSpecifier) && moduleValue(st.moduleSpecifier.text, fileAbs, links)) scan.importsSdk = true;
  }
  const ext = path.extname(file).toLowerCase();
  scan.moduleSyntax = ext === '.cts' || ext === '.cjs' || (requires && !esmSyntax) ? 'commonjs' : 'esm';

  // Names worth tracking through scopes: the top-level bindings and every name a variable
  // declaration anywhere could bind to the SDK (an alias in a function body).
  const interesting = new Set(bindings.keys());
  collectAliasNames(sf, interesting);
  const constStrings = topLevelConstStrings(sf);
  /** Scope entries: a name bound to an SDK value in that scope, or `null` when the scope shadows it. */
  const scopes: Map<string, Binding | null>[] = [];
  const lookupName = (name: string): Binding | undefined => {
    for (let i = scopes.length - 1; i >= 0; i--) {
      const s = scopes[i]!;
      if (s.has(name)) return s.get(name) ?? undefined;
    }
    return bindings.get(name);
  };
  const isTopLevel = (name: string): boolean => !scopes.some((s) => s.has(name));
  const exprValue = (e: ts.Expression) => valueOfExpr(e, lookupName, fileAbs, links);

  const resolve = (expr: ts.Expression): ResolvedMember | undefined => {
    const e = skipWrappers(expr);
    const v = exprValue(e);
    if (v?.kind !== 'member') return undefined;
    return { member: v.member, module: v.module, binding: calleeBinding(e, v.module) };
  };
  /** How the callee was bound: the identifier at its root, and whether it is a namespace member. */
  const calleeBinding = (e: ts.Expression, module: string): CalleeBinding => {
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
    const localName = typescript.isIdentifier(root) ? root.text : root.getText(sf);
    const b = typescript.isIdentifier(root) ? lookupName(root.text) : undefined;
    const out: CalleeBinding = { module, kind: member ? 'namespace' : b?.kind === 'sdk' && b.via === 'require' ? 'require' : 'named', localName };
    if (b?.kind === 'sdk' && b.importedFrom && !isSdkModule(b.importedFrom)) out.importedFrom = b.importedFrom;
    return out;
  };

  const ancestors: ts.Node[] = [];
  const visit = (node: ts.Node): void => {
    if (typescript.isImportDeclaration(node) || typescript.isImportEqualsDeclaration(node)) return;
    const declared = node.kind === typescript.SyntaxKind.SourceFile ? [] : scopeDeclarations(node, interesting);
    let pushed = false;
    if (declared.length > 0) {
      const scope = new Map<string, Binding | null>();
      scopes.push(scope);
      pushed = true;
      for (const d of declared) {
        scope.set(d.name, null);
        if (typescript.isVariableDeclaration(d.declaration)) {
          for (const [name, value] of aliasValues(d.declaration, exprValue)) if (name === d.name) scope.set(name, { kind: 'sdk', value, via: value.kind === 'module' ? 'namespace' : 'named' });
        }
      }
    }

    if (typescript.isIdentifier(node)) {
      countReference(node);
      checkEscape(node);
    } else if (typescript.isCallExpression(node)) {
      onCall(node);
    } else if (typescript.isNewExpression(node)) {
      const session = realtimeSessionOf(node, runScan);
      if (session) scan.realtimeSessions!.push(session);
      const r = resolve(node.expression);
      if (r && isAgentClass(r.module, r.member)) onAgentOptions(node, node.arguments?.[0]);
      else if (r && isSdkModule(r.module) && /^MCPServer/.test(r.member)) {
        const ef = optionsOf(node.arguments?.[0], sf).properties.errorFunction;
        if (ef && ef.valueKind !== 'null') scan.mcpErrorFunctions!.push({ kind: 'mcp-error-function', span: ef.span, where: 'server' });
      }
      // Only the Runner's config turns tracing off: `{ tracingDisabled: true }` elsewhere does nothing.
      else if (r && r.member === 'Runner' && isSdkModule(r.module)) onRunnerConfig(node.arguments?.[0]);
    } else if (typescript.isObjectLiteralExpression(node)) {
      onObjectLiteral(node);
    } else if (typescript.isBinaryExpression(node) && node.operatorToken.kind === typescript.SyntaxKind.EqualsToken) {
      const left = skipWrappers(node.left);
      const key = typescript.isPropertyAccessExpression(left) ? left.name.text : typescript.isElementAccessExpression(left) && isStringLike(left.argumentExpression) ? left.argumentExpression.text : undefined;
      if (key === 'mcpServers' && scan.importsSdk) {
        const target = (left as ts.PropertyAccessExpression | ts.ElementAccessExpression).expression;
        pendingLists.push({ span: spanOf(node, sf), form: 'assignment', values: [node.right], agentVar: rootIdentifier(target) });
      }
      if (key === 'invoke') {
        const target = skipWrappers((left as ts.PropertyAccessExpression | ts.ElementAccessExpression).expression);
        const r: InvokeReplacement = { kind: 'invoke-replacement', span: spanOf(node, sf), form: 'assignment' };
        if (typescript.isIdentifier(target)) r.target = target.text;
        scan.invokeReplacements!.push(r);
      }
    }
    ancestors.push(node);
    typescript.forEachChild(node, visit);
    ancestors.pop();
    if (pushed) scopes.pop();
  };

  /**
   * Fail closed: an identifier that stands for a tool factory, or a module exporting one, must be
   * used in a way the scanner follows (called, a member read, aliased, re-exported, a type query).
   */
  const checkEscape = (id: ts.Identifier): void => {
    const parent = ancestors[ancestors.length - 1];
    if (!parent || !isReferencePosition(id, parent)) return;
    const v = sdkValueOf(lookupName(id.text));
    if (!v || !holdsToolFactory(v)) return;
    let child: ts.Node = id;
    for (let i = ancestors.length - 1; i >= 0; i--) {
      const p = ancestors[i]!;
      if (
        typescript.isParenthesizedExpression(p) ||
        typescript.isAsExpression(p) ||
        typescript.isSatisfiesExpression(p) ||
        typescript.isNonNullExpression(p) ||
        typescript.isTypeAssertionExpression(p) ||
        (typescript.isBinaryExpression(p) && p.operatorToken.kind === typescript.SyntaxKind.CommaToken && p.right === child)
      ) {
        child = p;
        continue;
      }
      if (typescript.isCallExpression(p) && p.expression === child) return;
      if ((typescript.isPropertyAccessExpression(p) || typescript.isElementAccessExpression(p)) && p.expression === child) {
        const key = typescript.isPropertyAccessExpression(p) ? p.name.text : isStringLike(p.argumentExpression) ? p.argumentExpression.text : undefined;
        if (key === undefined) return opaque(p, id.text, 'a member is read with a computed key, so check cannot tell which export is used');
        if (v.kind === 'member' && key === 'bind') return opaque(p, id.text, '`bind` makes a copy of the factory that check cannot follow');
        if (v.kind === 'member' && !['call', 'apply', 'name', 'length', 'toString'].includes(key)) return;
        return;
      }
      if (typescript.isVariableDeclaration(p) && p.initializer === child) return;
      if (typescript.isExportAssignment(p) || typescript.isExportSpecifier(p) || typescript.isShorthandPropertyAssignment(p) && isCommonJsExport(ancestors, i)) return;
      if (typescript.isPropertyAssignment(p) && p.initializer === child && isCommonJsExport(ancestors, i)) return;
      if (typescript.isBinaryExpression(p) && p.operatorToken.kind === typescript.SyntaxKind.EqualsToken && p.right === child && isCommonJsTarget(p.left, sf)) return;
      if (typescript.isTypeQueryNode(p) || typescript.isTypeOfExpression(p)) return;
      if (typescript.isCallExpression(p) && isReflectApply(p) && p.arguments[0] === child) return;
      if (typescript.isAwaitExpression(p)) {
        child = p;
        continue;
      }
      return opaque(child, id.text, v.kind === 'member' ? 'the factory is passed on as a value, so check cannot see the tools it builds' : 'the SDK module is passed on as a value, so check cannot see the tools built from it');
    }
  };
  const opaque = (node: ts.Node, what: string, reason: string): void => {
    scan.opaqueFactoryUses!.push({ kind: 'opaque-factory', span: spanOf(node, sf), what, reason });
  };

  const moduleLoads: ModuleLoadContext = {
    sf,
    leadsToSdk: (specifier) => isSdkModule(specifier) || moduleValue(specifier, fileAbs, links) !== undefined,
    initializerOf: (name) => initializerOf(name),
    constStrings,
  };

  const runScan: RunScanContext = {
    sf,
    sdkMember: (e) => {
      const r = resolve(e);
      return r && isSdkModule(r.module) ? r.member : undefined;
    },
    runtimeNames: runtimeImportNames(moduleImports),
    initializerOf: (name) => initializerOf(name),
    ancestors,
    isProtectedCallee: (callee) => isProtectedToolCallee(callee),
  };

  const isProtectedToolCallee = (callee: ts.Expression): boolean => {
    callee = skipWrappers(callee);
    if (typescript.isIdentifier(callee)) return lookupName(callee.text)?.kind === 'generated';
    if (typescript.isPropertyAccessExpression(callee) && typescript.isIdentifier(callee.expression) && callee.name.text === 'protectedTool') {
      return lookupName(callee.expression.text)?.kind === 'generated-namespace';
    }
    return false;
  };

  const countReference = (id: ts.Identifier): void => {
    const parent = ancestors[ancestors.length - 1];
    const b = bindings.get(id.text);
    if (!b || !parent || !isReferencePosition(id, parent) || !isTopLevel(id.text)) return;
    if (b.kind === 'generated-namespace' || !b.spec) return;
    b.spec.references++;
  };

  const resolveName = (opts: ToolCallOptions, target: { name?: string; nameSource?: NameSource; nameUnresolved?: string }): void => {
    const prop = opts.properties.name;
    if (!prop) {
      if (!opts.span) target.nameUnresolved = 'the options are not an object literal';
      else if (opts.hasSpread) target.nameUnresolved = 'the options spread in other properties, and `name` is not written among them';
      return;
    }
    if (prop.stringValue !== undefined) {
      target.name = prop.stringValue;
      target.nameSource = 'literal';
      return;
    }
    if (prop.identifier === undefined) {
      target.nameUnresolved = 'the `name` is not a string literal or a `const` holding one';
      return;
    }
    const id = prop.identifier;
    if (isTopLevel(id) && constStrings.has(id)) {
      target.name = constStrings.get(id)!;
      target.nameSource = 'const';
      return;
    }
    const imp = lookupImport(id);
    if (imp && (imp.specifier.startsWith('./') || imp.specifier.startsWith('../'))) {
      const v = options.importedConst?.(imp.specifier, fileAbs, imp.imported);
      if (v !== undefined) {
        target.name = v;
        target.nameSource = 'imported-const';
      } else target.nameUnresolved = `\`${id}\` is imported from '${imp.specifier}', where it is not an exported \`const\` string`;
      return;
    }
    target.nameUnresolved = `\`${id}\` is not a \`const\` string of this file or of a relative module`;
  };
  const lookupImport = (local: string): { specifier: string; imported: string } | undefined => {
    if (!isTopLevel(local)) return undefined;
    for (const imp of moduleImports) {
      if (imp.typeOnly) continue;
      const spec = imp.named.find((n) => n.local === local && !n.typeOnly);
      if (spec) return { specifier: imp.module, imported: spec.imported };
    }
    return undefined;
  };

  const onCall = (node: ts.CallExpression): void => {
    const callee = node.expression;
    const ran = runCallOf(node, runScan);
    if (ran) scan.runCalls!.push(ran);
    const identity = identityReadOf(node, runScan);
    if (identity) scan.identityReads!.push(identity);
    const handler = approvalHandlerOf(node, runScan);
    if (handler) scan.realtimeApprovalHandlers!.push(handler);
    const load = opaqueModuleLoad(node, moduleLoads);
    if (load) {
      scan.importsSdk = true;
      opaque(load.node, load.what, load.reason);
      return;
    }
    const req = requiredModule(node);
    if (req !== undefined && (isSdkModule(req) || moduleValue(req, fileAbs, links))) scan.importsSdk = true;
    if (callee.kind === typescript.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      const spec = arg && isStringLike(arg) ? arg.text : undefined;
      const v = spec !== undefined ? moduleValue(spec, fileAbs, links) : undefined;
      if (v) {
        scan.importsSdk = true;
        // `await import('m')` is followed; anything else (`.then(...)`, a stored promise) is not.
        const parent = ancestors[ancestors.length - 1];
        let up: ts.Node | undefined = parent;
        for (let i = ancestors.length - 1; up && (typescript.isParenthesizedExpression(up) || typescript.isAsExpression(up) || typescript.isNonNullExpression(up)); i--) up = ancestors[i - 1];
        if (!(up && typescript.isAwaitExpression(up)) && holdsToolFactory(v)) opaque(node, spec!, 'the dynamic import is not awaited where it is made, so check cannot follow the module it loads');
      } else if (arg && !isStringLike(arg)) {
        // A computed specifier could be the SDK: nothing can be said; not reported.
      }
      return;
    }
    const door = doorOf(callee);
    if (door !== undefined) {
      const d: NonNullable<FileScan['generatedDoorCalls']>[number] = { kind: 'generated-door', span: spanOf(node, sf), callee: spanOf(callee, sf), door };
      const local = LOCAL_DOOR_NAMES[door];
      if (local !== undefined || door === 'protectAgentTool') {
        const options = optionsOf(node.arguments[local !== undefined ? 1 : 2], sf);
        d.options = options;
        const written = (local !== undefined ? options.properties.name : options.properties.toolName)?.stringValue;
        const agentName = local === undefined && node.arguments[1] ? agentNameOf(node.arguments[1]) : undefined;
        const name = written ?? (local !== undefined ? (options.properties.name ? undefined : local) : agentName !== undefined ? toFunctionToolName(agentName) : undefined);
        if (name !== undefined) d.toolName = name;
      }
      scan.generatedDoorCalls!.push(d);
      const arg = node.arguments[door === 'protectAgentTool' ? 1 : 0];
      const a = arg ? skipWrappers(arg) : undefined;
      if (a && (door === 'protectMcpServer' || door === 'protectAgent')) {
        if (typescript.isIdentifier(a)) (door === 'protectMcpServer' ? guardedServerVars : guardedAgentVars).add(a.text);
        else if (door === 'protectAgent') guardedAgentNodes.add(a);
      }
      return;
    }
    if (isProtectedToolCallee(callee)) {
      const first = node.arguments[0];
      const opts = optionsOf(node.arguments[1], sf);
      const call: FileScan['protectedToolCalls'][number] = { kind: 'protected-tool', span: spanOf(node, sf), callee: spanOf(callee, sf), options: opts };
      if (first && isStringLike(first)) {
        call.action = first.text;
        call.actionSpan = spanOf(first, sf);
      }
      resolveName(opts, call);
      scan.protectedToolCalls.push(call);
      return;
    }
    // Indirect calls: `f.call(thisArg, o)`, `f.apply(thisArg, [o])`, `Reflect.apply(f, thisArg, [o])`.
    let target: ResolvedMember | undefined;
    let optionsArg: ts.Expression | undefined;
    let indirect: SdkToolCall['indirect'];
    const c = skipWrappers(callee);
    if (isReflectApply(node)) {
      target = node.arguments[0] ? resolve(node.arguments[0]) : undefined;
      optionsArg = firstElement(node.arguments[2]);
      indirect = 'reflect';
    } else if (typescript.isPropertyAccessExpression(c) && (c.name.text === 'call' || c.name.text === 'apply')) {
      target = resolve(c.expression);
      if (target) {
        indirect = c.name.text;
        optionsArg = c.name.text === 'call' ? node.arguments[1] : firstElement(node.arguments[1]);
      }
    }
    if (!target) {
      target = resolve(callee);
      optionsArg = node.arguments[0];
      indirect = undefined;
    }
    const r = target;
    if (r) {
      if (r.member === 'tool' && isToolFactory(r.module, 'tool')) {
        const options = optionsOf(optionsArg, sf);
        const call: SdkToolCall = {
          kind: 'sdk-tool',
          span: spanOf(node, sf),
          callee: spanOf(callee, sf),
          binding: r.binding,
          options,
        };
        if (!indirect) call.argumentsStart = node.arguments.pos;
        else call.indirect = indirect;
        if (node.typeArguments) call.hasTypeArguments = true;
        resolveName(options, call);
        scan.sdkToolCalls.push(call);
      } else if (r.member === 'hostedMcpTool' && isToolFactory(r.module, r.member)) {
        const options = optionsOf(optionsArg, sf);
        const call: FileScan['hostedMcpCalls'][number] = { kind: 'hosted-mcp', span: spanOf(node, sf), binding: r.binding, options };
        if (!indirect) call.callee = spanOf(callee, sf);
        const label = (options.properties.serverLabel ?? options.properties.server_label)?.stringValue;
        if (label !== undefined) call.serverLabel = label;
        const never = neverToolNamesOf(optionsArg, sf, constObjectLiteral);
        if (never) call.neverToolNames = never;
        const later = spreadAfter(optionsArg, 'requireApproval', sf);
        if (later) call.spreadAfterRequireApproval = later;
        scan.hostedMcpCalls.push(call);
      } else if (isToolFactory(r.module, r.member) || (r.member === 'getAllMcpTools' && isSdkModule(r.module))) {
        const f: NonNullable<FileScan['sdkFactoryCalls']>[number] = { kind: 'sdk-factory', span: spanOf(node, sf), factory: r.member, callee: spanOf(callee, sf), binding: r.binding, options: optionsOf(optionsArg, sf) };
        if (indirect) f.indirect = indirect;
        else f.argumentsStart = node.arguments.pos;
        scan.sdkFactoryCalls!.push(f);
      } else if (r.member === 'setTracingDisabled') {
        if (node.arguments[0]?.kind === typescript.SyntaxKind.TrueKeyword) scan.disablesSensitiveTracing = true;
      }
      return;
    }
    if (typescript.isPropertyAccessExpression(c) && typescript.isIdentifier(c.name)) {
      const method = c.name.text;
      if (method === 'asTool' && isAgentExpr(c.expression)) {
        const options = optionsOf(node.arguments[0], sf);
        const t: AgentAsToolCall = { kind: 'agent-as-tool', span: spanOf(node, sf), callee: spanOf(c, sf), receiver: spanOf(c.expression, sf), options, argumentCount: node.arguments.length, argumentsStart: node.arguments.pos };
        const name = options.properties.toolName ? options.properties.toolName.stringValue : agentNameOf(c.expression);
        if (name !== undefined) t.toolName = options.properties.toolName ? name : toFunctionToolName(name);
        scan.agentAsToolCalls!.push(t);
      } else if (method === 'clone' && isAgentExpr(c.expression)) {
        onAgentOptions(node, node.arguments[0], 'clone');
      } else if (method === 'push') {
        const target = skipWrappers(c.expression);
        if (typescript.isPropertyAccessExpression(target) && target.name.text === 'mcpServers') {
          pendingLists.push({ span: spanOf(node, sf), form: 'push', values: [...node.arguments], agentVar: rootIdentifier(target.expression) });
        }
      }
      if (method === 'create') {
        const agent = resolve(c.expression);
        if (agent && isAgentClass(agent.module, agent.member)) onAgentOptions(node, node.arguments[0]);
      } else if (method === 'assign' && typescript.isIdentifier(skipWrappers(c.expression)) && (skipWrappers(c.expression) as ts.Identifier).text === 'Object') {
        const rest = node.arguments.slice(1).map((a) => skipWrappers(a));
        if (rest.some((a) => typescript.isObjectLiteralExpression(a) && a.properties.some((p) => propertyName(p.name as ts.PropertyName | undefined) === 'invoke'))) {
          const r: InvokeReplacement = { kind: 'invoke-replacement', span: spanOf(node, sf), form: 'object-assign' };
          const t = node.arguments[0] ? skipWrappers(node.arguments[0]) : undefined;
          if (t && typescript.isIdentifier(t)) r.target = t.text;
          scan.invokeReplacements!.push(r);
        }
      }
      if (method === 'approve' || method === 'approveTool' || method === 'reject' || method === 'rejectTool') {
        onApproval(node, c, method);
      }
    }
  };

  const onApproval = (node: ts.CallExpression, callee: ts.PropertyAccessExpression, method: 'approve' | 'approveTool' | 'reject' | 'rejectTool'): void => {
    if (method === 'approve' || method === 'approveTool') {
      let opts = node.arguments[1] ? skipParens(node.arguments[1]) : undefined;
      // `const sticky = { alwaysApprove: true }; state.approve(item, sticky)`: the same file's const object
      if (opts && typescript.isIdentifier(opts)) opts = constObjectLiteral(opts.text);
      if (opts && typescript.isObjectLiteralExpression(opts)) {
        for (const p of opts.properties) {
          if (propertyName(p.name) !== 'alwaysApprove') continue;
          if (typescript.isPropertyAssignment(p) && p.initializer.kind === typescript.SyntaxKind.FalseKeyword) continue;
          scan.stickyApprovals.push({ kind: 'sticky-approval', span: spanOf(node, sf), method, property: spanOf(p, sf) });
          // `sticky-approval` reports it, with the same replacement.
          return;
        }
      }
    }
    // The SDK's own approval: one or two arguments (the item, options). The Control's is
    // `control.approve(state, item, answer)`; `Promise.reject(x)` is not an approval.
    const receiver = skipWrappers(callee.expression);
    const n = node.arguments.length;
    if (n < 1 || n > 2) return;
    if (typescript.isIdentifier(receiver) && receiver.text === 'Promise') return;
    if (method === 'reject' && n === 1 && typescript.isIdentifier(receiver) && /^(?:reject|deferred)$/i.test(receiver.text)) return;
    const item = node.arguments[0]!;
    if (isStringLike(item) || typescript.isNumericLiteral(item) || typescript.isNewExpression(item) || typescript.isObjectLiteralExpression(item)) return;
    // an app's own `client.approve(id)` is not the SDK's: only a RunState (or an interruption item)
    if (!isSdkApprovalCall(receiver, item, ancestors, sf)) return;
    scan.sdkApprovals!.push({ kind: 'sdk-approval', span: spanOf(node, sf), method, receiver: receiver.getText(sf), item: item.getText(sf) });
  };

  const onRunnerConfig = (arg: ts.Expression | undefined): void => {
    let config = arg ? skipWrappers(arg) : undefined;
    if (config && typescript.isIdentifier(config)) config = constObjectLiteral(config.text);
    if (!config || !typescript.isObjectLiteralExpression(config)) return;
    for (const p of config.properties) {
      if (!typescript.isPropertyAssignment(p)) continue;
      const key = propertyName(p.name);
      const k = skipWrappers(p.initializer).kind;
      if ((key === 'tracingDisabled' && k === typescript.SyntaxKind.TrueKeyword) || (key === 'traceIncludeSensitiveData' && k === typescript.SyntaxKind.FalseKeyword)) {
        scan.disablesSensitiveTracing = true;
      }
    }
  };

  /** `const <name> = { ... }` anywhere in this file (the first such declaration), for options passed by name. */
  let constObjects: Map<string, ts.ObjectLiteralExpression> | undefined;
  const constObjectLiteral = (name: string): ts.ObjectLiteralExpression | undefined => {
    if (constObjects === undefined) {
      const found = new Map<string, ts.ObjectLiteralExpression>();
      const visit = (n: ts.Node): void => {
        if (typescript.isVariableDeclarationList(n) && (n.flags & typescript.NodeFlags.Const) !== 0) {
          for (const d of n.declarations) {
            const init = d.initializer ? skipWrappers(d.initializer) : undefined;
            if (typescript.isIdentifier(d.name) && init && typescript.isObjectLiteralExpression(init) && !found.has(d.name.text)) found.set(d.name.text, init);
          }
        }
        typescript.forEachChild(n, visit);
      };
      visit(sf);
      constObjects = found;
    }
    return constObjects.get(name);
  };

  const onObjectLiteral = (node: ts.ObjectLiteralExpression): void => {
    let type: string | undefined;
    let hasInvoke = false;
    let spread: ts.Expression | undefined;
    let name: string | undefined;
    for (const p of node.properties) {
      if (typescript.isSpreadAssignment(p)) {
        spread ??= p.expression;
        continue;
      }
      const key = propertyName(p.name);
      if (key === 'invoke') hasInvoke = true;
      if (key === 'type' && typescript.isPropertyAssignment(p) && isStringLike(skipParens(p.initializer))) type = (skipParens(p.initializer) as ts.StringLiteral).text;
      if (key === 'name' && typescript.isPropertyAssignment(p) && isStringLike(skipParens(p.initializer))) name = (skipParens(p.initializer) as ts.StringLiteral).text;
    }
    if (!hasInvoke) return;
    if (spread) {
      const r: InvokeReplacement = { kind: 'invoke-replacement', span: spanOf(node, sf), form: 'spread' };
      const t = skipWrappers(spread);
      if (typescript.isIdentifier(t)) r.target = t.text;
      scan.invokeReplacements!.push(r);
    } else if (type === 'function') {
      const t: ObjectLiteralTool = { kind: 'object-literal-tool', span: spanOf(node, sf) };
      if (name !== undefined) t.name = name;
      scan.objectLiteralTools!.push(t);
    }
  };

  const onAgentOptions = (node: ts.Node, arg: ts.Expression | undefined, form: 'agent' | 'clone' = 'agent'): void => {
    let opts = arg ? skipWrappers(arg) : undefined;
    if (opts && typescript.isIdentifier(opts)) opts = constObjectLiteral(opts.text);
    if (!opts || !typescript.isObjectLiteralExpression(opts)) return;
    for (const p of opts.properties) {
      const key = propertyName(p.name);
      if (key === 'mcpServers') {
        if (form === 'agent') scan.agentMcpServers.push({ kind: 'agent-mcp-servers', span: spanOf(node, sf), property: spanOf(p, sf) });
        const value = typescript.isPropertyAssignment(p) ? p.initializer : typescript.isShorthandPropertyAssignment(p) ? p.name : undefined;
        const owner = ownerOf(node);
        pendingLists.push({ span: spanOf(p, sf), form, values: value ? [value] : [], agentNode: node, ...(owner !== undefined ? { agentVar: owner } : {}), whole: value === undefined });
      } else if (key === 'mcpConfig' && typescript.isPropertyAssignment(p)) {
        const config = skipWrappers(p.initializer);
        if (!typescript.isObjectLiteralExpression(config)) continue;
        const ef = optionsOf(config, sf).properties.errorFunction;
        if (ef && ef.valueKind !== 'null') scan.mcpErrorFunctions!.push({ kind: 'mcp-error-function', span: ef.span, where: 'mcpConfig' });
      }
    }
  };

  // --- agents, MCP servers and the generated module's doors -----------------------------------

  const doorOf = (callee: ts.Expression): string | undefined => {
    const c = skipWrappers(callee);
    if (typescript.isIdentifier(c)) return isTopLevel(c.text) ? generatedDoorNames.get(c.text) : undefined;
    if (typescript.isPropertyAccessExpression(c) && typescript.isIdentifier(c.expression) && generatedNamespaces.has(c.expression.text) && GENERATED_DOORS.has(c.name.text)) return c.name.text;
    return undefined;
  };
  /** Servers passed to `protectMcpServer(x)` and agents to `protectAgent(x)` in this file (guarded in place). */
  const guardedServerVars = new Set<string>();
  const guardedAgentVars = new Set<string>();
  const guardedAgentNodes = new Set<ts.Node>();
  interface PendingList {
    span: Span;
    form: McpServerList['form'];
    values: ts.Expression[];
    agentNode?: ts.Node;
    agentVar?: string;
    /** A property check cannot read (a method, a getter): one opaque element. */
    whole?: boolean;
  }
  const pendingLists: PendingList[] = [];

  /** The first `const|let|var <name> = <init>` of this file (any scope), for following a variable. */
  let initializers: Map<string, ts.Expression> | undefined;
  const initializerOf = (name: string): ts.Expression | undefined => {
    if (initializers === undefined) {
      const found = new Map<string, ts.Expression>();
      const walk = (n: ts.Node): void => {
        if (typescript.isVariableDeclaration(n) && typescript.isIdentifier(n.name) && n.initializer && !found.has(n.name.text)) found.set(n.name.text, n.initializer);
        typescript.forEachChild(n, walk);
      };
      walk(sf);
      initializers = found;
    }
    return initializers.get(name);
  };
  /** The variable an expression being visited is assigned to (`const a = new Agent(...)`), through wrappers. */
  const ownerOf = (_node: ts.Node): string | undefined => {
    for (let i = ancestors.length - 1; i >= 0; i--) {
      const p = ancestors[i]!;
      if (typescript.isParenthesizedExpression(p) || typescript.isAsExpression(p) || typescript.isSatisfiesExpression(p) || typescript.isNonNullExpression(p) || typescript.isAwaitExpression(p)) continue;
      return typescript.isVariableDeclaration(p) && typescript.isIdentifier(p.name) ? p.name.text : undefined;
    }
    return undefined;
  };
  /** An agent the SDK made: `new Agent(...)`, `Agent.create(...)`, `x.clone(...)` of one, or a variable holding one. */
  const isAgentExpr = (expr: ts.Expression, depth = 0): boolean => agentOptionsOf(expr, depth) !== undefined;
  /** The options argument of the agent's construction (or `null` when it has none written), undefined when not an agent. */
  const agentOptionsOf = (expr: ts.Expression, depth = 0): ts.Expression | null | undefined => {
    if (depth > 8) return undefined;
    const e = skipWrappers(expr);
    if (typescript.isNewExpression(e)) {
      const r = resolve(e.expression);
      return r && isAgentClass(r.module, r.member) && r.member !== 'RealtimeAgent' ? (e.arguments?.[0] ?? null) : undefined;
    }
    if (typescript.isCallExpression(e) && doorOf(e.expression) === 'protectAgent') return e.arguments[0] ? agentOptionsOf(e.arguments[0], depth + 1) : undefined;
    if (typescript.isCallExpression(e) && typescript.isPropertyAccessExpression(skipWrappers(e.expression))) {
      const c = skipWrappers(e.expression) as ts.PropertyAccessExpression;
      if (c.name.text === 'create') {
        const r = resolve(c.expression);
        return r && isAgentClass(r.module, r.member) && r.member !== 'RealtimeAgent' ? (e.arguments[0] ?? null) : undefined;
      }
      if (c.name.text === 'clone') {
        const base = agentOptionsOf(c.expression, depth + 1);
        return base === undefined ? undefined : null;
      }
      return undefined;
    }
    if (typescript.isIdentifier(e)) {
      const init = initializerOf(e.text);
      return init ? agentOptionsOf(init, depth + 1) : undefined;
    }
    return undefined;
  };
  /** The agent's literal `name`, when written where it is made. */
  const agentNameOf = (expr: ts.Expression): string | undefined => {
    let opts = agentOptionsOf(expr);
    if (opts && typescript.isIdentifier(skipWrappers(opts))) opts = constObjectLiteral((skipWrappers(opts) as ts.Identifier).text) ?? opts;
    return opts ? optionsOf(opts, sf).properties.name?.stringValue : undefined;
  };

  /** Each server of an `mcpServers` value, with what check knows of its protection. */
  const serverElements = (value: ts.Expression, out: McpServerElement[], depth = 0, inArray = false): void => {
    const e = skipWrappers(value);
    const element = (node: ts.Node, status: McpServerElement['status'], source?: ts.Expression): void => {
      const serverName = serverNameOf(source);
      const fetch = serverFetchOf(source);
      const fetchInsert = fetch === 'none' ? fetchInsertOf(source) : undefined;
      out.push({
        span: spanOf(node, sf),
        text: node.getText(sf),
        status,
        ...(serverName !== undefined ? { serverName } : {}),
        ...(fetch !== undefined ? { fetch } : {}),
        ...(fetchInsert !== undefined ? { fetchInsert } : {}),
        ...(inArray ? { inArray } : {}),
      });
    };
    if (typescript.isArrayLiteralExpression(e)) {
      for (const el of e.elements) {
        if (typescript.isSpreadElement(el)) {
          const inner = skipWrappers(el.expression);
          const init = typescript.isIdentifier(inner) ? initializerOf(inner.text) : undefined;
          if (init && typescript.isArrayLiteralExpression(skipWrappers(init)) && depth < 8) serverElements(init, out, depth + 1);
          else element(el, 'opaque');
        } else if (!typescript.isOmittedExpression(el)) serverElements(el, out, depth + 1, true);
      }
      return;
    }
    if (typescript.isCallExpression(e) && doorOf(e.expression) === 'protectMcpServer') return element(value, 'protected', e.arguments[0]);
    if (typescript.isNewExpression(e)) return element(value, 'unprotected', e);
    if (typescript.isIdentifier(e)) {
      if (guardedServerVars.has(e.text)) return element(value, 'protected', e);
      const init = initializerOf(e.text);
      const i = init ? skipWrappers(init) : undefined;
      if (i && typescript.isArrayLiteralExpression(i) && depth < 8) return serverElements(i, out, depth + 1, false);
      if (i && typescript.isCallExpression(i) && doorOf(i.expression) === 'protectMcpServer') return element(value, 'protected', i.arguments[0]);
      if (i && typescript.isNewExpression(i)) return element(value, 'unprotected', i);
      return element(value, i ? 'opaque' : 'unprotected');
    }
    element(value, 'opaque');
  };
  /** The options object literal of the `new` that makes the server an expression holds (through variables and `protectMcpServer`). */
  const serverOptionsOf = (expr: ts.Expression | undefined, depth = 0): ts.ObjectLiteralExpression | undefined => {
    if (!expr || depth > 4) return undefined;
    const e = skipWrappers(expr);
    if (typescript.isNewExpression(e)) {
      const arg = e.arguments?.[0] ? skipWrappers(e.arguments[0]) : undefined;
      return arg && typescript.isObjectLiteralExpression(arg) ? arg : undefined;
    }
    if (typescript.isIdentifier(e)) {
      const init = initializerOf(e.text);
      return init ? serverOptionsOf(init, depth + 1) : undefined;
    }
    if (typescript.isCallExpression(e) && doorOf(e.expression) === 'protectMcpServer') return serverOptionsOf(e.arguments[0], depth + 1);
    return undefined;
  };
  /**
   * How the server an expression makes gets its `fetch` option (CTRLRun's TLS pins need the generated
   * module's): `upstreamFetch` (a call of it), `other`, `none`; undefined when check cannot tell (no
   * `new` it can follow, a spread in the options).
   */
  const serverFetchOf = (expr: ts.Expression | undefined): McpServerElement['fetch'] => {
    const options = serverOptionsOf(expr);
    if (!options || options.properties.some((p) => typescript.isSpreadAssignment(p))) return undefined;
    const prop = options.properties.find((p) => p.name !== undefined && propertyName(p.name) === 'fetch');
    if (!prop) return 'none';
    if (!typescript.isPropertyAssignment(prop)) return 'other';
    const v = skipWrappers(prop.initializer);
    if (!typescript.isCallExpression(v)) return 'other';
    const callee = skipWrappers(v.expression);
    const name = typescript.isIdentifier(callee) ? callee.text : typescript.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
    return name === 'upstreamFetch' ? 'upstreamFetch' : 'other';
  };
  /** Where a `fetch` option would go in those options: before the first property, on its own line when they are written one per line. */
  const fetchInsertOf = (expr: ts.Expression | undefined): McpServerElement['fetchInsert'] => {
    const first = serverOptionsOf(expr)?.properties[0];
    if (!first) return undefined;
    const at = first.getStart(sf);
    const lineStart = sf.text.lastIndexOf('\n', at - 1) + 1;
    const before = sf.text.slice(lineStart, at);
    return { at, indent: /^\s*$/.test(before) ? before : null };
  };
  /** The `name` option of the server an expression makes (`new MCPServerStdio({ name: 'fs' })`), through one variable. */
  const serverNameOf = (expr: ts.Expression | undefined, depth = 0): string | undefined => {
    if (!expr || depth > 4) return undefined;
    const e = skipWrappers(expr);
    if (typescript.isNewExpression(e)) return optionsOf(e.arguments?.[0], sf).properties.name?.stringValue;
    if (typescript.isIdentifier(e)) {
      const init = initializerOf(e.text);
      return init ? serverNameOf(init, depth + 1) : undefined;
    }
    if (typescript.isCallExpression(e) && doorOf(e.expression) === 'protectMcpServer') return serverNameOf(e.arguments[0], depth + 1);
    return undefined;
  };

  visit(sf);
  for (const p of pendingLists) {
    const elements: McpServerElement[] = [];
    if (p.whole) elements.push({ span: p.span, text: '', status: 'opaque' });
    for (const v of p.values) serverElements(v, elements);
    const agentProtected = (p.agentNode !== undefined && guardedAgentNodes.has(p.agentNode)) || (p.agentVar !== undefined && guardedAgentVars.has(p.agentVar));
    scan.mcpServerLists!.push({ kind: 'mcp-server-list', span: p.span, form: p.form, agentProtected, elements });
  }
  return scan;
}

/** The exports of the generated module that guard a door (besides `protectedTool`). */
const GENERATED_DOORS = new Set(['protectMcpServer', 'protectMcpTools', 'protectAgent', 'protectAgentTool', 'protectHostedMcp', 'protectShellTool', 'protectApplyPatchTool', 'protectComputerTool']);

/** The SDK's default tool name of each local door of the generated module. */
const LOCAL_DOOR_NAMES: Record<string, string | undefined> = { protectShellTool: 'shell', protectApplyPatchTool: 'apply_patch', protectComputerTool: 'computer_use_preview' };

/** The SDK's default name of an agent's tool (`toFunctionToolName`). */
function toFunctionToolName(name: string): string {
  return name.replace(/\s/g, '_').replace(/[^a-zA-Z0-9]/g, '_');
}

/** The identifier at the root of `a.b.c` (`a`). */
function rootIdentifier(expr: ts.Expression): string | undefined {
  let e = skipWrappers(expr);
  while (typescript.isPropertyAccessExpression(e) || typescript.isElementAccessExpression(e)) e = skipWrappers(e.expression);
  return typescript.isIdentifier(e) ? e.text : undefined;
}

/** `requireApproval: { never: { toolNames: [...] } }` (or `never: [...]`) of hostedMcpTool's options literal. */
function neverToolNamesOf(arg: ts.Expression | undefined, sf: ts.SourceFile, constObject: (name: string) => ts.ObjectLiteralExpression | undefined): HostedMcpCall['neverToolNames'] {
  const opts = arg ? skipWrappers(arg) : undefined;
  if (!opts || !typescript.isObjectLiteralExpression(opts)) return undefined;
  // a value written in place, or a `const` object of this file (`const requireApproval = { never: ... }`)
  const member = (obj: ts.ObjectLiteralExpression, key: string): ts.Expression | undefined => {
    for (const p of obj.properties) {
      if (typescript.isShorthandPropertyAssignment(p) && p.name.text === key) return constObject(p.name.text) ?? p.name;
      if (!typescript.isPropertyAssignment(p) || propertyName(p.name) !== key) continue;
      const v = skipWrappers(p.initializer);
      return (typescript.isIdentifier(v) ? constObject(v.text) : undefined) ?? v;
    }
    return undefined;
  };
  const ra = member(opts, 'requireApproval');
  if (!ra || !typescript.isObjectLiteralExpression(ra)) return undefined;
  const never = member(ra, 'never');
  // an object with no `never` filter: no tool is exempt from approval
  if (!never) return { span: spanOf(ra, sf), names: [], complete: true };
  let list: ts.Expression | undefined = never;
  if (typescript.isObjectLiteralExpression(never)) list = member(never, 'toolNames') ?? member(never, 'tool_names');
  const out: NonNullable<HostedMcpCall['neverToolNames']> = { span: spanOf(never, sf), names: [], complete: true };
  if (!list || !typescript.isArrayLiteralExpression(list)) {
    out.complete = false;
    return out;
  }
  for (const el of list.elements) {
    const v = skipWrappers(el as ts.Expression);
    if (isStringLike(v)) out.names.push({ name: v.text, span: spanOf(v, sf) });
    else out.complete = false;
  }
  return out;
}

/** The first spread written after property `key` in an options object literal, if any. */
function spreadAfter(arg: ts.Expression | undefined, key: string, sf: ts.SourceFile): Span | undefined {
  const opts = arg ? skipWrappers(arg) : undefined;
  if (!opts || !typescript.isObjectLiteralExpression(opts)) return undefined;
  const at = opts.properties.findIndex((p) => !typescript.isSpreadAssignment(p) && propertyName(p.name) === key);
  if (at < 0) return undefined;
  const spread = opts.properties.slice(at + 1).find((p) => typescript.isSpreadAssignment(p));
  return spread ? spanOf(spread, sf) : undefined;
}

/** `Reflect.apply(f, thisArg, args)`. */
function isReflectApply(node: ts.CallExpression): boolean {
  const c = skipWrappers(node.expression);
  return typescript.isPropertyAccessExpression(c) && c.name.text === 'apply' && typescript.isIdentifier(c.expression) && c.expression.text === 'Reflect';
}

/** The first element of an array literal argument (`[opts]`). */
function firstElement(arg: ts.Expression | undefined): ts.Expression | undefined {
  const a = arg ? skipWrappers(arg) : undefined;
  return a && typescript.isArrayLiteralExpression(a) ? a.elements[0] : undefined;
}

/** Whether the object literal at `ancestors[i]`'s parent chain is assigned to `module.exports`. */
function isCommonJsExport(ancestors: ts.Node[], i: number): boolean {
  const obj = ancestors[i - 1];
  const assign = ancestors[i - 2];
  return !!obj && typescript.isObjectLiteralExpression(obj) && !!assign && typescript.isBinaryExpression(assign) && assign.right === obj && /^module\.exports$/.test(assign.left.getText());
}

function isCommonJsTarget(left: ts.Expression, sf: ts.SourceFile): boolean {
  return /^(?:module\.exports|(?:module\.)?exports\.[A-Za-z_$][\w$]*)$/.test(left.getText(sf));
}

/** Adds to `names` every identifier a variable declaration binds whose initializer could be an SDK alias. */
function collectAliasNames(sf: ts.SourceFile, names: Set<string>): void {
  const visit = (n: ts.Node): void => {
    if (typescript.isVariableDeclaration(n) && n.initializer) {
      const init = skipWrappers(n.initializer);
      if (typescript.isIdentifier(init) || typescript.isPropertyAccessExpression(init) || typescript.isElementAccessExpression(init) || typescript.isAwaitExpression(init) || typescript.isCallExpression(init)) {
        for (const name of bindingNames(n.name)) names.add(name);
      }
    }
    typescript.forEachChild(n, visit);
  };
  visit(sf);
}

/** Top-level `const X = 'string'` (also `as const`, a template without substitutions). */
export function topLevelConstStrings(sf: ts.SourceFile): Map<string, string> {
  const out = new Map<string, string>();
  for (const st of sf.statements) {
    if (!typescript.isVariableStatement(st) || !(st.declarationList.flags & typescript.NodeFlags.Const)) continue;
    for (const d of st.declarationList.declarations) {
      if (!typescript.isIdentifier(d.name) || !d.initializer) continue;
      const v = skipWrappers(d.initializer);
      if (isStringLike(v)) out.set(d.name.text, v.text);
    }
  }
  return out;
}

/** `export const X = 'string'` (or `const X = ...; export { X }`) of a module: the exported name's string. */
export function exportedConstString(sf: ts.SourceFile, name: string): string | undefined {
  const consts = topLevelConstStrings(sf);
  for (const st of sf.statements) {
    if (typescript.isVariableStatement(st) && typescript.getModifiers(st)?.some((m) => m.kind === typescript.SyntaxKind.ExportKeyword)) {
      if (st.declarationList.declarations.some((d) => typescript.isIdentifier(d.name) && d.name.text === name) && consts.has(name)) return consts.get(name);
    } else if (typescript.isExportDeclaration(st) && !st.moduleSpecifier && st.exportClause && typescript.isNamedExports(st.exportClause)) {
      for (const el of st.exportClause.elements) if (el.name.text === name) return consts.get((el.propertyName ?? el.name).text);
    }
  }
  return undefined;
}

function skipParens(expr: ts.Expression): ts.Expression {
  while (typescript.isParenthesizedExpression(expr)) expr = expr.expression;
  return expr;
}

function isStringLike(node: ts.Node): node is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral {
  return typescript.isStringLiteral(node) || typescript.isNoSubstitutionTemplateLiteral(node);
}

function propertyName(name: ts.PropertyName | undefined): string | undefined {
  if (!name) return undefined;
  if (typescript.isIdentifier(name) || typescript.isStringLiteral(name) || typescript.isNumericLiteral(name) || typescript.isNoSubstitutionTemplateLiteral(name)) return name.text;
  if (typescript.isComputedPropertyName(name) && isStringLike(name.expression)) return name.expression.text;
  return undefined;
}

/** Reads the literal options object of a call (first level only). */
export function optionsOf(arg: ts.Expression | undefined, sf: ts.SourceFile): ToolCallOptions {
  const out: ToolCallOptions = { properties: {}, hasSpread: false };
  if (!arg) return out;
  let expr = skipParens(arg);
  while (typescript.isAsExpression(expr) || typescript.isSatisfiesExpression(expr)) expr = skipParens(expr.expression);
  if (!typescript.isObjectLiteralExpression(expr)) return out;
  out.span = spanOf(expr, sf);
  for (const p of expr.properties) {
    if (typescript.isSpreadAssignment(p)) {
      out.hasSpread = true;
      continue;
    }
    const name = propertyName(p.name);
    if (name === undefined) continue;
    const span = spanOf(p, sf);
    let prop: OptionProperty;
    if (typescript.isPropertyAssignment(p)) {
      const v = skipParens(p.initializer);
      prop = { span, valueSpan: spanOf(p.initializer, sf), valueKind: valueKindOf(v) };
      if (isStringLike(v)) prop.stringValue = v.text;
      const id = skipWrappers(p.initializer);
      if (typescript.isIdentifier(id)) prop.identifier = id.text;
    } else if (typescript.isShorthandPropertyAssignment(p)) {
      prop = { span, valueSpan: span, valueKind: 'other', identifier: p.name.text };
    } else if (typescript.isMethodDeclaration(p)) {
      prop = { span, valueSpan: span, valueKind: 'function' };
    } else {
      prop = { span, valueSpan: span, valueKind: 'other' };
    }
    out.properties[name] = prop;
  }
  return out;
}

function valueKindOf(v: ts.Expression): OptionProperty['valueKind'] {
  switch (v.kind) {
    case typescript.SyntaxKind.TrueKeyword:
      return 'true';
    case typescript.SyntaxKind.FalseKeyword:
      return 'false';
    case typescript.SyntaxKind.NullKeyword:
      return 'null';
    case typescript.SyntaxKind.StringLiteral:
    case typescript.SyntaxKind.NoSubstitutionTemplateLiteral:
      return 'string';
    case typescript.SyntaxKind.ArrowFunction:
    case typescript.SyntaxKind.FunctionExpression:
      return 'function';
    default:
      return 'other';
  }
}

/** An identifier that reads a binding (not a property name, a declaration's name or a label). */
function isReferencePosition(id: ts.Identifier, parent: ts.Node): boolean {
  if (typescript.isPropertyAccessExpression(parent)) return parent.expression === id;
  if (typescript.isQualifiedName(parent)) return parent.left === id;
  if (
    typescript.isPropertyAssignment(parent) ||
    typescript.isPropertyDeclaration(parent) ||
    typescript.isPropertySignature(parent) ||
    typescript.isMethodDeclaration(parent) ||
    typescript.isMethodSignature(parent) ||
    typescript.isGetAccessorDeclaration(parent) ||
    typescript.isSetAccessorDeclaration(parent) ||
    typescript.isEnumMember(parent)
  ) {
    return parent.name !== id;
  }
  if (typescript.isBindingElement(parent)) return parent.initializer === id;
  if (typescript.isVariableDeclaration(parent) || typescript.isParameter(parent)) return parent.initializer === id;
  if (typescript.isFunctionDeclaration(parent) || typescript.isFunctionExpression(parent) || typescript.isClassDeclaration(parent) || typescript.isClassExpression(parent)) return parent.name !== id;
  if (typescript.isInterfaceDeclaration(parent) || typescript.isTypeAliasDeclaration(parent) || typescript.isEnumDeclaration(parent) || typescript.isModuleDeclaration(parent)) return parent.name !== id;
  if (typescript.isLabeledStatement(parent) || typescript.isBreakOrContinueStatement(parent)) return false;
  if (typescript.isJsxAttribute(parent)) return parent.name !== id;
  if (typescript.isExportSpecifier(parent)) return (parent.propertyName ?? parent.name) === id;
  if (typescript.isImportSpecifier(parent) || typescript.isImportClause(parent) || typescript.isNamespaceImport(parent)) return false;
  return true;
}
