import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { isReferencePosition, skipWrappers } from '../syntax.js';
import { isSdkModule } from '../imports.js';
import { resolve, type FileContext } from './context.js';

// MCP servers collected in a local array before it reaches `mcpServers` (`const servers = [];
// servers.push(new MCPServerStdio(...))`): what the file adds to that array is part of the list.

/** Methods of an array that add nothing to it (they read it, remove from it or reorder it). */
export const ADDS_NOTHING: ReadonlySet<string> = new Set([
  'at',
  'concat',
  'entries',
  'every',
  'filter',
  'find',
  'findIndex',
  'findLast',
  'findLastIndex',
  'flat',
  'flatMap',
  'forEach',
  'includes',
  'indexOf',
  'join',
  'keys',
  'lastIndexOf',
  'map',
  'reduce',
  'reduceRight',
  'slice',
  'some',
  'toString',
  'values',
  'pop',
  'shift',
  'sort',
  'reverse',
  'copyWithin',
  'toSorted',
  'toReversed',
  'toSpliced',
  'with',
]);

/** Where the array named `name` is given a server: the servers added (`push`, `unshift`, `splice`), and the places check cannot follow. */
export interface ArrayChanges {
  /** The arguments of `push`/`unshift` (and the inserted ones of `splice`): each is a server added. */
  added: ts.Expression[];
  /** References through which anything may be added (passed on, aliased, an index written, `fill`). */
  opaque: ts.Node[];
}

/**
 * What this file adds to the local array `name` after it is made. Fails closed: any use of the array
 * other than reading it, adding to it with `push`/`unshift`/`splice`, or handing it to `mcpServers`
 * (or spreading it into another list, followed there) is a place something check cannot see is added.
 */
export function arrayChanges(cx: FileContext, name: string): ArrayChanges {
  const out: ArrayChanges = { added: [], opaque: [] };
  // the file is parsed without parent links: they are kept here for the references found
  const parents = new Map<ts.Node, ts.Node>();
  const references: ts.Identifier[] = [];
  const walk = (n: ts.Node): void => {
    typescript.forEachChild(n, (c) => {
      parents.set(c, n);
      if (typescript.isIdentifier(c) && c.text === name && isReferencePosition(c, n)) references.push(c);
      walk(c);
    });
  };
  walk(cx.sf);
  for (const id of references) onReference(cx, id, (n) => parents.get(n) ?? cx.sf, out);
  return out;
}

function onReference(cx: FileContext, id: ts.Identifier, up: (n: ts.Node) => ts.Node, out: ArrayChanges): void {
  let child: ts.Node = id;
  let p = up(id);
  while (typescript.isParenthesizedExpression(p) || typescript.isAsExpression(p) || typescript.isSatisfiesExpression(p) || typescript.isNonNullExpression(p)) {
    child = p;
    p = up(p);
  }
  if (typescript.isVariableDeclaration(p) && p.name === id) return;
  if (typescript.isPropertyAccessExpression(p) && p.expression === child) {
    const call = up(p);
    const called = typescript.isCallExpression(call) && call.expression === p;
    const method = p.name.text;
    if (called && (method === 'push' || method === 'unshift')) out.added.push(...call.arguments);
    else if (called && method === 'splice') out.added.push(...call.arguments.slice(2));
    else if (called && !ADDS_NOTHING.has(method)) out.opaque.push(call);
    else if (!called && typescript.isBinaryExpression(call) && call.left === p && method !== 'length') out.opaque.push(call);
    return;
  }
  if (typescript.isElementAccessExpression(p) && p.expression === child) {
    const parent = up(p);
    if (typescript.isBinaryExpression(parent) && parent.left === p && parent.operatorToken.kind === typescript.SyntaxKind.EqualsToken) out.opaque.push(parent);
    return;
  }
  // the list itself (`mcpServers: servers`, `{ mcpServers }`), a spread into another list: followed there
  if (typescript.isShorthandPropertyAssignment(p) && p.name.text === 'mcpServers') return;
  if (typescript.isPropertyAssignment(p) && p.initializer === child && typescript.isIdentifier(p.name) && p.name.text === 'mcpServers') return;
  if (typescript.isSpreadElement(p) && typescript.isArrayLiteralExpression(up(p))) return;
  // iterated (`for (const s of servers) await s.connect()`), or given to the SDK's own connector (its `.active` is followed)
  if (typescript.isForOfStatement(p) && p.expression === child) return;
  if (typescript.isCallExpression(p) && p.arguments[0] === child && isSdkConnector(cx, p.expression)) return;
  if (typescript.isExpressionStatement(p) || typescript.isTypeOfExpression(p) || typescript.isVoidExpression(p)) return;
  if (typescript.isBinaryExpression(p) && p.operatorToken.kind !== typescript.SyntaxKind.EqualsToken) return;
  out.opaque.push(skipWrappers(child as ts.Expression) === id ? child : id);
}

/** `connectMcpServers` or `MCPServers.open` of the SDK: it holds the very servers it is given (file/mcp-servers.ts follows `.active`). */
export function isSdkConnector(cx: FileContext, callee: ts.Expression): boolean {
  const c = skipWrappers(callee);
  const direct = resolve(cx, c);
  if (direct) return direct.member === 'connectMcpServers' && isSdkModule(direct.module);
  if (!typescript.isPropertyAccessExpression(c) || c.name.text !== 'open') return false;
  const r = resolve(cx, c.expression);
  return r?.member === 'MCPServers' && isSdkModule(r.module);
}
