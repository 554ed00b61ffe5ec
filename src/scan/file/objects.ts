import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { spanOf } from '../parse.js';
import { isStringLike, propertyName, skipParens, skipWrappers } from '../syntax.js';
import type { InvokeReplacement, ObjectLiteralTool } from '../types.js';
import { agentVarOf, type FileContext } from './context.js';

// Tools written as plain objects and `invoke` replaced after the fact: doors that bypass `tool()`.

/** `{ type: 'function', name, invoke }` (a tool by hand) or `{ ...t, invoke }` (a tool's body swapped). */
export function onObjectLiteral(cx: FileContext, node: ts.ObjectLiteralExpression): void {
  let type: string | undefined;
  let hasInvoke = false;
  let spread: ts.Expression | undefined;
  let name: string | undefined;
  for (const p of node.properties) {
    if (typescript.isSpreadAssignment(p)) {
      spread ??= p.expression;
      continue;
    }
    const key = propertyName(p.name);
    if (key === 'invoke') hasInvoke = true;
    if (key === 'type' && typescript.isPropertyAssignment(p) && isStringLike(skipParens(p.initializer)))
      type = (skipParens(p.initializer) as ts.StringLiteral).text;
    if (key === 'name' && typescript.isPropertyAssignment(p) && isStringLike(skipParens(p.initializer)))
      name = (skipParens(p.initializer) as ts.StringLiteral).text;
  }
  if (!hasInvoke) return;
  if (spread) {
    const r: InvokeReplacement = { kind: 'invoke-replacement', span: spanOf(node, cx.sf), form: 'spread' };
    const t = skipWrappers(spread);
    if (typescript.isIdentifier(t)) r.target = t.text;
    cx.scan.invokeReplacements!.push(r);
  } else if (type === 'function') {
    const t: ObjectLiteralTool = { kind: 'object-literal-tool', span: spanOf(node, cx.sf) };
    if (name !== undefined) t.name = name;
    cx.scan.objectLiteralTools!.push(t);
  }
}

/** `x.mcpServers = [...]` (kept for later) and `t.invoke = ...` (a tool's body replaced). */
export function onAssignment(cx: FileContext, node: ts.BinaryExpression): void {
  const left = skipWrappers(node.left);
  const key = typescript.isPropertyAccessExpression(left)
    ? left.name.text
    : typescript.isElementAccessExpression(left) && isStringLike(left.argumentExpression)
      ? left.argumentExpression.text
      : undefined;
  if (key === 'mcpServers' && cx.scan.importsSdk) {
    const target = (left as ts.PropertyAccessExpression | ts.ElementAccessExpression).expression;
    cx.pendingLists.push({
      span: spanOf(node, cx.sf),
      form: 'assignment',
      values: [node.right],
      agentVar: agentVarOf(cx, target),
      ancestors: cx.ancestors.slice(),
    });
  }
  if (key === 'invoke') {
    const target = skipWrappers((left as ts.PropertyAccessExpression | ts.ElementAccessExpression).expression);
    const r: InvokeReplacement = { kind: 'invoke-replacement', span: spanOf(node, cx.sf), form: 'assignment' };
    if (typescript.isIdentifier(target)) r.target = target.text;
    cx.scan.invokeReplacements!.push(r);
  }
}
