import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { spanOf } from '../parse.js';
import { isStringLike, optionsOf, propertyName, skipWrappers } from '../syntax.js';
import type { HandoffSite, ToolCallOptions } from '../types.js';
import { agentNameOf, isAgentExpr } from './agents.js';
import { constObjectLiteral, doorOf, resolve, usesAgents, type FileContext, type ResolvedMember } from './context.js';
import { declarationAt, initializerInScope } from '../local-values.js';
import { heldValues } from './door-holders.js';
import { importOf } from './door-exports.js';
import { isSdkModule } from '../imports.js';

// Handoffs: the SDK's `handoff(agent, config)`, agents listed in `handoffs: [...]`, and the
// generated module's `protectHandoff(action, agent, config)`.

/** What a handoff's config does with the model's call: runs `onHandoff`, takes an `inputType` (unknown when check cannot read the config). */
function configOf(
  cx: FileContext,
  arg: ts.Expression | undefined,
): { options?: ToolCallOptions; onHandoff: HandoffSite['onHandoff']; inputType: HandoffSite['inputType'] } {
  if (!arg) return { onHandoff: false, inputType: false };
  let e = skipWrappers(arg);
  if (typescript.isIdentifier(e)) e = constObjectLiteral(cx, e.text) ?? e;
  if (!typescript.isObjectLiteralExpression(e)) return { onHandoff: 'unknown', inputType: 'unknown' };
  const options = optionsOf(e, cx.sf);
  if (options.hasSpread) return { options, onHandoff: 'unknown', inputType: 'unknown' };
  return { options, onHandoff: options.properties.onHandoff !== undefined, inputType: options.properties.inputType !== undefined };
}

/** `handoff(agent, config)` of the SDK (directly, or through `.call`/`.apply`/`Reflect.apply`: then not rewritable). */
export function onHandoffCall(cx: FileContext, node: ts.CallExpression, r: ResolvedMember, args: readonly ts.Expression[], indirect: boolean): void {
  const site: HandoffSite = { kind: 'handoff', span: spanOf(node, cx.sf), form: 'call', binding: r.binding, ...configOf(cx, args[1]) };
  if (!indirect) {
    site.callee = spanOf(node.expression, cx.sf);
    site.argumentsStart = node.arguments.pos;
  }
  const to = args[0] ? agentNameOf(cx, args[0]) : undefined;
  if (to !== undefined) site.to = to;
  cx.scan.handoffs!.push(site);
}

/**
 * `new Handoff(agent, onInvokeHandoff)`: the SDK's class. Its invoke function is app code the SDK runs
 * on the arguments the model chose; it is reported like a `handoff()` that runs `onHandoff` on input.
 */
export function onHandoffClass(cx: FileContext, node: ts.NewExpression): void {
  const r = resolve(cx, node.expression);
  if (r?.member !== 'Handoff' || !isSdkModule(r.module)) return;
  if (isProtectedHandoffAgent(cx, node)) return;
  const [agent, invoke] = node.arguments ?? [];
  const site: HandoffSite = {
    kind: 'handoff',
    span: spanOf(node, cx.sf),
    form: 'call',
    constructed: 'new',
    onHandoff: invoke !== undefined,
    inputType: invoke !== undefined,
  };
  const to = agent ? agentNameOf(cx, agent) : undefined;
  if (to !== undefined) site.to = to;
  cx.scan.handoffs!.push(site);
}

/**
 * `protectHandoff('<action>', new Handoff(agent, invoke))`: the runtime guards a copy of the Handoff
 * (its invoke runs only once the policy allows), and the one made here is reachable nowhere else.
 * A Handoff held by a name is still reported where it is made: the name may be listed as it is.
 */
function isProtectedHandoffAgent(cx: FileContext, node: ts.NewExpression): boolean {
  let child: ts.Node = node;
  for (let i = cx.ancestors.length - 1; i >= 0; i--) {
    const up = cx.ancestors[i]!;
    if (typescript.isCallExpression(up)) return up.arguments[1] === child && doorOf(cx, up.expression) === 'protectHandoff';
    if (skipWrappers(up as ts.Expression) !== node) return false; // a wrapper of it ((…), `as`, `!`), else not the argument
    child = up;
  }
  return false;
}

