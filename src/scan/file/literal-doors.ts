import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { spanOf } from '../parse.js';
import { isStringLike, optionsOf, propertyName, skipWrappers, spreadAfter } from '../syntax.js';
import type { LiteralDoor } from '../types.js';
import { constObjectLiteral, usesAgents, type FileContext } from './context.js';
import { constStringOf } from './names.js';
import { handedToAgent } from './agent-tool-exports.js';

// Doors written as the objects the SDK's factories return. The runner (agents-core
// runner/modelOutputs) finds the shell, apply_patch and computer tool of an agent, and its hosted
// MCP tools, by `type` alone: such an object runs as the factory's would, with no factory call.

/** Each local door's `type`, and the property holding the code it runs (without it the runner has nothing to run). */
const LOCAL_BODIES: Readonly<Record<string, string>> = { shell: 'shell', apply_patch: 'editor', computer: 'computer' };

/** An object literal's `type` (read as object-literal-tool reads `'function'`) names a local door or a hosted tool. */
export function onLiteralDoor(cx: FileContext, node: ts.ObjectLiteralExpression, typeExpr: ts.Expression): void {
  const props = written(node);
  // most objects with a `type` (actions, configs) hold none of these: their `type` is not followed
  if (!BODY_KEYS.some((k) => props.has(k))) return;
  const type = constStringOf(cx, typeExpr);
  if (type === undefined) unreadTypeDoor(cx, node, typeExpr, props);
  else if (Object.hasOwn(LOCAL_BODIES, type)) localDoor(cx, node, type as LiteralDoor['door'], props);
  else if (type === 'hosted_tool') hostedMcp(cx, node, props);
}

/**
 * A `type` check cannot read (a name imported from a module it does not follow, a parameter, an
 * enum member) beside a door's body, in a file that uses the SDK or the generated module: it may be
 * the door's, so the object is taken for the door whose body it holds (fail closed). A call (a
 * schema's `z.literal('shell')`) is no tool's `type`, and a file with neither import is left, as
 * another library's configs (`{ type: Column.Text, editor }`) are written so.
 */
function unreadTypeDoor(cx: FileContext, node: ts.ObjectLiteralExpression, typeExpr: ts.Expression, props: Map<string, ts.Expression | null>): void {
  // in a module naming neither, only what another module hands to an agent's `tools` (file/agent-tool-exports.ts)
  if (!usesAgents(cx) && !handedToAgent(cx, node)) return;
  const e = unreadableType(typeExpr);
  if (e === undefined) return;
  const door = Object.keys(LOCAL_BODIES).find((d) => {
    const body = props.get(LOCAL_BODIES[d]!);
    return body !== undefined && !(body && isPrimitive(body));
  });
  if (door !== undefined) localDoor(cx, node, door as LiteralDoor['door'], props, e.getText(cx.sf));
}

/** A `type` written as a name, a member or an element (what check cannot read where constStringOf gives nothing); a call or a literal is none. */
export function unreadableType(typeExpr: ts.Expression): ts.Expression | undefined {
  const e = skipWrappers(typeExpr);
  return typescript.isIdentifier(e) || typescript.isPropertyAccessExpression(e) || typescript.isElementAccessExpression(e) ? e : undefined;
}

/** The properties without which an object is none of these doors (the runner reads MCP in `providerData`). */
const BODY_KEYS = [...Object.values(LOCAL_BODIES), 'providerData'];

/** The properties written in an object literal, by name: the value (a shorthand's name; null for a method or accessor). */
function written(node: ts.ObjectLiteralExpression): Map<string, ts.Expression | null> {
  const out = new Map<string, ts.Expression | null>();
  for (const p of node.properties) {
    const key = typescript.isSpreadAssignment(p) ? undefined : propertyName(p.name);
    if (key === undefined) continue;
    out.set(key, typescript.isPropertyAssignment(p) ? p.initializer : typescript.isShorthandPropertyAssignment(p) ? p.name : null);
  }
  return out;
}

