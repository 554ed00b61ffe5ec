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

// The walk over one file: scopes that shadow or alias SDK names, and each node to its door's reader.

/**
 * Opens the scope a node makes when it declares a name worth tracking (shadowed, or an alias of the
 * SDK); true when it did. The scope is open while its aliases are read: `const t = sdk.tool` sees
 * the `sdk` declared just before it in the same scope.
 */
function openScope(cx: FileContext, node: ts.Node): boolean {
  const declared = node.kind === typescript.SyntaxKind.SourceFile ? [] : scopeDeclarations(node, cx.interesting);
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

function readNode(cx: FileContext, node: ts.Node): void {
  if (typescript.isIdentifier(node)) {
    countReference(cx, node);
    checkEscape(cx, node);
  } else if (typescript.isCallExpression(node)) onCall(cx, node);
  else if (typescript.isNewExpression(node)) {
    onNew(cx, node);
    onHandoffClass(cx, node);
  } else if (typescript.isObjectLiteralExpression(node)) onObjectLiteral(cx, node);
  else if (typescript.isBinaryExpression(node) && node.operatorToken.kind === typescript.SyntaxKind.EqualsToken) onAssignment(cx, node);
  else if (typescript.isPropertyAccessExpression(node) || typescript.isElementAccessExpression(node)) onAsToolRead(cx, node);
  else if (typescript.isVariableDeclaration(node)) onAgentDestructure(cx, node);
}

export function visitFile(cx: FileContext): void {
  const visit = (node: ts.Node): void => {
    if (typescript.isImportDeclaration(node) || typescript.isImportEqualsDeclaration(node)) return;
    const opened = openScope(cx, node);
    readNode(cx, node);
    cx.ancestors.push(node);
    typescript.forEachChild(node, visit);
    cx.ancestors.pop();
    if (opened) cx.scopes.pop();
  };
  visit(cx.sf);
}
