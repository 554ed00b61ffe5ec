import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import type { Binding } from '../imports.js';
import { scopeDeclarations } from '../scope.js';
import { aliasValues } from '../values.js';
import { onNew } from './agents.js';
import { onHandoffClass } from './handoffs.js';
import { onCall } from './calls.js';
import { exprValue, type FileContext } from './context.js';
import { onAgentDestructure, onAsToolRead } from './escapes.js';
import { onAssignment, onObjectLiteral } from './objects.js';
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

/** Each node to its reader, by kind (one switch: every node of the file passes here). */
function readNode(cx: FileContext, node: ts.Node): void {
  const k = typescript.SyntaxKind;
  switch (node.kind) {
    case k.Identifier:
      // most names are neither an import nor a possible alias of the SDK: nothing to count or follow
      // (every name a scope or the file binds to one is in `interesting`)
      if (!cx.interesting.has((node as ts.Identifier).text)) return;
      countReference(cx, node as ts.Identifier);
      checkEscape(cx, node as ts.Identifier);
      return;
    case k.CallExpression:
      onCall(cx, node as ts.CallExpression);
      return;
    case k.NewExpression:
      onNew(cx, node as ts.NewExpression);
      onHandoffClass(cx, node as ts.NewExpression);
      return;
    case k.ObjectLiteralExpression:
      onObjectLiteral(cx, node as ts.ObjectLiteralExpression);
      onMcpServersLiteral(cx, node as ts.ObjectLiteralExpression);
      return;
    case k.PropertyDeclaration:
      onMcpServersField(cx, node as ts.PropertyDeclaration);
      return;
    case k.BinaryExpression:
      if (isAssigning((node as ts.BinaryExpression).operatorToken.kind)) onAssignment(cx, node as ts.BinaryExpression);
      return;
    case k.PropertyAccessExpression:
    case k.ElementAccessExpression:
      onAsToolRead(cx, node as ts.PropertyAccessExpression | ts.ElementAccessExpression);
      onMcpServersMember(cx, node as ts.PropertyAccessExpression | ts.ElementAccessExpression);
      return;
    case k.VariableDeclaration:
      onAgentDestructure(cx, node as ts.VariableDeclaration);
      return;
  }
}

export function visitFile(cx: FileContext): void {
  const k = typescript.SyntaxKind;
  const visit = (node: ts.Node): void => {
    if (node.kind === k.ImportDeclaration || node.kind === k.ImportEqualsDeclaration) return;
    const opened = openScope(cx, node);
    readNode(cx, node);
    cx.ancestors.push(node);
    typescript.forEachChild(node, visit);
    cx.ancestors.pop();
    if (opened) cx.scopes.pop();
  };
  visit(cx.sf);
}
