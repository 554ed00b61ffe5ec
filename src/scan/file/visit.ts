import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import type { Binding } from '../imports.js';
import { scopeDeclarations, scopeKinds } from '../scope.js';
import { aliasValues } from '../values.js';
import { onNew, onToolsAdded } from './agents.js';
import { onHandoffClass, onHandoffSubclass } from './handoffs.js';
import { onCall } from './calls.js';
import { exprValue, type FileContext } from './context.js';
import { onAgentDestructure, onAsToolRead } from './escapes.js';
import { onAssignment, onClass, onObjectLiteral } from './objects.js';
import { checkEscape, countReference } from './references.js';
import { onMcpServersField, onMcpServersLiteral, onMcpServersMember } from './mcp-lists.js';
import { isAssigning } from '../syntax.js';

// The walk over one file: scopes that shadow or alias SDK names, and each node to its door's reader.

/**
 * Opens the scope a node makes when it declares a name worth tracking (shadowed, or an alias of the
 * SDK); true when it did. The scope is open while its aliases are read: `const t = sdk.tool` sees
 * the `sdk` declared just before it in the same scope.
 */
function openScope(cx: FileContext, node: ts.Node): boolean {
  const declared = node.kind === typescript.SyntaxKind.SourceFile ? [] : scopeDeclarations(node, cx.interesting, cx.hoisted);
  if (declared.length === 0) return false;
  const scope = new Map<string, Binding | null>();
  cx.scopes.push(scope);
  for (const d of declared) {
    scope.set(d.name, null);
    if (typescript.isVariableDeclaration(d.declaration)) {
      for (const [name, value] of aliasValues(d.declaration, (e) => exprValue(cx, e))) {
        if (name === d.name) scope.set(name, { kind: 'sdk', value, via: value.kind === 'module' ? 'namespace' : 'named' });
      }
    }
  }
  return true;
}

type Reader = (cx: FileContext, node: ts.Node) => void;

let readerTable: ReadonlyArray<Reader | undefined> | undefined;

/**
 * Each node to its reader, by syntax kind (every node of the file passes here; most kinds have no
 * reader, and the walk calls none for them). One table, so the kinds read and their readers cannot
 * drift apart.
 */
function readers(): ReadonlyArray<Reader | undefined> {
  if (readerTable) return readerTable;
  const k = typescript.SyntaxKind;
  const table: Array<Reader | undefined> = new Array(k.Count).fill(undefined);
  table[k.Identifier] = (cx, node) => {
    // most names are neither an import nor a possible alias of the SDK: nothing to count or follow
    // (every name a scope or the file binds to one is in `interesting`)
    if (!cx.interesting.has((node as ts.Identifier).text)) return;
    countReference(cx, node as ts.Identifier);
    checkEscape(cx, node as ts.Identifier);
  };
  table[k.CallExpression] = (cx, node) => onCall(cx, node as ts.CallExpression);
  table[k.NewExpression] = (cx, node) => {
    onNew(cx, node as ts.NewExpression);
    onHandoffClass(cx, node as ts.NewExpression);
  };
  table[k.ObjectLiteralExpression] = (cx, node) => {
    onObjectLiteral(cx, node as ts.ObjectLiteralExpression);
    onMcpServersLiteral(cx, node as ts.ObjectLiteralExpression);
  };
  table[k.PropertyDeclaration] = (cx, node) => onMcpServersField(cx, node as ts.PropertyDeclaration);
  table[k.ClassDeclaration] = table[k.ClassExpression] = (cx, node) => {
    onClass(cx, node as ts.ClassLikeDeclaration);
    onHandoffSubclass(cx, node as ts.ClassLikeDeclaration);
  };
  table[k.BinaryExpression] = (cx, node) => {
    const b = node as ts.BinaryExpression;
    if (!isAssigning(b.operatorToken.kind)) return;
    onAssignment(cx, b);
    onToolsAdded(cx, b.left, [b.right]);
  };
  table[k.PropertyAccessExpression] = table[k.ElementAccessExpression] = (cx, node) => {
    onAsToolRead(cx, node as ts.PropertyAccessExpression | ts.ElementAccessExpression);
    onMcpServersMember(cx, node as ts.PropertyAccessExpression | ts.ElementAccessExpression);
  };
  table[k.VariableDeclaration] = (cx, node) => onAgentDestructure(cx, node as ts.VariableDeclaration);
  readerTable = table;
  return table;
}

export function visitFile(cx: FileContext): void {
  const k = typescript.SyntaxKind;
  // each node's kind is tested against these tables: the calls are made only for the nodes they read
  const scopes = cx.interesting.size > 0 ? scopeKinds() : undefined;
  const read = readers();
  const lastToken = k.LastToken;
  const visit = (node: ts.Node): void => {
    // a token (a name, a literal, a keyword) opens no scope and has no children
    if (node.kind <= lastToken) {
      read[node.kind]?.(cx, node);
      return;
    }
    if (node.kind === k.ImportDeclaration || node.kind === k.ImportEqualsDeclaration) return;
    const opened = scopes !== undefined && scopes[node.kind] === 1 && openScope(cx, node);
    read[node.kind]?.(cx, node);
    cx.ancestors.push(node);
    typescript.forEachChild(node, visit);
    cx.ancestors.pop();
    if (opened) cx.scopes.pop();
  };
  visit(cx.sf);
}
