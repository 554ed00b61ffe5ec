import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { spanOf } from '../parse.js';
import { isAssigning, isStringLike, isWrapper, propertyName, skipWrappers } from '../syntax.js';
import { agentVarOf, resolve, type FileContext, type PendingList } from './context.js';
import { isSdkModule } from '../imports.js';
import { ADDS_NOTHING, isSdkConnector } from './mcp-arrays.js';
import { constStringOf } from './names.js';
import { agentOf } from './agent-values.js';

// Every place a list of MCP servers may reach an agent's `mcpServers`, whatever carries it there:
// the SDK reads `agent.mcpServers` on each turn, and an agent's options may travel through
// factories, spreads, `super()`, variables and returns check does not follow. So the lists are
// read where they are written, not where an agent is made: any property named `mcpServers` (an
// object literal's, a class field), any write to an `.mcpServers` member and any call that changes
// one. Each is settled by file/mcp-servers.ts like an agent's own list.

/**
 * The pending list of a property named `mcpServers` (the same one whether the walk meets the object
 * literal or the agent it is given to first): the agent's reader fills in the agent.
 */
export function mcpPropertyList(cx: FileContext, property: ts.Node, make: () => PendingList): PendingList {
  let list = cx.mcpProperties.get(property);
  if (!list) {
    list = make();
    cx.mcpProperties.set(property, list);
    cx.pendingLists.push(list);
  }
  return list;
}

/** Values that cannot be a list of servers: the SDK finds no server in them (an object map of configs, a literal). */
function isNoList(value: ts.Expression): boolean {
  const v = skipWrappers(value);
  const k = typescript.SyntaxKind;
  return (
    typescript.isObjectLiteralExpression(v) ||
    isStringLike(v) ||
    typescript.isNumericLiteral(v) ||
    v.kind === k.TrueKeyword ||
    v.kind === k.FalseKeyword ||
    v.kind === k.NullKeyword ||
    (typescript.isIdentifier(v) && v.text === 'undefined')
  );
}

/** `{ ..., mcpServers: [...] }` anywhere in a file of the SDK (an agent's options however they reach it). */
export function onMcpServersLiteral(cx: FileContext, node: ts.ObjectLiteralExpression): void {
  // the keys first (the loop's own test): most object literals name no `mcpServers`, and the two
  // tests after walk the ancestors and resolve a callee (issue 40, item 8)
  if (!node.properties.some(namesMcpServers)) return;
  if (isAssignmentTarget(cx, node) || isConversionOptions(cx, node)) return;
  for (const p of node.properties) {
    if (!namesMcpServers(p)) continue;
    const value = typescript.isPropertyAssignment(p) ? p.initializer : typescript.isShorthandPropertyAssignment(p) ? p.name : undefined;
    if (value && isNoList(value)) continue;
    mcpPropertyList(cx, p, () => ({
      span: spanOf(p, cx.sf),
      form: 'agent',
      values: value ? [value] : [],
      whole: value === undefined,
      ancestors: cx.ancestors.slice(),
      sdkOnly: true,
    }));
  }
}

/** A property written `mcpServers` (not a spread). */
function namesMcpServers(p: ts.ObjectLiteralElementLike): boolean {
  return !typescript.isSpreadAssignment(p) && propertyName(p.name) === 'mcpServers';
}

/** `mcpServers = [...]` as a class field (an Agent subclass's own list). */
export function onMcpServersField(cx: FileContext, node: ts.PropertyDeclaration): void {
  if (!node.initializer || propertyName(node.name) !== 'mcpServers' || isNoList(node.initializer)) return;
  cx.pendingLists.push({ span: spanOf(node, cx.sf), form: 'assignment', values: [node.initializer], ancestors: cx.ancestors.slice(), sdkOnly: true });
}

/** `getAllMcpTools({ mcpServers })` of the SDK: its servers are the conversion's (file/calls.ts), checked there. */
function isConversionOptions(cx: FileContext, node: ts.ObjectLiteralExpression): boolean {
  let i = cx.ancestors.length - 1;
  let child: ts.Node = node;
  while (i > 0 && isWrapper(cx.ancestors[i]!)) child = cx.ancestors[i--]!;
  const call = cx.ancestors[i];
  if (!call || !typescript.isCallExpression(call) || call.arguments[0] !== child) return false;
  const r = resolve(cx, call.expression);
  return r?.member === 'getAllMcpTools' && isSdkModule(r.module);
}

