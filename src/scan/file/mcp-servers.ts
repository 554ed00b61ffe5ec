import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { spanOf } from '../parse.js';
import { isStringLike, optionsOf, propertyName, skipWrappers } from '../syntax.js';
import type { McpServerElement, McpServerLaunch, McpServerList } from '../types.js';
import { doorOf, resolve, varKey, type FileContext } from './context.js';
import { guardedLetAt, initializerInScope } from '../local-values.js';
import { arrayChanges } from './mcp-arrays.js';
import { isSdkModule } from '../imports.js';

// The MCP servers of `mcpServers` values, read once the walk knows which servers and agents the
// file guards in place.

/** The file's `mcpServers` lists, each element with what check knows of its protection. */
export function settleServerLists(cx: FileContext): void {
  for (const p of cx.pendingLists) {
    if (p.sdkOnly && !cx.scan.importsSdk) continue;
    const elements: McpServerElement[] = [];
    if (p.whole) elements.push({ span: p.span, text: '', status: 'opaque' });
    for (const v of p.values) serverElements(cx, v, p.ancestors, elements);
    if (p.aliasOf !== undefined) {
      const changes = arrayChanges(cx, p.aliasOf);
      for (const added of changes.added) serverElements(cx, added, p.ancestors, elements);
      for (const node of changes.opaque) elements.push(serverElement(cx, node, 'opaque', undefined, p.ancestors, false));
    }
    const agentProtected =
      (p.agentNode !== undefined && cx.guardedAgentNodes.has(p.agentNode)) || (p.agentVar !== undefined && cx.guardedAgentVars.has(p.agentVar));
    const kept = p.serversOnly ? unguardedServers(elements, p.form) : elements;
    if (kept.length === 0 && p.serversOnly) continue;
    cx.scan.mcpServerLists!.push({ kind: 'mcp-server-list', span: p.span, form: p.form, agentProtected, elements: kept });
  }
  for (const { call, values, ancestors } of cx.pendingConversions) {
    const elements: McpServerElement[] = [];
    for (const v of values) serverElements(cx, v, ancestors, elements);
    call.mcpServers = elements;
  }
}

/**
 * Of a list written through a key check cannot know (`x[key] = [...]`, `x[key].push(...)`): the
 * unguarded servers of the SDK's MCP classes only, and for a write only those in an array (a list
 * of servers; a map of servers by name holds them one by one). Anything else may be any property.
 */
function unguardedServers(elements: McpServerElement[], form: McpServerList['form']): McpServerElement[] {
  return elements.filter((e) => e.status === 'unprotected' && e.sdkServer === true && (form !== 'assignment' || e.inArray === true));
}

/** One server of a list, as check reports it (`scope`: the ancestors where `source` is read). */
function serverElement(
  cx: FileContext,
  node: ts.Node,
  status: McpServerElement['status'],
  source: ts.Expression | undefined,
  scope: Scope,
  inArray: boolean,
): McpServerElement {
  const serverName = serverNameOf(cx, source, scope);
  const fetch = serverFetchOf(cx, source, scope);
  const fetchInsert = fetch === 'none' ? fetchInsertOf(cx, source, scope) : undefined;
  const launch = serverLaunchOf(cx, source, scope);
  const sdkServer = isSdkServerNew(cx, serverNewOf(cx, source, scope));
  return {
    span: spanOf(node, cx.sf),
    text: node.getText(cx.sf),
    status,
    ...(serverName !== undefined ? { serverName } : {}),
    ...(fetch !== undefined ? { fetch } : {}),
    ...(fetchInsert !== undefined ? { fetchInsert } : {}),
    ...(inArray ? { inArray } : {}),
    ...(launch !== undefined ? { launch } : {}),
    ...(sdkServer ? { sdkServer } : {}),
  };
}

/** Whether a `new` makes one of the SDK's MCP server classes. */
function isSdkServerNew(cx: FileContext, made: ts.NewExpression | undefined): boolean {
  const r = made ? resolve(cx, made.expression) : undefined;
  return r !== undefined && isSdkModule(r.module) && r.member in TRANSPORTS;
}

/** The walk's ancestors where a value is read: its names are looked up in that scope. */
type Scope = readonly ts.Node[];

