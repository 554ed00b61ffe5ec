import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { spanOf } from '../parse.js';
import { isStringLike, optionsOf, propertyName, skipWrappers } from '../syntax.js';
import type { McpServerElement, McpServerLaunch } from '../types.js';
import { doorOf, initializerOf, resolve, type FileContext } from './context.js';
import { arrayChanges } from './mcp-arrays.js';
import { isSdkModule } from '../imports.js';

// The MCP servers of `mcpServers` values, read once the walk knows which servers and agents the
// file guards in place.

/** The file's `mcpServers` lists, each element with what check knows of its protection. */
export function settleServerLists(cx: FileContext): void {
  for (const p of cx.pendingLists) {
    const elements: McpServerElement[] = [];
    if (p.whole) elements.push({ span: p.span, text: '', status: 'opaque' });
    for (const v of p.values) serverElements(cx, v, elements);
    const agentProtected =
      (p.agentNode !== undefined && cx.guardedAgentNodes.has(p.agentNode)) || (p.agentVar !== undefined && cx.guardedAgentVars.has(p.agentVar));
    cx.scan.mcpServerLists!.push({ kind: 'mcp-server-list', span: p.span, form: p.form, agentProtected, elements });
  }
  for (const { call, values } of cx.pendingConversions) {
    const elements: McpServerElement[] = [];
    for (const v of values) serverElements(cx, v, elements);
    call.mcpServers = elements;
  }
}

/** One server of a list, as check reports it. */
function serverElement(
  cx: FileContext,
  node: ts.Node,
  status: McpServerElement['status'],
  source: ts.Expression | undefined,
  inArray: boolean,
): McpServerElement {
  const serverName = serverNameOf(cx, source);
  const fetch = serverFetchOf(cx, source);
  const fetchInsert = fetch === 'none' ? fetchInsertOf(cx, source) : undefined;
  const launch = serverLaunchOf(cx, source);
  return {
    span: spanOf(node, cx.sf),
    text: node.getText(cx.sf),
    status,
    ...(serverName !== undefined ? { serverName } : {}),
    ...(fetch !== undefined ? { fetch } : {}),
    ...(fetchInsert !== undefined ? { fetchInsert } : {}),
    ...(inArray ? { inArray } : {}),
    ...(launch !== undefined ? { launch } : {}),
  };
}

/** Each server of an `mcpServers` value, with what check knows of its protection. */
function serverElements(cx: FileContext, value: ts.Expression, out: McpServerElement[], depth = 0, inArray = false): void {
  const e = skipWrappers(value);
  const element = (node: ts.Node, status: McpServerElement['status'], source?: ts.Expression): void => {
    out.push(serverElement(cx, node, status, source, inArray));
  };
  if (typescript.isArrayLiteralExpression(e)) {
    for (const el of e.elements) {
      if (typescript.isSpreadElement(el)) {
        const inner = skipWrappers(el.expression);
        const init = typescript.isIdentifier(inner) ? initializerOf(cx, inner.text) : undefined;
        if (init && typescript.isArrayLiteralExpression(skipWrappers(init)) && depth < 8) localArray(cx, (inner as ts.Identifier).text, init, out, depth);
        else element(el, 'opaque');
      } else if (!typescript.isOmittedExpression(el)) serverElements(cx, el, out, depth + 1, true);
    }
    return;
  }
  if (typescript.isCallExpression(e) && doorOf(cx, e.expression) === 'protectMcpServer') return element(value, 'protected', e.arguments[0]);
  if (typescript.isNewExpression(e)) return element(value, 'unprotected', e);
  const connected = depth < 8 ? connectedServers(cx, e) : undefined;
  if (connected) return serverElements(cx, connected, out, depth + 1, false);
  if (typescript.isIdentifier(e)) {
    if (cx.guardedServerVars.has(e.text)) return element(value, 'protected', e);
    const init = initializerOf(cx, e.text);
    const i = init ? skipWrappers(init) : undefined;
    if (i && typescript.isArrayLiteralExpression(i) && depth < 8) return localArray(cx, e.text, i, out, depth);
    const viaConnect = i && depth < 8 ? connectedServers(cx, i) : undefined;
    if (viaConnect) return serverElements(cx, viaConnect, out, depth + 1, false);
    if (i && typescript.isCallExpression(i) && doorOf(cx, i.expression) === 'protectMcpServer') return element(value, 'protected', i.arguments[0]);
    if (i && typescript.isNewExpression(i)) return element(value, 'unprotected', i);
    return element(value, i ? 'opaque' : 'unprotected');
  }
  element(value, 'opaque');
}

