import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { isAgentClass } from '../imports.js';
import { spanOf } from '../parse.js';
import { type ApprovalFile, cannotBeItem, isSdkAnswerReceiver, isSdkApprovalCall } from '../approvals.js';
import { answerKey } from './answer-keys.js';
import { constStringOf } from './names.js';
import { thisClassHasMethod } from '../this-fields.js';
import { declarationOf } from '../local-values.js';
import { helperAnswer } from './approval-parameters.js';
import { isReflectApply, isStringLike, propertyName, skipParens, skipWrappers } from '../syntax.js';
import { onPropertyWrites } from './door-writes.js';
import { onHandoffClone } from './handoffs.js';
import { callWrites } from './property-writes.js';
import { onAsTool } from './agent-tools.js';
import { isAgentExpr, onAgentOptions, onToolsAdded } from './agents.js';
import { agentOf } from './agent-values.js';
import { constObjectLiteral, resolve, sdkTypeMember, usesAgents, type FileContext } from './context.js';

// Method calls: `agent.asTool()`, `agent.clone()`, `Agent.create()` (`x.mcpServers.push()`: file/mcp-lists.ts),
// a door's part written (`Object.assign(t, { invoke })`: file/door-writes.ts) and the SDK's approvals (`state.approve(item)`).

type ApprovalMethod = 'approve' | 'approveTool' | 'reject' | 'rejectTool';
const APPROVAL_METHODS = new Set<string>(['approve', 'approveTool', 'reject', 'rejectTool']);

export function onMethodCall(cx: FileContext, node: ts.CallExpression): void {
  // `r.interruptions.forEach(r.state.approve, r.state)`, `items.map(state.reject.bind(state))`: the
  // method handed over as a value answers each item it is called with (Reflect.apply's: read below)
  const c = skipWrappers(node.expression);
  if (!isReflectApply(node)) for (const a of node.arguments) onAnswerValue(cx, a, callbackThis(c, node));
  if (typescript.isElementAccessExpression(c)) {
    const key = skipWrappers(c.argumentExpression);
    // `agent['asTool'](o)` is the same door as `agent.asTool(o)`
    if (isStringLike(key) && key.text === 'asTool') return onAsToolCall(cx, node, c);
    // `state['reject'](i)`, `state[verdict](i)`: the SDK's answer by a key (answer-keys.ts)
    const answer = answerKey(key, cx.ancestors, cx.sf, cx.hoisted, (e) => constStringOf(cx, e));
    if (answer) onApproval(cx, node, c.expression, answer.method, { key: isStringLike(key) ? undefined : key.getText(cx.sf), unread: answer.unread });
    return;
  }
  if (!typescript.isPropertyAccessExpression(c) || !typescript.isIdentifier(c.name)) return;
  const method = c.name.text;
  // `agent.tools.push(x)`: what is added is the agent's tools
  if (method === 'push' || method === 'unshift') onToolsAdded(cx, c.expression, node.arguments);
  else if (method === 'splice') onToolsAdded(cx, c.expression, node.arguments.slice(2));
  if (method === 'asTool') onAsToolCall(cx, node, c);
  else if (method === 'clone' && isAgentExpr(cx, c.expression)) onAgentOptions(cx, node, node.arguments[0], 'clone');
  // `h.clone({ onInvokeHandoff })`: a copy of a handoff with another invoke function (file/handoffs.ts)
  else if (method === 'clone') onHandoffClone(cx, node, c.expression);
  if (method === 'create') {
    const agent = resolve(cx, c.expression);
    if (agent && isAgentClass(agent.module, agent.member)) onAgentOptions(cx, node, node.arguments[0]);
  }
  // `Object.assign(t, { invoke })`, `Object.defineProperty(t, 'invoke', d)`, `server.toolInputGuardrails.splice(0)`: file/door-writes.ts
  onPropertyWrites(cx, callWrites(node));
  if (APPROVAL_METHODS.has(method)) onApproval(cx, node, c.expression, method as ApprovalMethod);
  // `state.approve.call(state, item)`, `RunState.prototype.approve.apply(state, [item])`,
  // `Reflect.apply(state.approve, state, [item])`: the SDK's answer, its this-argument the receiver
  const indirect =
    method === 'call'
      ? { member: c.expression, self: node.arguments[0], args: node.arguments.slice(1), list: undefined }
      : method === 'apply'
        ? { member: isReflectApply(node) ? node.arguments[0] : c.expression, ...appliedTo(node) }
        : undefined;
  const answer = indirect?.member && (approvalMember(indirect.member) ?? heldAnswerMethod(cx, indirect.member));
  // a list check cannot read (`Reflect.apply(f, state, args)`) stands for the item, as `state.approve(...args)` would
  const args = indirect?.args ?? (indirect?.list ? [indirect.list] : undefined);
  if (answer && indirect?.self && args) onApproval(cx, node, indirect.self, answer, {}, args);
}

