import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { isSdkModule } from '../imports.js';
import { spanOf } from '../parse.js';
import { realtimeSessionOf } from '../realtime-sessions.js';
import { optionsOf, propertyName, skipWrappers } from '../syntax.js';
import { agentClassOf, constObjectLiteral, ownerOf, resolve, usesAgents, type FileContext } from './context.js';
import { agentOf } from './agent-values.js';
import { onSandboxAgent } from './sandbox-agents.js';
import { initializerInScope } from '../local-values.js';
import { mcpPropertyList } from './mcp-lists.js';
import { onAddedTools, onAgentTools } from './agent-tool-exports.js';
import { onHandedObject } from './function-objects.js';

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
    } else if (key === 'tools' && (typescript.isPropertyAssignment(p) || typescript.isShorthandPropertyAssignment(p))) {
      for (const o of onAgentTools(cx, typescript.isPropertyAssignment(p) ? p.initializer : p.name)) onHandedObject(cx, o);
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
 * `agent.tools.push(a, ...b)` (`unshift`, `splice`'s items), `agent.tools = [a]`: what a file using the
 * SDK adds to a value that may be an agent after it is made, read as its `tools` (file/agent-tool-exports.ts).
 */
export function onToolsAdded(cx: FileContext, list: ts.Expression, values: readonly ts.Expression[]): void {
  const l = skipWrappers(list);
  if (!usesAgents(cx) || !typescript.isPropertyAccessExpression(l) || l.name.text !== 'tools') return;
  if (agentOf(cx, l.expression, cx.ancestors).kind === 'not') return;
  for (const o of onAddedTools(cx, values)) onHandedObject(cx, o);
}

/**
 * An agent the SDK made: `new Agent(...)`, `Agent.create(...)`, `x.clone(...)` of one, or a variable holding one.
 * `ancestors`: where `expr` is read (the walk's position; after the walk, the position kept with the value).
 */
export const isAgentExpr = (cx: FileContext, expr: ts.Expression, ancestors: readonly ts.Node[] = cx.ancestors): boolean =>
  agentOf(cx, expr, ancestors).kind === 'agent';

/**
 * The agent's literal `name`, when written where it is made: options held by a name are read in the
 * scope the agent is made in (another function's `const opts` is not these); unknown when that
 * name is not a `const` object literal there.
 */
export function agentNameOf(cx: FileContext, expr: ts.Expression, ancestors: readonly ts.Node[] = cx.ancestors): string | undefined {
  const agent = agentOf(cx, expr, ancestors);
  if (agent.kind !== 'agent' || agent.options === null) return undefined;
  let opts: ts.Expression | undefined = skipWrappers(agent.options);
  if (typescript.isIdentifier(opts)) {
    const held = initializerInScope(opts.text, agent.ancestors, cx.hoisted);
    opts = held?.constant ? skipWrappers(held.init) : undefined;
  }
  return opts && typescript.isObjectLiteralExpression(opts) ? optionsOf(opts, cx.sf).properties.name?.stringValue : undefined;
}