/** Whether the object literal being visited is a destructuring assignment's target (`({ mcpServers } = opts)`). */
function isAssignmentTarget(cx: FileContext, node: ts.ObjectLiteralExpression): boolean {
  let child: ts.Node = node;
  for (let i = cx.ancestors.length - 1; i >= 0; i--) {
    const p = cx.ancestors[i]!;
    if (typescript.isBinaryExpression(p)) return p.operatorToken.kind === typescript.SyntaxKind.EqualsToken && p.left === child;
    if (typescript.isForOfStatement(p) || typescript.isForInStatement(p)) return p.initializer === child;
    if (
      !isWrapper(p) &&
      !typescript.isObjectLiteralExpression(p) &&
      !typescript.isArrayLiteralExpression(p) &&
      !typescript.isPropertyAssignment(p) &&
      !typescript.isShorthandPropertyAssignment(p) &&
      !typescript.isSpreadElement(p) &&
      !typescript.isSpreadAssignment(p)
    )
      return false;
    child = p;
  }
  return false;
}

/** Callees that read a list handed to them and add nothing to it. */
const READERS = new Set([
  'console.log',
  'console.info',
  'console.debug',
  'console.warn',
  'console.error',
  'JSON.stringify',
  'Array.from',
  'Array.isArray',
  'Object.keys',
  'Object.values',
  'Object.entries',
  'Promise.all',
  'Promise.allSettled',
]);

/** The name `X.mcpServers` or `X['mcpServers']` reads, if it is one. */
function isMcpServersMember(node: ts.PropertyAccessExpression | ts.ElementAccessExpression): boolean {
  if (typescript.isPropertyAccessExpression(node)) return node.name.text === 'mcpServers';
  const key = skipWrappers(node.argumentExpression);
  return isStringLike(key) && key.text === 'mcpServers';
}

/**
 * Whether a member may be an agent's `mcpServers`: `yes` for `.mcpServers`, `['mcpServers']` and a
 * key held by a `const` ('mcpServers'); `maybe` for a key check cannot know (`agent[key]`) in a
 * file of the SDK (the caller then asks `mayBeAgent` of the value: one provably no agent, such as
 * an object literal, is another object); else undefined.
 */
export function mcpServersKey(cx: FileContext, node: ts.PropertyAccessExpression | ts.ElementAccessExpression): 'yes' | 'maybe' | undefined {
  if (isMcpServersMember(node)) return 'yes';
  if (typescript.isPropertyAccessExpression(node)) return undefined;
  return computedKey(cx, node.argumentExpression);
}

/** A computed key as {@link mcpServersKey} reads it: a literal is no unknown key, a `const` is known, anything else may be 'mcpServers' in a file of the SDK. */
function computedKey(cx: FileContext, expr: ts.Expression): 'yes' | 'maybe' | undefined {
  const key = skipWrappers(expr);
  if (isStringLike(key)) return key.text === 'mcpServers' ? 'yes' : undefined;
  if (!cx.scan.importsSdk || typescript.isNumericLiteral(key) || typescript.isPrefixUnaryExpression(key)) return undefined;
  const known = constStringOf(cx, key);
  if (known !== undefined) return known === 'mcpServers' ? 'yes' : undefined;
  return 'maybe';
}

/** Whether the value a key check cannot know is written on may be an agent (asked only where servers are added: `agentOf` is not free). */
export function mayBeAgent(cx: FileContext, expr: ts.Expression, ancestors: readonly ts.Node[] = cx.ancestors): boolean {
  return agentOf(cx, expr, ancestors).kind !== 'not';
}

/**
 * `X.mcpServers` (or `X['mcpServers']`) as the walk meets it: a call that adds to the list
 * (`push`, `unshift`, `splice`, `fill`: what it adds is the list's), an index written, the list
 * held by a variable (what the file adds through it is the list's), handed on or returned (check
 * cannot see what is added there: an opaque element; given to another `mcpServers`, it is checked there). A read changes nothing; `X.mcpServers = v`
 * is file/objects.ts's.
 */