/**
 * A class extending the SDK's Handoff: its constructor needs an invoke function, so each instance
 * runs one the class (or its `new`) gives, app code on the model's input. Reported at the class,
 * with the agent its `super(agent, ...)` hands off to when written.
 */
export function onHandoffSubclass(cx: FileContext, node: ts.ClassLikeDeclaration): void {
  const base = node.heritageClauses?.find((h) => h.token === typescript.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
  const r = base ? resolve(cx, base) : undefined;
  if (r?.member !== 'Handoff' || !isSdkModule(r.module)) return;
  const site: HandoffSite = { kind: 'handoff', span: spanOf(node, cx.sf), form: 'call', constructed: 'subclass', onHandoff: true, inputType: true };
  const ctor = node.members.find(typescript.isConstructorDeclaration);
  const call = ctor?.body?.statements.map((st) => (typescript.isExpressionStatement(st) ? skipWrappers(st.expression) : undefined)).find(isSuperCall);
  const to = call?.arguments[0] ? agentNameOf(cx, call.arguments[0]) : undefined;
  if (to !== undefined) site.to = to;
  cx.scan.handoffs!.push(site);
}

const isSuperCall = (e: ts.Expression | undefined): e is ts.CallExpression =>
  !!e && typescript.isCallExpression(e) && e.expression.kind === typescript.SyntaxKind.SuperKeyword;

/**
 * `h.onInvokeHandoff = f` (also `h['onInvokeHandoff'] = f`, `Object.assign(h, { onInvokeHandoff })`,
 * a copy `{ ...h, onInvokeHandoff }`, `Reflect.set`, file/property-writes.ts), in any file: the runner
 * calls that function on the model's arguments, and protectHandoff decides the transfer inside the
 * one it set, so the new one runs app code with no decision. The name is the SDK's alone, so a
 * helper given the handoff that names neither the SDK nor the generated module is read too (session
 * 31), when the object written may be one it was given (below).
 */
export function onHandoffInvokeWritten(cx: FileContext, node: ts.Node, receiver: ts.Expression): void {
  if (!usesAgents(cx) && !mayBeGivenHandoff(cx, receiver)) return;
  const site: HandoffSite = { kind: 'handoff', span: spanOf(node, cx.sf), form: 'call', constructed: 'assignment', onHandoff: true, inputType: true };
  const to = handoffTarget(cx, receiver);
  if (to !== undefined) site.to = to;
  cx.scan.handoffs!.push(site);
}

/**
 * In a file naming neither the SDK nor the generated module, whether the object written may be a
 * handoff made elsewhere: one check cannot follow (a parameter, a call's result) or an import. An
 * object the file makes itself (an app's own event bus), `this` in a constructor (the SDK's own
 * `Handoff` class) is none.
 */
function mayBeGivenHandoff(cx: FileContext, receiver: ts.Expression): boolean {
  const held = heldValues(cx, { expr: receiver, ancestors: cx.ancestors, at: receiver.pos });
  return (
    held.opaque ||
    held.values.some(
      (v) => typescript.isIdentifier(v.expr) && declarationAt(v.expr.text, v.ancestors, cx.hoisted) === undefined && importOf(cx.sf, v.expr.text) !== undefined,
    )
  );
}

/**
 * `h.clone({ onInvokeHandoff: f })`: the SDK's `Handoff.clone` takes the override as the copy's
 * invoke function, so the copy runs it in place of the one protectHandoff decides in (any file, as
 * above). An override `agent` alone keeps the old function (it runs it). Overrides check cannot read
 * (`h.clone(o)` with `o` a parameter or a call's result, `h.clone({ ...overrides })`) may hold it:
 * reported in a file that uses the SDK or the generated module (`clone` is a common method name:
 * `git.clone(opts)` elsewhere is no handoff).
 */
export function onHandoffClone(cx: FileContext, node: ts.CallExpression, receiver: ts.Expression): void {
  const arg = node.arguments[0] && skipWrappers(node.arguments[0]);
  if (!arg || (typescript.isIdentifier(arg) && arg.text === 'undefined')) return;
  const overrides = typescript.isIdentifier(arg) ? constObjectLiteral(cx, arg.text) : arg;
  const gives = overrides && typescript.isObjectLiteralExpression(overrides) ? mayGiveInvoke(cx, overrides, 0) : 'unknown';
  if (gives === 'named' || (gives === 'unknown' && usesAgents(cx))) onHandoffInvokeWritten(cx, node, receiver);
}

/**
 * Whether clone's overrides may hold `onInvokeHandoff`: `named` when written (in the object or one a
 * spread brings that check reads), `unknown` when a spread brings what is not an object literal check
 * can read (fails closed), undefined when neither.
 */
function mayGiveInvoke(cx: FileContext, overrides: ts.ObjectLiteralExpression, depth: number): 'named' | 'unknown' | undefined {
  let unknown = false;
  for (const p of overrides.properties) {
    if (!typescript.isSpreadAssignment(p)) {
      if (propertyName(p.name) === 'onInvokeHandoff') return 'named';
      continue;
    }
    const e = skipWrappers(p.expression);
    const known = typescript.isIdentifier(e) ? constObjectLiteral(cx, e.text) : e;
    if (!known || !typescript.isObjectLiteralExpression(known) || depth > 4) unknown = true;
    else {
      const inner = mayGiveInvoke(cx, known, depth + 1);
      if (inner === 'named') return inner;
      if (inner === 'unknown') unknown = true;
    }
  }
  return unknown ? 'unknown' : undefined;
}

/** The agent the handoff `receiver` holds hands off to: `handoff(agent, ...)` or `protectHandoff(action, agent, ...)` where it is made. */
function handoffTarget(cx: FileContext, receiver: ts.Expression): string | undefined {
  for (const v of heldValues(cx, { expr: receiver, ancestors: cx.ancestors, at: receiver.pos }).values) {
    if (!typescript.isCallExpression(v.expr)) continue;
    const init = v.expr;
    const door = doorOf(cx, init.expression);
    const r = door === undefined ? resolve(cx, init.expression) : undefined;
    const agent = door === 'protectHandoff' ? init.arguments[1] : r?.member === 'handoff' && isSdkModule(r.module) ? init.arguments[0] : undefined;
    if (agent) return agentNameOf(cx, agent, v.ancestors);
  }
  return undefined;
}

/** `protectHandoff('<action>', agent, config)` of the generated module. */
export function onProtectedHandoff(cx: FileContext, node: ts.CallExpression): void {
  const [first, agent, config] = node.arguments;
  const site: HandoffSite = { kind: 'handoff', span: spanOf(node, cx.sf), form: 'protected', callee: spanOf(node.expression, cx.sf), ...configOf(cx, config) };
  if (first && isStringLike(first)) site.action = first.text;
  const to = agent ? agentNameOf(cx, agent) : undefined;
  if (to !== undefined) site.to = to;
  cx.scan.handoffs!.push(site);
}

/** The agents of the file's agents' `handoffs` lists. */
export function settleHandoffLists(cx: FileContext): void {
  for (const { value, ancestors } of cx.pendingHandoffLists) handoffList(cx, value, ancestors);
}

/** The agents of an agent's `handoffs: [...]` (calls are read where they are made: `handoff(...)`, `protectHandoff(...)`). */
function handoffList(cx: FileContext, value: ts.Expression, ancestors: readonly ts.Node[]): void {
  let list = skipWrappers(value);
  let scope = ancestors;
  if (typescript.isIdentifier(list)) {
    // the list the name is where the agent is made, not another function's of the same name
    const found = initializerInScope(list.text, ancestors, cx.hoisted);
    if (found) [list, scope] = [skipWrappers(found.init), found.ancestors];
  }
  if (!typescript.isArrayLiteralExpression(list)) return;
  for (const el of list.elements) {
    if (typescript.isSpreadElement(el) || typescript.isOmittedExpression(el)) continue;
    const e = skipWrappers(el);
    // a plain agent is a transfer; a `handoff(...)` (or a variable holding one) is read where it is made
    if (!isAgentExpr(cx, e, scope)) continue;
    const site: HandoffSite = { kind: 'handoff', span: spanOf(el, cx.sf), form: 'element', onHandoff: false, inputType: false, inArray: true };
    const to = agentNameOf(cx, e, scope);
    if (to !== undefined) site.to = to;
    cx.scan.handoffs!.push(site);
  }
}