/**
 * The variable a name is where it is read, not the first declaration of the name anywhere in the
 * file (another function's `const servers = [protectMcpServer(...)]` is not this list).
 */
const heldBy = (cx: FileContext, name: string, scope: Scope): { init: ts.Expression; scope: Scope; constant: boolean } | undefined => {
  const found = initializerInScope(name, scope, cx.hoisted);
  return found ? { init: skipWrappers(found.init), scope: found.ancestors, constant: found.constant } : undefined;
};

/** Each server of an `mcpServers` value, with what check knows of its protection (`scope`: where `value` is read). */
function serverElements(cx: FileContext, value: ts.Expression, scope: Scope, out: McpServerElement[], depth = 0, inArray = false): void {
  const e = skipWrappers(value);
  const element = (node: ts.Node, status: McpServerElement['status'], source?: ts.Expression, at: Scope = scope): void => {
    out.push(serverElement(cx, node, status, source, at, inArray));
  };
  if (typescript.isArrayLiteralExpression(e)) {
    for (const el of e.elements) {
      if (typescript.isSpreadElement(el)) {
        const inner = skipWrappers(el.expression);
        const held = typescript.isIdentifier(inner) ? heldBy(cx, inner.text, scope) : undefined;
        if (held && typescript.isArrayLiteralExpression(held.init) && depth < 8) localArray(cx, (inner as ts.Identifier).text, held, out, depth);
        else element(el, 'opaque');
      } else if (!typescript.isOmittedExpression(el)) serverElements(cx, el, scope, out, depth + 1, true);
    }
    return;
  }
  if (typescript.isCallExpression(e) && doorOf(cx, e.expression) === 'protectMcpServer') return element(value, 'protected', e.arguments[0]);
  if (typescript.isNewExpression(e)) return element(value, 'unprotected', e);
  const connected = depth < 8 ? connectedServers(cx, e, scope) : undefined;
  if (connected) return serverElements(cx, connected.servers, connected.scope, out, depth + 1, false);
  if (typescript.isIdentifier(e)) {
    if (cx.guardedServerVars.has(varKey(cx, e.text, scope))) return element(value, 'protected', e);
    // `let s = new MCPServerStdio(...); s = protectMcpServer(s);` before the use: the guard is what it holds
    if (guardedLetAt(e.text, scope, e, (c) => doorOf(cx, c.expression) === 'protectMcpServer', cx.hoisted)) return element(value, 'protected', e);
    const held = heldBy(cx, e.text, scope);
    const i = held?.init;
    // an array's later changes, a reassignment included, are read by localArray
    if (held && typescript.isArrayLiteralExpression(held.init) && depth < 8) return localArray(cx, e.text, held, out, depth);
    if (i && typescript.isNewExpression(i)) return element(value, 'unprotected', i, held.scope);
    // a `let` or `var` may be given another server later: only a `const` is taken for protected
    if (held && !held.constant) return element(value, 'opaque');
    const viaConnect = held && depth < 8 ? connectedServers(cx, held.init, held.scope) : undefined;
    if (viaConnect) return serverElements(cx, viaConnect.servers, viaConnect.scope, out, depth + 1, false);
    if (held && typescript.isCallExpression(held.init) && doorOf(cx, held.init.expression) === 'protectMcpServer')
      return element(value, 'protected', held.init.arguments[0], held.scope);
    return element(value, held ? 'opaque' : 'unprotected');
  }
  element(value, 'opaque');
}

/**
 * A local array of servers (`const servers = [a]`): the servers it is made with and those the file
 * adds later (`servers.push(new MCPServerStdio(...))`: the codemod leaves those to a hand, since the
 * list it would wrap is not where the server reaches the agent); a use that may add one check cannot
 * see is an opaque element.
 */
function localArray(cx: FileContext, name: string, held: { init: ts.Expression; scope: Scope }, out: McpServerElement[], depth: number): void {
  serverElements(cx, held.init, held.scope, out, depth + 1, false);
  const changes = arrayChanges(cx, name);
  // what is added is read where the array is (`servers.push(fs)` in the same scope as the array, as a rule)
  for (const added of changes.added) serverElements(cx, added, held.scope, out, depth + 1, false);
  for (const node of changes.opaque) out.push(serverElement(cx, node, 'opaque', undefined, held.scope, false));
}