export function onMcpServersMember(cx: FileContext, node: ts.PropertyAccessExpression | ts.ElementAccessExpression): void {
  // a key check cannot know is read only where servers are added (`agent[key].push(server)`)
  const key = mcpServersKey(cx, node);
  if (key === undefined) return;
  if (key === 'maybe') return onMaybeMcpServers(cx, node);
  const a = cx.ancestors;
  let child: ts.Node = node;
  let i = a.length - 1;
  // through wrappers, `??`/`||` and a conditional's branch: the same list
  while (i > 0 && passesList(a[i]!, child)) {
    child = a[i]!;
    i--;
  }
  const p = a[i];
  if (!p) return;
  const list = (span: ts.Node, form: PendingList['form'], values: ts.Expression[], extra: Partial<PendingList> = {}): void => {
    cx.pendingLists.push({ span: spanOf(span, cx.sf), form, values, agentVar: agentVarOf(cx, node.expression), ancestors: a.slice(), sdkOnly: true, ...extra });
  };
  if (typescript.isPropertyAccessExpression(p) && p.expression === child) {
    const call = a[i - 1];
    if (!call || !typescript.isCallExpression(call) || call.expression !== p) return; // `.length`, a method read
    const method = p.name.text;
    if (method === 'push' || method === 'unshift') list(call, 'push', [...call.arguments]);
    else if (method === 'splice') list(call, 'push', call.arguments.slice(2));
    else if (method === 'fill') list(call, 'push', call.arguments.slice(0, 1));
    else if (!ADDS_NOTHING.has(method)) list(call, 'push', [], { whole: true });
    return;
  }
  if (typescript.isElementAccessExpression(p) && p.expression === child) {
    const write = a[i - 1];
    // `=` and the logical assignments alike (`list[i] ??= server` writes a server too)
    if (write && typescript.isBinaryExpression(write) && write.left === p && isAssigning(write.operatorToken.kind)) list(write, 'assignment', [write.right]);
    return;
  }
  if (typescript.isBinaryExpression(p) && p.left === child) return; // `X.mcpServers = v`: file/objects.ts
  if (typescript.isVariableDeclaration(p) && p.initializer === child) {
    if (typescript.isIdentifier(p.name)) list(node, 'push', [], { aliasOf: p.name.text });
    return;
  }
  if (isRead(cx, p, child)) return;
  list(node, 'handed-on', [], { whole: true });
}

/**
 * `x[key].push(server)` with a key check cannot know, on a value that may be an agent: the servers
 * it adds, kept only where one is an unguarded SDK server (file/mcp-servers.ts), so a map of
 * anything else written by key stays silent.
 */
function onMaybeMcpServers(cx: FileContext, node: ts.ElementAccessExpression | ts.PropertyAccessExpression): void {
  const a = cx.ancestors;
  let i = a.length - 1;
  let child: ts.Node = node;
  while (i > 0 && isWrapper(a[i]!)) child = a[i--]!;
  const p = a[i];
  // `const s = agent[key]`: what the file adds through `s` (its unguarded SDK servers only)
  if (p && typescript.isVariableDeclaration(p) && p.initializer === child && typescript.isIdentifier(p.name)) {
    if (!mayBeAgent(cx, node.expression)) return;
    cx.pendingLists.push({ span: spanOf(node, cx.sf), form: 'push', values: [], aliasOf: p.name.text, serversOnly: true, ancestors: a.slice(), sdkOnly: true });
    return;
  }
  const call = a[a.length - 2];
  if (!p || !call || !typescript.isPropertyAccessExpression(p) || p.expression !== node) return;
  if (!typescript.isCallExpression(call) || call.expression !== p) return;
  const method = p.name.text;
  const values = method === 'push' || method === 'unshift' ? [...call.arguments] : method === 'splice' ? call.arguments.slice(2) : undefined;
  if (!values || !mayBeAgent(cx, node.expression)) return;
  cx.pendingLists.push({ span: spanOf(call, cx.sf), form: 'push', values, serversOnly: true, ancestors: a.slice(), sdkOnly: true });
}

/** A node whose value may be the very list its child is: wrappers, a conditional's branch, either side of `??` or `||`. */
function passesList(p: ts.Node, child: ts.Node): boolean {
  if (isWrapper(p)) return true;
  if (typescript.isConditionalExpression(p)) return p.condition !== child;
  if (!typescript.isBinaryExpression(p)) return false;
  const op = p.operatorToken.kind;
  return op === typescript.SyntaxKind.QuestionQuestionToken || op === typescript.SyntaxKind.BarBarToken;
}