/**
 * An answer method taken as a value (`state.approve`, `state.approve.bind(state)`): the SDK's when
 * its receiver (the bound this-argument, or the object it is read from) may be the SDK's; the item
 * is whatever it is called with, so the receiver alone decides.
 */
function onAnswerValue(cx: FileContext, arg: ts.Expression, thisArg: ts.Expression | undefined): void {
  let value = skipWrappers(arg);
  let self: ts.Expression | undefined;
  if (typescript.isCallExpression(value)) {
    const bind = skipWrappers(value.expression);
    if (!typescript.isPropertyAccessExpression(bind) || bind.name.text !== 'bind') return;
    self = value.arguments[0];
    value = skipWrappers(bind.expression);
  }
  const method = approvalMember(value);
  if (!method || !(typescript.isPropertyAccessExpression(value) || typescript.isElementAccessExpression(value))) return;
  // `items.forEach(RunState.prototype.approve, state)`: the method unbound, called on the callback's this-argument
  const unbound = thisArg !== undefined && isPrototypeRead(value.expression);
  const receiver = skipWrappers(self ?? (unbound ? thisArg : value.expression));
  if (!isSdkAnswerReceiver(receiver, cx.ancestors, cx.sf, approvalFile(cx))) return;
  cx.scan.sdkApprovals!.push({ kind: 'sdk-approval', span: spanOf(arg, cx.sf), method, receiver: receiver.getText(cx.sf), item: '…' });
}

/** The array methods whose second argument is the this-argument of the callback they are given first. */
const CALLBACK_THIS = new Set(['forEach', 'map', 'flatMap', 'filter', 'some', 'every', 'find', 'findIndex', 'findLast', 'findLastIndex']);

/** `xs.forEach(f, self)`: `self`, the this-argument `f` is called with; undefined for any other call. */
function callbackThis(callee: ts.Expression, node: ts.CallExpression): ts.Expression | undefined {
  return typescript.isPropertyAccessExpression(callee) && CALLBACK_THIS.has(callee.name.text) ? node.arguments[1] : undefined;
}

/** `X.prototype` (also `X['prototype']`). */
function isPrototypeRead(e: ts.Expression): boolean {
  const x = skipWrappers(e);
  return (
    (typescript.isPropertyAccessExpression(x) && x.name.text === 'prototype') ||
    (typescript.isElementAccessExpression(x) &&
      isStringLike(skipWrappers(x.argumentExpression)) &&
      (skipWrappers(x.argumentExpression) as ts.StringLiteral).text === 'prototype')
  );
}

/**
 * The answer method a name holds, taken off its object (`const { approve } = state`, `const
 * approve = state.approve`): called with `.call(state, item)` it is the answer, its receiver the
 * this-argument. Undefined for any other name.
 */
