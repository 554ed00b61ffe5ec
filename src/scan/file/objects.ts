import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { spanOf } from '../parse.js';
import { isSdkModule } from '../imports.js';
import { isStringLike, propertyName, skipWrappers } from '../syntax.js';
import type { InvokeReplacement } from '../types.js';
import { agentClassOf, agentVarOf, type FileContext } from './context.js';
import { constStringOf } from './names.js';
import { onLiteralDoor } from './literal-doors.js';
import { pushTool, unreadFunctionTool } from './function-objects.js';
import { handedToAgent } from './agent-tool-exports.js';
import { mayBeAgent, mcpServersKey } from './mcp-lists.js';
import { onPropertyWrites, TOOL_SOURCES } from './door-writes.js';
import { assignmentWrites, spreadWrites } from './property-writes.js';

// Tools written as plain objects and `invoke` replaced after the fact: doors that bypass `tool()`.

/**
 * `{ type: 'function', name, invoke }` (a tool by hand) or `{ ...t, invoke }` (a tool's body swapped).
 * The `type` may be a `const` holding 'function' (`{ type: FUNCTION, ... }`, `{ type, ... }`): the
 * SDK tests the value, not how it is spelled.
 */
export function onObjectLiteral(cx: FileContext, node: ts.ObjectLiteralExpression): void {
  let type: ts.Expression | undefined;
  let hasInvoke = false;
  let spread: ts.Expression | undefined;
  let name: ts.Expression | undefined;
  for (const p of node.properties) {
    if (typescript.isSpreadAssignment(p)) {
      spread ??= p.expression;
      continue;
    }
    const key = propertyName(p.name);
    if (key === 'invoke') hasInvoke = true;
    const value = typescript.isPropertyAssignment(p) ? p.initializer : typescript.isShorthandPropertyAssignment(p) ? p.name : undefined;
    if (key === 'type') type = value;
    if (key === 'name') name = value;
  }
  // a copy of a door with a part of it written (`{ ...t, invoke }`, `{ ...sh, shell }`): file/door-writes.ts
  if (spread) {
    onPropertyWrites(cx, spreadWrites(node));
    if (hasInvoke) return;
  }
  if (!hasInvoke) {
    // no `invoke`: a local door or hosted MCP tool written as its factory's object, found by `type`
    if (type) onLiteralDoor(cx, node, type);
    return;
  }
  if (!type) return;
  const value = constStringOf(cx, type);
  if (value === 'function') pushTool(cx, node, name, 'object');
  // `{ type: KIND, invoke }` another module hands to an agent's `tools`: it may be 'function' (fail closed)
  else if (value === undefined && handedToAgent(cx, node)) unreadFunctionTool(cx, node, type, name);
}

/**
 * A class whose instances are function tools: it `implements` the SDK's `FunctionTool`, or it sets
 * `type = 'function'` and has an `invoke` (what the SDK tests). Reported at the class: each
 * `new` of it is a door no `tool()` declares.
 */
