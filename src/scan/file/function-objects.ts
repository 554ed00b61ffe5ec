import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { spanOf } from '../parse.js';
import { propertyName } from '../syntax.js';
import type { ObjectLiteralTool } from '../types.js';
import type { FileContext } from './context.js';
import { constStringOf } from './names.js';
import { unreadableType } from './literal-doors.js';

// Function tools written by hand as objects (`{ type: 'function', name, invoke }`): reported as
// object-literal-tool, from file/objects.ts as the walk meets them and from an agent's `tools`.

/**
 * An object literal an agent's `tools` holds in this file (`tools: [{ type: KIND, invoke }]`, or a
 * variable holding it): a `type` check cannot read beside an `invoke` may be 'function' (fail closed).
 */
export function onHandedObject(cx: FileContext, node: ts.ObjectLiteralExpression): void {
  let type: ts.Expression | undefined;
  let name: ts.Expression | undefined;
  let hasInvoke = false;
  for (const p of node.properties) {
    // a copy of a tool with its part written is file/door-writes.ts's (`{ ...t, invoke }`)
    if (typescript.isSpreadAssignment(p)) return;
    const key = propertyName(p.name);
    if (key === 'invoke') hasInvoke = true;
    const value = typescript.isPropertyAssignment(p) ? p.initializer : typescript.isShorthandPropertyAssignment(p) ? p.name : undefined;
    if (key === 'type') type = value;
    if (key === 'name') name = value;
  }
  if (hasInvoke && type && constStringOf(cx, type) === undefined) unreadFunctionTool(cx, node, type, name);
}

/** Reports `{ type: KIND, invoke }` with the type's text, once per object (the agent's file and the exports' reading may both meet it). */
export function unreadFunctionTool(cx: FileContext, node: ts.ObjectLiteralExpression, type: ts.Expression, name: ts.Expression | undefined): void {
  const unread = unreadableType(type);
  if (unread === undefined) return;
  const start = node.getStart(cx.sf);
  if (cx.scan.objectLiteralTools!.some((t) => t.span.start === start)) return;
  pushTool(cx, node, name, 'object').typeText = unread.getText(cx.sf);
}

export function pushTool(cx: FileContext, node: ts.Node, name: ts.Expression | undefined, form: 'object' | 'class'): ObjectLiteralTool {
  const t: ObjectLiteralTool = { kind: 'object-literal-tool', span: spanOf(node, cx.sf) };
  const written = name ? constStringOf(cx, name) : undefined;
  if (written !== undefined) t.name = written;
  if (form === 'class') t.form = form;
  cx.scan.objectLiteralTools!.push(t);
  return t;
}
