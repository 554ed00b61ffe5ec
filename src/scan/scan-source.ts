import path from 'node:path';
import { ts } from 'ts-morph';
import { declaredNames } from './scope.js';
import { bindingsOf, collectModuleImports, isGeneratedSpecifier, isSdkModule, requiredModule, type Binding } from './imports.js';
import { parseSource, spanOf } from './parse.js';
import { findSuppressions } from './suppressions.js';
import type { CalleeBinding, FileScan, OptionProperty, ToolCallOptions } from './types.js';

export interface ScanSourceOptions {
  /** Absolute repo root `file` is relative to (to resolve relative specifiers). */
  root?: string;
  /** Absolute path of the generated module: its imports are recognised by resolved path. */
  generatedModule?: string;
}

/** What a callee expression resolves to: an export of an SDK module, and how it was bound. */
interface ResolvedMember {
  member: string;
  binding: CalleeBinding;
}

/** Scans one file's text (pure). */
export function scanSource(file: string, text: string, options: ScanSourceOptions = {}): FileScan {
  const { sf, parseError } = parseSource(file, text);
  const moduleImports = collectModuleImports(sf);
  const fileAbs = options.root ? path.resolve(options.root, file) : undefined;
  const bindings = bindingsOf(moduleImports, { fileAbs, generatedModule: options.generatedModule });
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
    moduleImports,
  };
  if (parseError) scan.parseError = parseError;

  let esmSyntax = false;
  let requires = false;
  for (const imp of moduleImports) {
    if (imp.syntax === 'import') esmSyntax = true;
    else requires = true;
    if (isSdkModule(imp.module)) scan.importsSdk = true;
    if (imp.module && !isSdkModule(imp.module) && isGeneratedSpecifier(imp.module, { fileAbs, generatedModule: options.generatedModule })) {
      if (imp.namespaceName && !imp.typeOnly) {
        scan.generatedImports.push({ span: imp.span, specifier: imp.module, localName: `${imp.namespaceName}.protectedTool`, syntax: imp.syntax });
      }
      for (const spec of imp.named) {
        if (spec.imported === 'protectedTool' && !spec.typeOnly) {
          scan.generatedImports.push({ span: imp.span, specifier: imp.module, localName: spec.local, syntax: imp.syntax });
        }
      }
    }
  }
  for (const st of sf.statements) {
    const exported = ts.canHaveModifiers(st) && !!ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (ts.isExportDeclaration(st) || ts.isExportAssignment(st) || exported) esmSyntax = true;
  }
  const ext = path.extname(file).toLowerCase();
  scan.moduleSyntax = ext === '.cts' || ext === '.cjs' || (requires && !esmSyntax) ? 'commonjs' : 'esm';

  const interesting = new Set(bindings.keys());
  const shadowStack: Set<string>[] = [];
  const isShadowed = (name: string) => shadowStack.some((s) => s.has(name));
  const lookup = (id: ts.Identifier): Binding | undefined => {
    const b = bindings.get(id.text);
    return b && !isShadowed(id.text) ? b : undefined;
  };

  const resolve = (expr: ts.Expression): ResolvedMember | undefined => {
    expr = skipParens(expr);
    if (ts.isIdentifier(expr)) {
      const b = lookup(expr);
      if (b?.kind !== 'member') return undefined;
      return { member: b.member, binding: { module: b.module, kind: b.via, localName: expr.text } };
    }
    if (ts.isPropertyAccessExpression(expr) && ts.isIdentifier(expr.name)) {
      const member = expr.name.text;
      const base = skipParens(expr.expression);
      if (ts.isIdentifier(base)) {
        const b = lookup(base);
        if (b?.kind === 'module') return { member, binding: { module: b.module, kind: 'namespace', localName: base.text } };
        // `import { realtime } from '@openai/agents'` then `realtime.tool`.
        if (b?.kind === 'member' && b.member === 'realtime' && b.module === '@openai/agents') {
          return { member, binding: { module: '@openai/agents-realtime', kind: 'namespace', localName: base.text } };
        }
        return undefined;
      }
      // `agents.realtime.tool`
      const inner = resolve(base);
      if (inner?.member === 'realtime' && inner.binding.module === '@openai/agents') {
        return { member, binding: { module: '@openai/agents-realtime', kind: 'namespace', localName: inner.binding.localName } };
      }
    }
    return undefined;
  };

  const visit = (node: ts.Node, parent: ts.Node | undefined): void => {
    if (ts.isImportDeclaration(node)) return;
    const declared = node.kind === ts.SyntaxKind.SourceFile ? [] : declaredNames(node, interesting);
    if (declared.length > 0) shadowStack.push(new Set(declared));

    if (ts.isIdentifier(node)) {
      countReference(node, parent);
    } else if (ts.isCallExpression(node)) {
      onCall(node);
    } else if (ts.isNewExpression(node)) {
      const r = resolve(node.expression);
      if (r && (r.member === 'Agent' || r.member === 'RealtimeAgent')) onAgentOptions(node, node.arguments?.[0]);
    } else if (ts.isPropertyAssignment(node)) {
      const key = propertyName(node.name);
      const k = node.initializer.kind;
      if ((key === 'tracingDisabled' && k === ts.SyntaxKind.TrueKeyword) || (key === 'traceIncludeSensitiveData' && k === ts.SyntaxKind.FalseKeyword)) {
        scan.disablesSensitiveTracing = true;
      }
    }
    ts.forEachChild(node, (child) => visit(child, node));
    if (declared.length > 0) shadowStack.pop();
  };

  const isProtectedToolCallee = (callee: ts.Expression): boolean => {
    if (ts.isIdentifier(callee)) return lookup(callee)?.kind === 'generated';
    if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.name.text === 'protectedTool') {
      return lookup(callee.expression)?.kind === 'generated-namespace';
    }
    return false;
  };

  const countReference = (id: ts.Identifier, parent: ts.Node | undefined): void => {
    const b = bindings.get(id.text);
    if (!b || b.kind === 'module' || b.kind === 'generated-namespace' || !parent || !isReferencePosition(id, parent) || isShadowed(id.text)) return;
    b.spec.references++;
  };

  const onCall = (node: ts.CallExpression): void => {
    const callee = node.expression;
    if (requiredModule(node) !== undefined && isSdkModule(requiredModule(node)!)) scan.importsSdk = true;
    if (node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg && ts.isStringLiteral(arg) && isSdkModule(arg.text)) scan.importsSdk = true;
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
      const name = opts.properties.name;
      if (name?.stringValue !== undefined) call.name = name.stringValue;
      scan.protectedToolCalls.push(call);
      return;
    }
    const r = resolve(callee);
    if (r) {
      if (r.member === 'tool') {
        const options = optionsOf(node.arguments[0], sf);
        const call: FileScan['sdkToolCalls'][number] = {
          kind: 'sdk-tool',
          span: spanOf(node, sf),
          callee: spanOf(callee, sf),
          binding: r.binding,
          options,
          argumentsStart: node.arguments.pos,
        };
        if (node.typeArguments) call.hasTypeArguments = true;
        const name = options.properties.name?.stringValue;
        if (name !== undefined) call.name = name;
        scan.sdkToolCalls.push(call);
      } else if (r.member === 'hostedMcpTool') {
        const options = optionsOf(node.arguments[0], sf);
        const call: FileScan['hostedMcpCalls'][number] = { kind: 'hosted-mcp', span: spanOf(node, sf), binding: r.binding, options };
        const label = (options.properties.serverLabel ?? options.properties.server_label)?.stringValue;
        if (label !== undefined) call.serverLabel = label;
        scan.hostedMcpCalls.push(call);
      } else if (r.member === 'setTracingDisabled') {
        if (node.arguments[0]?.kind === ts.SyntaxKind.TrueKeyword) scan.disablesSensitiveTracing = true;
      }
      return;
    }
    if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.name)) {
      const method = callee.name.text;
      if (method === 'create') {
        const agent = resolve(callee.expression);
        if (agent && (agent.member === 'Agent' || agent.member === 'RealtimeAgent')) onAgentOptions(node, node.arguments[0]);
      } else if (method === 'approve' || method === 'approveTool') {
        const opts = node.arguments[1] ? skipParens(node.arguments[1]) : undefined;
        if (opts && ts.isObjectLiteralExpression(opts)) {
          for (const p of opts.properties) {
            if (propertyName(p.name) !== 'alwaysApprove') continue;
            if (ts.isPropertyAssignment(p) && p.initializer.kind === ts.SyntaxKind.FalseKeyword) continue;
            scan.stickyApprovals.push({ kind: 'sticky-approval', span: spanOf(node, sf), method, property: spanOf(p, sf) });
          }
        }
      }
    }
  };

  const onAgentOptions = (node: ts.Node, arg: ts.Expression | undefined): void => {
    const opts = arg ? skipParens(arg) : undefined;
    if (!opts || !ts.isObjectLiteralExpression(opts)) return;
    for (const p of opts.properties) {
      if (propertyName(p.name) === 'mcpServers') {
        scan.agentMcpServers.push({ kind: 'agent-mcp-servers', span: spanOf(node, sf), property: spanOf(p, sf) });
      }
    }
  };

  visit(sf, undefined);
  return scan;
}