/** A class extending the SDK's Agent (or a class of the file extending one) that overrides a method of `TOOL_SOURCES`. */
function onAgentOverride(cx: FileContext, node: ts.ClassLikeDeclaration): void {
  const base = node.heritageClauses?.find((h) => h.token === typescript.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
  if (!base || !cx.scan.importsSdk) return;
  const overrides = node.members.filter((m) => {
    if (typescript.canHaveModifiers(m) && typescript.getModifiers(m)?.some((x) => x.kind === typescript.SyntaxKind.StaticKeyword)) return false;
    const named = typescript.isMethodDeclaration(m) || typescript.isPropertyDeclaration(m) || typescript.isGetAccessorDeclaration(m);
    return named && TOOL_SOURCES.has(propertyName(m.name) ?? '');
  });
  if (overrides.length === 0 || !agentClassOf(cx, base)) return;
  for (const m of overrides) {
    const r: InvokeReplacement = { kind: 'invoke-replacement', span: spanOf(m.name!, cx.sf), form: 'override', method: propertyName(m.name!)! };
    if (node.name) r.target = node.name.text;
    cx.scan.invokeReplacements!.push(r);
  }
}

export function onClass(cx: FileContext, node: ts.ClassLikeDeclaration): void {
  onAgentOverride(cx, node);
  let type: ts.Expression | undefined;
  let name: ts.Expression | undefined;
  let hasInvoke = false;
  for (const m of node.members) {
    // a static member is the class's own, not its instances'
    if (typescript.canHaveModifiers(m) && typescript.getModifiers(m)?.some((x) => x.kind === typescript.SyntaxKind.StaticKeyword)) continue;
    if (typescript.isGetAccessorDeclaration(m) && propertyName(m.name) === 'type') type = getterReturn(m) ?? type;
    if (!typescript.isPropertyDeclaration(m) && !typescript.isMethodDeclaration(m)) continue;
    const key = propertyName(m.name);
    if (key === 'invoke') hasInvoke = true;
    if (typescript.isPropertyDeclaration(m) && m.initializer && key === 'type') type = m.initializer;
    if (typescript.isPropertyDeclaration(m) && m.initializer && key === 'name') name = m.initializer;
  }
  const byShape = hasInvoke && type !== undefined && constStringOf(cx, type) === 'function';
  if (byShape || implementsSdkTool(cx, node)) pushTool(cx, node, name, 'class');
}

/** What `get type() { return <e>; }` returns, when its body is that one statement. */
function getterReturn(m: ts.GetAccessorDeclaration): ts.Expression | undefined {
  const only = m.body?.statements.length === 1 ? m.body.statements[0] : undefined;
  return only && typescript.isReturnStatement(only) ? only.expression : undefined;
}

/** `implements FunctionTool` (or `Tool`, `agents.FunctionTool`) where the name is the SDK's type. */
function implementsSdkTool(cx: FileContext, node: ts.ClassLikeDeclaration): boolean {
  for (const clause of node.heritageClauses ?? []) {
    if (clause.token !== typescript.SyntaxKind.ImplementsKeyword) continue;
    for (const t of clause.types) {
      const e = t.expression;
      if (typescript.isIdentifier(e) && isSdkToolType(cx, e.text, undefined)) return true;
      if (typescript.isPropertyAccessExpression(e) && typescript.isIdentifier(e.expression) && isSdkToolType(cx, e.expression.text, e.name.text)) return true;
    }
  }
  return false;
}

const SDK_TOOL_TYPES = new Set(['FunctionTool', 'Tool']);

/** `local` (or `local.member`) names the SDK's FunctionTool/Tool type: a named or namespace import of an SDK module. */
function isSdkToolType(cx: FileContext, local: string, member: string | undefined): boolean {
  return cx.moduleImports.some((imp) => {
    if (!isSdkModule(imp.module)) return false;
    if (member !== undefined) return imp.namespaceName === local && SDK_TOOL_TYPES.has(member);
    return imp.named.some((n) => n.local === local && SDK_TOOL_TYPES.has(n.imported));
  });
}

/** `x.mcpServers = [...]` (kept for later) and a door's part written (`t.invoke = ...`). */
export function onAssignment(cx: FileContext, node: ts.BinaryExpression): void {
  const left = skipWrappers(node.left);
  const key = typescript.isPropertyAccessExpression(left)
    ? left.name.text
    : typescript.isElementAccessExpression(left) && isStringLike(left.argumentExpression)
      ? left.argumentExpression.text
      : undefined;
  // `agent[KEY] = [...]` of a const 'mcpServers', or of a key check cannot know (its unguarded SDK servers only)
  const maybe = key === undefined && typescript.isElementAccessExpression(left) ? mcpServersKey(cx, left) : undefined;
  const computed = maybe === 'maybe' && !mayBeAgent(cx, (left as ts.ElementAccessExpression).expression) ? undefined : maybe;
  if ((key === 'mcpServers' || computed !== undefined) && cx.scan.importsSdk) {
    const target = (left as ts.PropertyAccessExpression | ts.ElementAccessExpression).expression;
    cx.pendingLists.push({
      span: spanOf(node, cx.sf),
      form: 'assignment',
      values: [node.right],
      agentVar: agentVarOf(cx, target),
      ancestors: cx.ancestors.slice(),
      ...(computed === 'maybe' ? { serversOnly: true } : {}),
    });
  }
  // `t.invoke = ...`, `agent.getAllTools = ...`, `sh.shell = ...`, `h.onInvokeHandoff = ...`: file/door-writes.ts
  onPropertyWrites(cx, assignmentWrites(node));
}
