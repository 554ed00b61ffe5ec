import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { holdsToolFactory } from '../imports.js';
import { isCommonJsExport, isCommonJsTarget, isReferencePosition, isReflectApply, isStringLike, isWrapper } from '../syntax.js';
import { sdkValueOf } from '../values.js';
import { isTopLevel, lookupName, opaque, type FileContext } from './context.js';

// Identifiers: how often an import is used, and factories that escape where check cannot follow.

/** One more reference to a top-level import (an import nothing reads is removed by the codemod). */
export function countReference(cx: FileContext, id: ts.Identifier): void {
  const parent = cx.ancestors[cx.ancestors.length - 1];
  const b = cx.bindings.get(id.text);
  if (!b || !parent || !isReferencePosition(id, parent) || !isTopLevel(cx, id.text)) return;
  if (b.kind === 'generated-namespace' || !b.spec) return;
  b.spec.references++;
}

/** Whether a node wraps `child` without changing its value (parentheses, casts, a comma's right). */
function isValueWrapper(p: ts.Node, child: ts.Node): boolean {
  return isWrapper(p) || (typescript.isBinaryExpression(p) && p.operatorToken.kind === typescript.SyntaxKind.CommaToken && p.right === child);
}

/**
 * Fail closed: an identifier that stands for a tool factory, or a module exporting one, must be
 * used in a way the scanner follows (called, a member read, aliased, re-exported, a type query).
 */
export function checkEscape(cx: FileContext, id: ts.Identifier): void {
  const { ancestors, sf } = cx;
  const parent = ancestors[ancestors.length - 1];
  if (!parent) return;
  // asked of every identifier: the name's binding first (a map lookup, most names hold no factory)
  const v = sdkValueOf(lookupName(cx, id.text));
  if (!v || !holdsToolFactory(v) || !isReferencePosition(id, parent)) return;
  let child: ts.Node = id;
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const p = ancestors[i]!;
    if (isValueWrapper(p, child)) {
      child = p;
      continue;
    }
    if (typescript.isCallExpression(p) && p.expression === child) return;
    if ((typescript.isPropertyAccessExpression(p) || typescript.isElementAccessExpression(p)) && p.expression === child) {
      const key = typescript.isPropertyAccessExpression(p) ? p.name.text : isStringLike(p.argumentExpression) ? p.argumentExpression.text : undefined;
      if (key === undefined) return opaque(cx, p, id.text, 'a member is read with a computed key, so check cannot tell which export is used');
      if (v.kind === 'member' && key === 'bind') return opaque(cx, p, id.text, '`bind` makes a copy of the factory that check cannot follow');
      return;
    }
    if (typescript.isVariableDeclaration(p) && p.initializer === child) return;
    if (typescript.isExportAssignment(p) || typescript.isExportSpecifier(p) || (typescript.isShorthandPropertyAssignment(p) && isCommonJsExport(ancestors, i)))
      return;
    if (typescript.isPropertyAssignment(p) && p.initializer === child && isCommonJsExport(ancestors, i)) return;
    if (typescript.isBinaryExpression(p) && p.operatorToken.kind === typescript.SyntaxKind.EqualsToken && p.right === child && isCommonJsTarget(p.left, sf))
      return;
    if (typescript.isTypeQueryNode(p) || typescript.isTypeOfExpression(p)) return;
    if (typescript.isCallExpression(p) && isReflectApply(p) && p.arguments[0] === child) return;
    if (typescript.isAwaitExpression(p)) {
      child = p;
      continue;
    }
    return opaque(
      cx,
      child,
      id.text,
      v.kind === 'member'
        ? 'the factory is passed on as a value, so check cannot see the tools it builds'
        : 'the SDK module is passed on as a value, so check cannot see the tools built from it',
    );
  }
}