/**
 * A local array of servers (`const servers = [a]`): the servers it is made with and those the file
 * adds later (`servers.push(new MCPServerStdio(...))`: the codemod leaves those to a hand, since the
 * list it would wrap is not where the server reaches the agent); a use that may add one check cannot
 * see is an opaque element.
 */
function localArray(cx: FileContext, name: string, init: ts.Expression, out: McpServerElement[], depth: number): void {
  serverElements(cx, init, out, depth + 1, false);
  const changes = arrayChanges(cx, name);
  for (const added of changes.added) serverElements(cx, added, out, depth + 1, false);
  for (const node of changes.opaque) out.push(serverElement(cx, node, 'opaque', undefined, false));
}

const TRANSPORTS: Record<string, McpServerLaunch['transport']> = { MCPServerStdio: 'stdio', MCPServerStreamableHttp: 'http', MCPServerSSE: 'sse' };

/** The `new` of an SDK MCP server class an expression holds (through variables and `protectMcpServer`). */
function serverNewOf(cx: FileContext, expr: ts.Expression | undefined, depth = 0): ts.NewExpression | undefined {
  if (!expr || depth > 4) return undefined;
  const e = skipWrappers(expr);
  if (typescript.isNewExpression(e)) return e;
  if (typescript.isIdentifier(e)) {
    const init = initializerOf(cx, e.text);
    return init ? serverNewOf(cx, init, depth + 1) : undefined;
  }
  if (typescript.isCallExpression(e) && doorOf(cx, e.expression) === 'protectMcpServer') return serverNewOf(cx, e.arguments[0], depth + 1);
  return undefined;
}

/**
 * The literal launch options of the SDK MCP server an expression makes: the command of a stdio
 * server (`fullCommand`, or `command` and `args`, and `cwd`), the URL of an HTTP one. Undefined when
 * it is not an SDK server class or a part of them is not a literal (init never guesses a command).
 */
function serverLaunchOf(cx: FileContext, expr: ts.Expression | undefined): McpServerLaunch | undefined {
  const made = serverNewOf(cx, expr);
  const r = made ? resolve(cx, made.expression) : undefined;
  const transport = r && isSdkModule(r.module) ? TRANSPORTS[r.member] : undefined;
  const arg = made?.arguments?.[0] ? skipWrappers(made.arguments[0]) : undefined;
  if (!transport || !arg || !typescript.isObjectLiteralExpression(arg) || arg.properties.some((p) => typescript.isSpreadAssignment(p))) return undefined;
  const launch: McpServerLaunch = { transport };
  for (const p of arg.properties) {
    const key = propertyName(p.name);
    if (key !== 'fullCommand' && key !== 'command' && key !== 'args' && key !== 'cwd' && key !== 'url') continue;
    if (!typescript.isPropertyAssignment(p)) return undefined;
    const v = skipWrappers(p.initializer);
    if (key === 'args') {
      if (!typescript.isArrayLiteralExpression(v) || !v.elements.every((el) => isStringLike(el))) return undefined;
      launch.args = v.elements.map((el) => (el as ts.StringLiteral).text);
    } else if (isStringLike(v)) launch[key] = v.text;
    else return undefined;
  }
  return launch;
}

/** The options object literal of the `new` that makes the server an expression holds (through variables and `protectMcpServer`). */
function serverOptionsOf(cx: FileContext, expr: ts.Expression | undefined, depth = 0): ts.ObjectLiteralExpression | undefined {
  if (!expr || depth > 4) return undefined;
  const e = skipWrappers(expr);
  if (typescript.isNewExpression(e)) {
    const arg = e.arguments?.[0] ? skipWrappers(e.arguments[0]) : undefined;
    return arg && typescript.isObjectLiteralExpression(arg) ? arg : undefined;
  }
  if (typescript.isIdentifier(e)) {
    const init = initializerOf(cx, e.text);
    return init ? serverOptionsOf(cx, init, depth + 1) : undefined;
  }
  if (typescript.isCallExpression(e) && doorOf(cx, e.expression) === 'protectMcpServer') return serverOptionsOf(cx, e.arguments[0], depth + 1);
  return undefined;
}

