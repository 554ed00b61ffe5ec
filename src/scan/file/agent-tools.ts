import type { ts } from 'ts-morph';
import { spanOf } from '../parse.js';
import { firstElement, optionsOf, toFunctionToolName } from '../syntax.js';
import type { AgentAsToolCall } from '../types.js';
import { agentNameOf } from './agents.js';
import type { FileContext } from './context.js';

// Agents made tools: `agent.asTool(o)`, and the same method reached through `.call`, `.apply`,
// `Reflect.apply` or as a value (a door check reports however it is reached).

/** `agent.asTool(o)` (also `agent['asTool'](o)`): a door that runs another agent. */
export function onAsTool(
  cx: FileContext,
  node: ts.CallExpression,
  callee: ts.PropertyAccessExpression | ts.ElementAccessExpression,
  unknownWhy?: string,
): void {
  const t = record(cx, node, callee, callee.expression, node.arguments, undefined);
  if (unknownWhy !== undefined) t.receiverUnknown = unknownWhy;
}

/**
 * `asTool` reached through `.call(agent, o)`, `.apply(agent, [o])` or `Reflect.apply(m, agent, [o])`
 * (`node` is that call, `callee` the whole callee): the agent is the `this` argument.
 */
export function onIndirectAsTool(cx: FileContext, node: ts.CallExpression, how: 'call' | 'apply' | 'reflect', unknownWhy?: string): void {
  const [first, second, third] = node.arguments;
  const thisArg = how === 'reflect' ? second : first;
  const list = how === 'call' ? node.arguments.slice(1) : [firstElement(how === 'reflect' ? third : second)].filter((a): a is ts.Expression => !!a);
  const t = record(cx, node, node.expression, thisArg ?? node.expression, list, how);
  if (unknownWhy !== undefined) t.receiverUnknown = unknownWhy;
}

/** `asTool` read as a value (bound, stored, passed on): an agent tool whose options check cannot see. */
export function onAsToolValue(cx: FileContext, where: ts.Node, receiver: ts.Expression | undefined, unknownWhy?: string): void {
  const t: AgentAsToolCall = {
    kind: 'agent-as-tool',
    span: spanOf(where, cx.sf),
    callee: spanOf(where, cx.sf),
    receiver: spanOf(receiver ?? where, cx.sf),
    indirect: 'value',
    options: optionsOf(undefined, cx.sf),
    argumentCount: 0,
    argumentsStart: where.end,
  };
  if (unknownWhy !== undefined) t.receiverUnknown = unknownWhy;
  cx.scan.agentAsToolCalls!.push(t);
}

function record(
  cx: FileContext,
  node: ts.CallExpression,
  callee: ts.Expression,
  receiver: ts.Expression,
  args: readonly ts.Expression[],
  indirect: AgentAsToolCall['indirect'],
): AgentAsToolCall {
  const options = optionsOf(args[0], cx.sf);
  const t: AgentAsToolCall = {
    kind: 'agent-as-tool',
    span: spanOf(node, cx.sf),
    callee: spanOf(callee, cx.sf),
    receiver: spanOf(receiver, cx.sf),
    options,
    argumentCount: args.length,
    argumentsStart: node.arguments.pos,
  };
  if (indirect) t.indirect = indirect;
  const name = options.properties.toolName ? options.properties.toolName.stringValue : agentNameOf(cx, receiver);
  if (name !== undefined) t.toolName = options.properties.toolName ? name : toFunctionToolName(name);
  cx.scan.agentAsToolCalls!.push(t);
  return t;
}
