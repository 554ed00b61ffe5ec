import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { isSdkModule } from '../imports.js';
import { spanOf } from '../parse.js';
import { realtimeSessionOf } from '../realtime-sessions.js';
import { optionsOf, propertyName, skipWrappers } from '../syntax.js';
import { agentClassOf, constObjectLiteral, doorOf, initializerOf, ownerOf, resolve, returnsOf, type FileContext } from './context.js';
import { onSandboxAgent } from './sandbox-agents.js';
import { valuesInScope } from '../local-values.js';
import { mcpPropertyList } from './mcp-lists.js';

// Agents (`new Agent`, `Agent.create`, `clone`), the Runner's config and realtime sessions: where
// MCP servers are attached and tracing is configured.

/** `new X(...)`: an agent, an MCP server, the Runner, a realtime session. */
export function onNew(cx: FileContext, node: ts.NewExpression): void {
  const session = realtimeSessionOf(node, cx.runScan);
  if (session) cx.scan.realtimeSessions!.push(session);
  const agentClass = agentClassOf(cx, node.expression);
  const r = agentClass ?? resolve(cx, node.expression);
  if (agentClass) {
    onAgentOptions(cx, node, node.arguments?.[0]);
    if (agentClass.member === 'SandboxAgent') onSandboxAgent(cx, node, agentClass.changedBy);
  } else if (r && isSdkModule(r.module) && /^MCPServer/.test(r.member)) {
    const ef = optionsOf(node.arguments?.[0], cx.sf).properties.errorFunction;
    if (ef && ef.valueKind !== 'null') cx.scan.mcpErrorFunctions!.push({ kind: 'mcp-error-function', span: ef.span, where: 'server' });
  }
  // Only the Runner's config turns tracing off: `{ tracingDisabled: true }` elsewhere does nothing.
  else if (r && r.member === 'Runner' && isSdkModule(r.module)) onRunnerConfig(cx, node.arguments?.[0]);
}

function onRunnerConfig(cx: FileContext, arg: ts.Expression | undefined): void {
  let config = arg ? skipWrappers(arg) : undefined;
  if (config && typescript.isIdentifier(config)) config = constObjectLiteral(cx, config.text);
  if (!config || !typescript.isObjectLiteralExpression(config)) return;
  for (const p of config.properties) {
    if (!typescript.isPropertyAssignment(p)) continue;
    const key = propertyName(p.name);
    const k = skipWrappers(p.initializer).kind;
    if (
      (key === 'tracingDisabled' && k === typescript.SyntaxKind.TrueKeyword) ||
      (key === 'traceIncludeSensitiveData' && k === typescript.SyntaxKind.FalseKeyword)
    ) {
      cx.scan.disablesSensitiveTracing = true;
    }
  }
}

/** An agent's options: its `mcpServers` (kept for later, when guarded servers are known) and `mcpConfig`. */
export function onAgentOptions(cx: FileContext, node: ts.Node, arg: ts.Expression | undefined, form: 'agent' | 'clone' = 'agent'): void {
  let opts = arg ? skipWrappers(arg) : undefined;
  if (opts && typescript.isIdentifier(opts)) opts = constObjectLiteral(cx, opts.text);
  if (!opts || !typescript.isObjectLiteralExpression(opts)) return;
  for (const p of opts.properties) {
    const key = propertyName(p.name);
    if (key === 'mcpServers') {
      if (form === 'agent') cx.scan.agentMcpServers.push({ kind: 'agent-mcp-servers', span: spanOf(node, cx.sf), property: spanOf(p, cx.sf) });
      const value = typescript.isPropertyAssignment(p) ? p.initializer : typescript.isShorthandPropertyAssignment(p) ? p.name : undefined;
      const owner = ownerOf(cx);
      // the same list file/mcp-lists.ts reads as a property named `mcpServers` (the walk meets the literal first when it is held by a const)
      const list = mcpPropertyList(cx, p, () => ({
        span: spanOf(p, cx.sf),
        form,
        values: value ? [value] : [],
        whole: value === undefined,
        ancestors: cx.ancestors.slice(),
      }));
      list.form = form;
      list.agentNode = node;
      if (owner !== undefined) list.agentVar = owner;
      delete list.sdkOnly;
    } else if (key === 'handoffs' && typescript.isPropertyAssignment(p)) {
      cx.pendingHandoffLists.push({ value: p.initializer, ancestors: cx.ancestors.slice() }); // read by file/handoffs.ts once the walk is done
    } else if (key === 'mcpConfig' && typescript.isPropertyAssignment(p)) {
      const config = skipWrappers(p.initializer);
      if (!typescript.isObjectLiteralExpression(config)) continue;
      const ef = optionsOf(config, cx.sf).properties.errorFunction;
      if (ef && ef.valueKind !== 'null') cx.scan.mcpErrorFunctions!.push({ kind: 'mcp-error-function', span: ef.span, where: 'mcpConfig' });
    }
  }
}