/**
 * How the server an expression makes gets its `fetch` option (CTRLRun's TLS pins need the generated
 * module's): `upstreamFetch` (a call of it), `other`, `none`; undefined when check cannot tell (no
 * `new` it can follow, a spread in the options).
 */
function serverFetchOf(cx: FileContext, expr: ts.Expression | undefined): McpServerElement['fetch'] {
  const options = serverOptionsOf(cx, expr);
  if (!options || options.properties.some((p) => typescript.isSpreadAssignment(p))) return undefined;
  const prop = options.properties.find((p) => p.name !== undefined && propertyName(p.name) === 'fetch');
  if (!prop) return 'none';
  if (!typescript.isPropertyAssignment(prop)) return 'other';
  const v = skipWrappers(prop.initializer);
  if (!typescript.isCallExpression(v)) return 'other';
  const callee = skipWrappers(v.expression);
  const name = typescript.isIdentifier(callee) ? callee.text : typescript.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
  return name === 'upstreamFetch' ? 'upstreamFetch' : 'other';
}

/** Where a `fetch` option would go in those options: before the first property, on its own line when they are written one per line. */
function fetchInsertOf(cx: FileContext, expr: ts.Expression | undefined): McpServerElement['fetchInsert'] {
  const first = serverOptionsOf(cx, expr)?.properties[0];
  if (!first) return undefined;
  const at = first.getStart(cx.sf);
  const lineStart = cx.sf.text.lastIndexOf('\n', at - 1) + 1;
  const before = cx.sf.text.slice(lineStart, at);
  return { at, indent: /^\s*$/.test(before) ? before : null };
}

/** The `name` option of the server an expression makes (`new MCPServerStdio({ name: 'fs' })`), through one variable. */
function serverNameOf(cx: FileContext, expr: ts.Expression | undefined, depth = 0): string | undefined {
  if (!expr || depth > 4) return undefined;
  const e = skipWrappers(expr);
  if (typescript.isNewExpression(e)) return optionsOf(e.arguments?.[0], cx.sf).properties.name?.stringValue;
  if (typescript.isIdentifier(e)) {
    const init = initializerOf(cx, e.text);
    return init ? serverNameOf(cx, init, depth + 1) : undefined;
  }
  if (typescript.isCallExpression(e) && doorOf(cx, e.expression) === 'protectMcpServer') return serverNameOf(cx, e.arguments[0], depth + 1);
  return undefined;
}

/** Through `await` and the usual wrappers. */
function unwrapAwait(expr: ts.Expression): ts.Expression {
  let e = skipWrappers(expr);
  while (typescript.isAwaitExpression(e)) e = skipWrappers(e.expression);
  return e;
}

/**
 * `servers.active` / `servers.all` of `servers = await connectMcpServers([a, b], options)` (or the
 * same call inline, or `MCPServers.open([...])`): the array of servers it was given. The SDK's
 * `MCPServers` hands out those very server objects, so each is followed as an element of that
 * array (and the codemod wraps it there).
 */
function connectedServers(cx: FileContext, e: ts.Expression): ts.Expression | undefined {
  if (!typescript.isPropertyAccessExpression(e) || (e.name.text !== 'active' && e.name.text !== 'all')) return undefined;
  let holder = unwrapAwait(e.expression);
  if (typescript.isIdentifier(holder)) {
    const init = initializerOf(cx, holder.text);
    if (!init) return undefined;
    holder = unwrapAwait(init);
  }
  if (!typescript.isCallExpression(holder)) return undefined;
  const callee = skipWrappers(holder.expression);
  const direct = resolve(cx, callee);
  const opens =
    (direct?.member === 'connectMcpServers' && isSdkModule(direct.module)) ||
    (typescript.isPropertyAccessExpression(callee) &&
      callee.name.text === 'open' &&
      ((r) => r?.member === 'MCPServers' && isSdkModule(r.module))(resolve(cx, callee.expression)));
  return opens ? holder.arguments[0] : undefined;
}
