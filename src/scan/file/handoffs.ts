import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { spanOf } from '../parse.js';
import { isStringLike, optionsOf, skipWrappers } from '../syntax.js';
import type { HandoffSite, ToolCallOptions } from '../types.js';
import { agentNameOf, isAgentExpr } from './agents.js';
import { constObjectLiteral, resolve, type FileContext, type ResolvedMember } from './context.js';
import { initializerInScope } from '../local-values.js';
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
  const [agent, invoke] = node.arguments ?? [];
  const site: HandoffSite = {
    kind: 'handoff',
    span: spanOf(node, cx.sf),
    form: 'call',
    constructed: true,
    onHandoff: invoke !== undefined,
    inputType: invoke !== undefined,
  };
  const to = agent ? agentNameOf(cx, agent) : undefined;
  if (to !== undefined) site.to = to;
  cx.scan.handoffs!.push(site);
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