function heldAnswerMethod(cx: FileContext, expr: ts.Expression): ApprovalMethod | undefined {
  const e = skipWrappers(expr);
  if (!typescript.isIdentifier(e)) return undefined;
  const decl = declarationOf(e.text, cx.ancestors, cx.hoisted);
  if (!decl || !typescript.isVariableDeclaration(decl)) return undefined;
  if (typescript.isIdentifier(decl.name)) return decl.initializer ? approvalMember(decl.initializer) : undefined;
  if (!typescript.isObjectBindingPattern(decl.name)) return undefined;
  const el = decl.name.elements.find((b) => !b.dotDotDotToken && typescript.isIdentifier(b.name) && b.name.text === e.text);
  const name = el && (el.propertyName ? propertyName(el.propertyName) : e.text);
  return name !== undefined && APPROVAL_METHODS.has(name) ? (name as ApprovalMethod) : undefined;
}

/** The this-argument and the arguments of `f.apply(self, [a, b])` or `Reflect.apply(f, self, [a, b])`: `args` when the list is an array literal, else the `list` as written. */
function appliedTo(node: ts.CallExpression): { self?: ts.Expression; args?: readonly ts.Expression[]; list?: ts.Expression } {
  const at = isReflectApply(node) ? 1 : 0;
  const list = node.arguments[at + 1];
  const array = list && skipWrappers(list);
  return { self: node.arguments[at], ...(array && typescript.isArrayLiteralExpression(array) ? { args: array.elements } : list ? { list } : {}) };
}

/** The answer method a member names (`state.approve`, `RunState.prototype['reject']`), or undefined. */
function approvalMember(expr: ts.Expression): ApprovalMethod | undefined {
  const e = skipWrappers(expr);
  const name = typescript.isPropertyAccessExpression(e)
    ? e.name.text
    : typescript.isElementAccessExpression(e) && isStringLike(skipWrappers(e.argumentExpression))
      ? (skipWrappers(e.argumentExpression) as ts.StringLiteral).text
      : undefined;
  return name !== undefined && APPROVAL_METHODS.has(name) ? (name as ApprovalMethod) : undefined;
}

/**
 * `x.asTool(o)`: reported when `x` is an SDK agent, and when the scan cannot tell what `x` is in a
 * file that uses the SDK or the generated module (fail closed: an agent imported from another
 * module, a parameter, a callback's argument); another library's `asTool` (a LangChain runnable, a
 * local object with such a method) is not.
 */
function onAsToolCall(cx: FileContext, node: ts.CallExpression, c: ts.PropertyAccessExpression | ts.ElementAccessExpression): void {
  const receiver = asToolReceiver(cx, c.expression);
  if (receiver) onAsTool(cx, node, c, receiver.unknownWhy);
}

/**
 * Whether `x.asTool` (called or taken as a value) is an agent's: an SDK agent's, or a value check
 * cannot follow in a file that uses the SDK or the generated module (`unknownWhy` says why);
 * undefined when it is another library's or a local object's.
 */
export function asToolReceiver(cx: FileContext, receiver: ts.Expression): { unknownWhy?: string } | undefined {
  const r = agentOf(cx, receiver, cx.ancestors);
  if (r.kind === 'agent') return {};
  return r.kind === 'unknown' && usesAgents(cx) ? { unknownWhy: r.why } : undefined;
}

/** `alwaysApprove: true` of `state.approve(item, { ... })`, or an options object of this file holding it. */
function stickyProperty(cx: FileContext, options: ts.Expression | undefined): ts.ObjectLiteralElementLike | undefined {
  let opts = options ? skipParens(options) : undefined;
  // `const sticky = { alwaysApprove: true }; state.approve(item, sticky)`: the same file's const object
  if (opts && typescript.isIdentifier(opts)) opts = constObjectLiteral(cx, opts.text);
  if (!opts || !typescript.isObjectLiteralExpression(opts)) return undefined;
  for (const p of opts.properties) {
    if (propertyName(p.name) !== 'alwaysApprove') continue;
    if (typescript.isPropertyAssignment(p) && p.initializer.kind === typescript.SyntaxKind.FalseKeyword) continue;
    return p;
  }
  return undefined;
}