/** A use of the list that adds nothing to it and lets no other code do so. */
function isRead(cx: FileContext, p: ts.Node, child: ts.Node): boolean {
  if (typescript.isForOfStatement(p) || typescript.isForInStatement(p)) return p.expression === child;
  if (typescript.isConditionalExpression(p)) return p.condition === child;
  // given to another `mcpServers` (a property, an assignment): that list is checked where it is written
  if (typescript.isPropertyAssignment(p)) return p.initializer === child && propertyName(p.name) === 'mcpServers';
  if (typescript.isBinaryExpression(p) && p.right === child && isAssigning(p.operatorToken.kind)) {
    const left = skipWrappers(p.left);
    return (typescript.isPropertyAccessExpression(left) || typescript.isElementAccessExpression(left)) && isMcpServersMember(left);
  }
  if (typescript.isSpreadElement(p) || typescript.isTemplateSpan(p) || typescript.isTypeOfExpression(p) || typescript.isVoidExpression(p)) return true;
  if (typescript.isExpressionStatement(p) || typescript.isIfStatement(p) || typescript.isPrefixUnaryExpression(p)) return true;
  if (typescript.isBinaryExpression(p)) return p.operatorToken.kind !== typescript.SyntaxKind.EqualsToken;
  if (typescript.isCallExpression(p) && p.expression !== child) {
    const callee = skipWrappers(p.expression);
    return READERS.has(callee.getText(cx.sf)) || isSdkConnector(cx, callee);
  }
  return false;
}

/** Writes of a property by name: `Object.defineProperty(o, key, descriptor)`, `Reflect.set(o, key, value)`. */
const PROPERTY_WRITERS = new Set(['Object.defineProperty', 'Reflect.defineProperty', 'Reflect.set']);
/** The member names of `PROPERTY_WRITERS`: a callee whose text is one of them is a property access with one of these names. */
const WRITER_NAMES = new Set(['defineProperty', 'set']);

/** The callee's text when it is one of `PROPERTY_WRITERS` (tested by its member's name before its text is made). */
export function propertyWriterOf(expr: ts.Expression, sf: ts.SourceFile): string | undefined {
  const c = skipWrappers(expr);
  if (!typescript.isPropertyAccessExpression(c) || !WRITER_NAMES.has(c.name.text)) return undefined;
  const text = c.getText(sf);
  return PROPERTY_WRITERS.has(text) ? text : undefined;
}

/**
 * `Object.defineProperty(agent, 'mcpServers', { value })` and `Reflect.set(agent, 'mcpServers', v)`:
 * an assignment by another name (the descriptor's `value` when it is written there, else a value
 * check cannot follow: a getter, a descriptor held elsewhere). The key as an element's is read: a
 * `const` 'mcpServers' is the list; a key check cannot know, on what may be an agent, keeps only
 * the unguarded SDK servers of an array written (a value it cannot read holds none it can name).
 */
export function onMcpServersDefine(cx: FileContext, node: ts.CallExpression): void {
  // the callee first (asked of every call): the key's test looks its name up in scope
  const callee = propertyWriterOf(node.expression, cx.sf);
  if (callee === undefined) return;
  const key = node.arguments[1] ? computedKey(cx, node.arguments[1]) : undefined;
  if (key === undefined) return;
  const target = node.arguments[0];
  // a key check cannot know: as `agent[key] = [...]` (objects.ts), the unguarded SDK servers of an array written on what may be an agent
  if (key === 'maybe' && (!target || !mayBeAgent(cx, target))) return;
  const given = node.arguments[2];
  let values: ts.Expression[] = [];
  if (callee === 'Reflect.set') values = given ? [given] : [];
  else {
    const d = given ? skipWrappers(given) : undefined;
    // a descriptor written in place with every member a plain property (no spread, no method `get()`)
    const plain = d && typescript.isObjectLiteralExpression(d) && d.properties.every((p) => typescript.isPropertyAssignment(p)) ? d : undefined;
    const value = plain?.properties.find((p): p is ts.PropertyAssignment => typescript.isPropertyAssignment(p) && propertyName(p.name) === 'value');
    if (value) values = [value.initializer];
  }
  cx.pendingLists.push({
    span: spanOf(node, cx.sf),
    form: 'assignment',
    values,
    ...(key === 'maybe' ? { serversOnly: true } : {}),
    ...(values.length === 0 ? { whole: true } : {}),
    ...(target ? { agentVar: agentVarOf(cx, target) } : {}),
    ancestors: cx.ancestors.slice(),
    sdkOnly: true,
  });
}