function skipParens(expr: ts.Expression): ts.Expression {
  while (ts.isParenthesizedExpression(expr)) expr = expr.expression;
  return expr;
}

function isStringLike(node: ts.Node): node is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral {
  return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node);
}

function propertyName(name: ts.PropertyName | undefined): string | undefined {
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name)) return name.text;
  if (ts.isComputedPropertyName(name) && isStringLike(name.expression)) return name.expression.text;
  return undefined;
}

/** Reads the literal options object of a call (first level only). */
export function optionsOf(arg: ts.Expression | undefined, sf: ts.SourceFile): ToolCallOptions {
  const out: ToolCallOptions = { properties: {}, hasSpread: false };
  if (!arg) return out;
  let expr = skipParens(arg);
  while (ts.isAsExpression(expr) || ts.isSatisfiesExpression(expr)) expr = skipParens(expr.expression);
  if (!ts.isObjectLiteralExpression(expr)) return out;
  out.span = spanOf(expr, sf);
  for (const p of expr.properties) {
    if (ts.isSpreadAssignment(p)) {
      out.hasSpread = true;
      continue;
    }
    const name = propertyName(p.name);
    if (name === undefined) continue;
    const span = spanOf(p, sf);
    let prop: OptionProperty;
    if (ts.isPropertyAssignment(p)) {
      const v = skipParens(p.initializer);
      prop = { span, valueSpan: spanOf(p.initializer, sf), valueKind: valueKindOf(v) };
      if (isStringLike(v)) prop.stringValue = v.text;
    } else if (ts.isMethodDeclaration(p)) {
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
    case ts.SyntaxKind.TrueKeyword:
      return 'true';
    case ts.SyntaxKind.FalseKeyword:
      return 'false';
    case ts.SyntaxKind.NullKeyword:
      return 'null';
    case ts.SyntaxKind.StringLiteral:
    case ts.SyntaxKind.NoSubstitutionTemplateLiteral:
      return 'string';
    case ts.SyntaxKind.ArrowFunction:
    case ts.SyntaxKind.FunctionExpression:
      return 'function';
    default:
      return 'other';
  }
}

/** An identifier that reads a binding (not a property name, a declaration's name or a label). */
function isReferencePosition(id: ts.Identifier, parent: ts.Node): boolean {
  if (ts.isPropertyAccessExpression(parent)) return parent.expression === id;
  if (ts.isQualifiedName(parent)) return parent.left === id;
  if (
    ts.isPropertyAssignment(parent) ||
    ts.isPropertyDeclaration(parent) ||
    ts.isPropertySignature(parent) ||
    ts.isMethodDeclaration(parent) ||
    ts.isMethodSignature(parent) ||
    ts.isGetAccessorDeclaration(parent) ||
    ts.isSetAccessorDeclaration(parent) ||
    ts.isEnumMember(parent)
  ) {
    return parent.name !== id;
  }
  if (ts.isBindingElement(parent)) return parent.initializer === id;
  if (ts.isVariableDeclaration(parent) || ts.isParameter(parent)) return parent.initializer === id;
  if (ts.isFunctionDeclaration(parent) || ts.isFunctionExpression(parent) || ts.isClassDeclaration(parent) || ts.isClassExpression(parent)) return parent.name !== id;
  if (ts.isInterfaceDeclaration(parent) || ts.isTypeAliasDeclaration(parent) || ts.isEnumDeclaration(parent) || ts.isModuleDeclaration(parent)) return parent.name !== id;
  if (ts.isLabeledStatement(parent) || ts.isBreakOrContinueStatement(parent)) return false;
  if (ts.isJsxAttribute(parent)) return parent.name !== id;
  if (ts.isExportSpecifier(parent)) return (parent.propertyName ?? parent.name) === id;
  if (ts.isImportSpecifier(parent) || ts.isImportClause(parent) || ts.isNamespaceImport(parent)) return false;
  return true;
}