/**
 * An agent the SDK made: `new Agent(...)`, `Agent.create(...)`, `x.clone(...)` of one, or a variable holding one.
 * `ancestors`: where `expr` is read (the walk's position; after the walk, the position kept with the value).
 */
export const isAgentExpr = (cx: FileContext, expr: ts.Expression, ancestors: readonly ts.Node[] = cx.ancestors): boolean =>
  agentOptionsOf(cx, expr, ancestors) !== undefined;

/** The options argument of the agent's construction (or `null` when it has none written), undefined when not an agent. */
function agentOptionsOf(cx: FileContext, expr: ts.Expression, ancestors: readonly ts.Node[], depth = 0): ts.Expression | null | undefined {
  if (depth > 8) return undefined;
  const e = skipWrappers(expr);
  if (typescript.isNewExpression(e)) {
    const r = agentClassOf(cx, e.expression);
    return r && r.member !== 'RealtimeAgent' ? (e.arguments?.[0] ?? null) : undefined;
  }
  // protectAgent and protectSandboxAgent return the agent they are given
  const door = typescript.isCallExpression(e) ? doorOf(cx, e.expression) : undefined;
  if (typescript.isCallExpression(e) && (door === 'protectAgent' || door === 'protectSandboxAgent'))
    return e.arguments[0] ? agentOptionsOf(cx, e.arguments[0], ancestors, depth + 1) : undefined;
  if (typescript.isCallExpression(e) && typescript.isPropertyAccessExpression(skipWrappers(e.expression))) {
    const c = skipWrappers(e.expression) as ts.PropertyAccessExpression;
    if (c.name.text === 'create') {
      const r = agentClassOf(cx, c.expression);
      return r && r.member !== 'RealtimeAgent' ? (e.arguments[0] ?? null) : undefined;
    }
    if (c.name.text === 'clone') {
      const base = agentOptionsOf(cx, c.expression, ancestors, depth + 1);
      return base === undefined ? undefined : null;
    }
    return undefined;
  }
  // `specialist(...)` where this file's `function specialist() { return new Agent(...) }`: an agent whose options the call site does not show
  if (typescript.isCallExpression(e) && typescript.isIdentifier(skipWrappers(e.expression))) {
    const returns = returnsOf(cx, (skipWrappers(e.expression) as ts.Identifier).text) ?? [];
    return returns.some((r) => agentOptionsOf(cx, r, [], depth + 1) !== undefined) ? null : undefined;
  }
  if (typescript.isIdentifier(e)) {
    // the variable the name is where it is read (another function's `w` is not this one's), any
    // value a `let` or `var` is given (its options when one agent is among them, unknown when two
    // are); a parameter or an import keeps the file's first declaration: an agent seen is a door checked
    const held = valuesInScope(e.text, ancestors, cx.hoisted);
    if (held) {
      const agents = held.map((v) => agentOptionsOf(cx, v.init, v.ancestors, depth + 1)).filter((o) => o !== undefined);
      if (agents.length === 0) return undefined;
      return agents.length === 1 ? agents[0] : null;
    }
    const init = initializerOf(cx, e.text);
    return init ? agentOptionsOf(cx, init, [], depth + 1) : undefined;
  }
  return undefined;
}

/** The agent's literal `name`, when written where it is made. */
export function agentNameOf(cx: FileContext, expr: ts.Expression, ancestors: readonly ts.Node[] = cx.ancestors): string | undefined {
  let opts = agentOptionsOf(cx, expr, ancestors);
  // options held by a name are read where the agent is made, a scope not kept here: the file's first `const` of that name
  if (opts && typescript.isIdentifier(skipWrappers(opts))) opts = constObjectLiteral(cx, (skipWrappers(opts) as ts.Identifier).text, []) ?? opts;
  return opts ? optionsOf(opts, cx.sf).properties.name?.stringValue : undefined;
}