/** A literal (a string, a number, `true`, `null`): no shell, editor or computer, so another library's config. */
function isPrimitive(node: ts.Expression): boolean {
  const e = skipWrappers(node);
  const k = typescript.SyntaxKind;
  return typescript.isLiteralExpression(e) || e.kind === k.TrueKeyword || e.kind === k.FalseKeyword || e.kind === k.NullKeyword;
}

/**
 * `{ type: 'shell', shell, ... }` (`apply_patch` with an `editor`, `computer` with a `computer`). A
 * `{ type: 'shell', command }` of another library (a task runner's step) has no body and is not one;
 * nor is a shell whose `environment` is not local (it runs at OpenAI, not here).
 */
function localDoor(
  cx: FileContext,
  node: ts.ObjectLiteralExpression,
  door: LiteralDoor['door'],
  props: Map<string, ts.Expression | null>,
  typeText?: string,
): void {
  const body = props.get(LOCAL_BODIES[door]!);
  if (body === undefined || (body && isPrimitive(body))) return;
  const env = props.get('environment');
  let envObject = env ? skipWrappers(env) : undefined;
  if (envObject && typescript.isIdentifier(envObject)) envObject = constObjectLiteral(cx, envObject.text) ?? envObject;
  // the runner runs a shell call here unless `environment.type` is other than 'local' (agents-core
  // runner/modelOutputs): a spread after `type` may make it local again, so only a last literal counts
  if (envObject && typescript.isObjectLiteralExpression(envObject) && !spreadAfter(envObject, 'type', cx.sf)) {
    const envType = written(envObject).get('type');
    const value = envType ? constStringOf(cx, envType) : undefined;
    if (value !== undefined && value !== 'local') return;
  }
  const d = push(cx, node, door, props);
  if (typeText !== undefined) d.typeText = typeText;
}

/**
 * `{ type: 'hosted_tool', name: 'hosted_mcp', providerData: { type: 'mcp', require_approval, ... } }`
 * (what `hostedMcpTool` returns). Another hosted tool (web search: `providerData.type` is not
 * 'mcp') is not one; a `providerData` check cannot read is taken for MCP when the name says so.
 */
function hostedMcp(cx: FileContext, node: ts.ObjectLiteralExpression, props: Map<string, ts.Expression | null>): void {
  const data = props.get('providerData');
  let e = data ? skipWrappers(data) : undefined;
  if (e && typescript.isIdentifier(e)) e = constObjectLiteral(cx, e.text) ?? e;
  const name = props.get('name');
  if (!e || !typescript.isObjectLiteralExpression(e)) {
    if (name && constStringOf(cx, name) === 'hosted_mcp') push(cx, node, 'hosted_mcp', props);
    return;
  }
  const dataProps = written(e);
  const dataType = dataProps.get('type');
  if (!dataType || constStringOf(cx, dataType) !== 'mcp') return;
  const d = push(cx, node, 'hosted_mcp', props);
  d.providerData = optionsOf(e, cx.sf);
  const label = dataProps.get('server_label');
  const labelText = label ? skipWrappers(label) : undefined;
  if (labelText && isStringLike(labelText)) d.serverLabel = labelText.text;
  const after = spreadAfter(e, 'require_approval', cx.sf);
  if (after) d.spreadAfterRequireApproval = after;
}

function push(cx: FileContext, node: ts.ObjectLiteralExpression, door: LiteralDoor['door'], props: Map<string, ts.Expression | null>): LiteralDoor {
  const d: LiteralDoor = { kind: 'literal-door', span: spanOf(node, cx.sf), door };
  const name = props.get('name');
  const value = name ? constStringOf(cx, name) : undefined;
  if (value !== undefined) d.name = value;
  cx.scan.literalDoors!.push(d);
  return d;
}