const TRANSPORTS: Record<string, McpServerLaunch['transport']> = { MCPServerStdio: 'stdio', MCPServerStreamableHttp: 'http', MCPServerSSE: 'sse' };

/** The `new` of an SDK MCP server class an expression holds (through variables and `protectMcpServer`). */
function serverNewOf(cx: FileContext, expr: ts.Expression | undefined, scope: Scope, depth = 0): ts.NewExpression | undefined {
  if (!expr || depth > 4) return undefined;
  const e = skipWrappers(expr);
  if (typescript.isNewExpression(e)) return e;
  if (typescript.isIdentifier(e)) {
    const held = heldBy(cx, e.text, scope);
    return held ? serverNewOf(cx, held.init, held.scope, depth + 1) : undefined;
  }
  if (typescript.isCallExpression(e) && doorOf(cx, e.expression) === 'protectMcpServer') return serverNewOf(cx, e.arguments[0], scope, depth + 1);
  return undefined;
}

/**
 * The literal launch options of the SDK MCP server an expression makes: the command of a stdio
 * server (`fullCommand`, or `command` and `args`, and `cwd`), the URL of an HTTP one. Undefined when
 * it is not an SDK server class or a part of them is not a literal (init never guesses a command).
 */
function serverLaunchOf(cx: FileContext, expr: ts.Expression | undefined, scope: Scope): McpServerLaunch | undefined {
  const made = serverNewOf(cx, expr, scope);
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
function serverOptionsOf(cx: FileContext, expr: ts.Expression | undefined, scope: Scope): ts.ObjectLiteralExpression | undefined {
  const arg = serverNewOf(cx, expr, scope)?.arguments?.[0];
  const options = arg ? skipWrappers(arg) : undefined;
  return options && typescript.isObjectLiteralExpression(options) ? options : undefined;
}

/**
 * How the server an expression makes gets its `fetch` option (CTRLRun's TLS pins need the generated
 * module's): `upstreamFetch` (a call of it), `other`, `none`; undefined when check cannot tell (no
 * `new` it can follow, a spread in the options).
 */
function serverFetchOf(cx: FileContext, expr: ts.Expression | undefined, scope: Scope): McpServerElement['fetch'] {
  const options = serverOptionsOf(cx, expr, scope);
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
function fetchInsertOf(cx: FileContext, expr: ts.Expression | undefined, scope: Scope): McpServerElement['fetchInsert'] {
  const first = serverOptionsOf(cx, expr, scope)?.properties[0];
  if (!first) return undefined;
  const at = first.getStart(cx.sf);
  const lineStart = cx.sf.text.lastIndexOf('\n', at - 1) + 1;
  const before = cx.sf.text.slice(lineStart, at);
  return { at, indent: /^\s*$/.test(before) ? before : null };
}

/** The `name` option of the server an expression makes (`new MCPServerStdio({ name: 'fs' })`), through one variable. */
function serverNameOf(cx: FileContext, expr: ts.Expression | undefined, scope: Scope): string | undefined {
  const made = serverNewOf(cx, expr, scope);
  return made ? optionsOf(made.arguments?.[0], cx.sf).properties.name?.stringValue : undefined;
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
function connectedServers(cx: FileContext, e: ts.Expression, scope: Scope): { servers: ts.Expression; scope: Scope } | undefined {
  if (!typescript.isPropertyAccessExpression(e) || (e.name.text !== 'active' && e.name.text !== 'all')) return undefined;
  let holder = unwrapAwait(e.expression);
  if (typescript.isIdentifier(holder)) {
    const held = heldBy(cx, holder.text, scope);
    if (!held) return undefined;
    [holder, scope] = [unwrapAwait(held.init), held.scope];
  }
  if (!typescript.isCallExpression(holder)) return undefined;
  const callee = skipWrappers(holder.expression);
  const direct = resolve(cx, callee);
  const opens =
    (direct?.member === 'connectMcpServers' && isSdkModule(direct.module)) ||
    (typescript.isPropertyAccessExpression(callee) &&
      callee.name.text === 'open' &&
      ((r) => r?.member === 'MCPServers' && isSdkModule(r.module))(resolve(cx, callee.expression)));
  const servers = holder.arguments[0];
  return opens && servers ? { servers, scope } : undefined;
}