/** How an answer names its method when not as `x.approve`: the computed key as written, and whether check could read its values. */
interface ByKey {
  key?: string | undefined;
  unread?: true | undefined;
}

function onApproval(
  cx: FileContext,
  node: ts.CallExpression,
  receiverExpr: ts.Expression,
  method: ApprovalMethod,
  byKey: ByKey = {},
  args: readonly ts.Expression[] = node.arguments,
): void {
  // a key check cannot read is an answer only on the SDK's receiver (below), sticky or not
  if ((method === 'approve' || method === 'approveTool') && !byKey.unread) {
    const sticky = stickyProperty(cx, args[1]);
    if (sticky) {
      // `sticky-approval` reports it, with the same replacement.
      cx.scan.stickyApprovals.push({ kind: 'sticky-approval', span: spanOf(node, cx.sf), method, property: spanOf(sticky, cx.sf) });
      return;
    }
  }
  // The SDK's own approval: one or two arguments (the item, options). The Control's is
  // `control.approve(state, item, answer)`; `Promise.reject(x)` is not an approval.
  const receiver = skipWrappers(receiverExpr);
  const n = args.length;
  if (n < 1 || n > 2) return;
  if (typescript.isIdentifier(receiver) && receiver.text === 'Promise') return;
  if (method === 'reject' && n === 1 && typescript.isIdentifier(receiver) && /^(?:reject|deferred)$/i.test(receiver.text)) return;
  const item = args[0]!;
  if (isStringLike(item) || typescript.isNumericLiteral(item) || typescript.isNewExpression(item) || typescript.isObjectLiteralExpression(item)) return;
  // the class's own method (`this.approve(i)` of a class that declares `approve`), and an item written
  // with a type no answer takes (`err: Error`, `e as Error`): not the SDK's answer, whatever the receiver
  if (receiver.kind === typescript.SyntaxKind.ThisKeyword && thisClassHasMethod(cx.ancestors, method)) return;
  if (cannotBeItem(item, cx.ancestors, cx.sf, { imports: cx.moduleImports, hoisted: cx.hoisted, fileAbs: cx.fileAbs, readModule: cx.options.typeModule }))
    return;
  const helper = sdkAnswer(cx, receiver, item, byKey.unread === true);
  if (!helper) return;
  cx.scan.sdkApprovals!.push({
    kind: 'sdk-approval',
    span: spanOf(node, cx.sf),
    method,
    receiver: receiver.getText(cx.sf),
    item: item.getText(cx.sf),
    ...(byKey.key !== undefined ? { key: byKey.key } : {}),
    ...helper,
  });
}

/**
 * Whether the call answers through the SDK (`{}`, or how unsure a helper's parameter leaves it), or
 * undefined. An app's own `client.approve(id)` is not the SDK's: only a RunState (or an
 * interruption item), or a helper's parameter (issue 40: the SDK's type under another name, or no
 * type, taken for the SDK's). A key check cannot read (`unread`) may name any method: the SDK's
 * answer only on the SDK's receiver, not for an untyped parameter nor an interruption handed to the
 * app's own object (`handlers[kind](item)`).
 */
function sdkAnswer(cx: FileContext, receiver: ts.Expression, item: ts.Expression, unread: boolean): { unsure?: string } | undefined {
  const file = approvalFile(cx);
  if (unread) return isSdkAnswerReceiver(receiver, cx.ancestors, cx.sf, file) ? {} : undefined;
  return isSdkApprovalCall(receiver, item, cx.ancestors, cx.sf, file) ? {} : helperAnswer(cx, receiver, item);
}

/** What the answer readers take of the file (approvals.ts). */
const approvalFile = (cx: FileContext): ApprovalFile => ({
  imports: cx.moduleImports,
  hoisted: cx.hoisted,
  sdkMember: (e: ts.Expression) => sdkTypeMember(cx, e),
  fileAbs: cx.fileAbs,
  readModule: cx.options.typeModule,
});
