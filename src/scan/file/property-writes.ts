import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { isStringLike, propertyName, skipWrappers } from '../syntax.js';

// One reader of "a property of this object is written", in each form the language has for it. It
// knows no door: file/door-writes.ts names the properties that matter for each kind of door.

/** How a property is written. */
export type WriteForm = 'assignment' | 'object-assign' | 'spread' | 'reflection' | 'contents';

export interface PropertyWrite {
  /** Where the write is reported: the assignment, the call, the object literal. */
  node: ts.Node;
  /** The object whose property is written. */
  target: ts.Expression;
  key: string;
  form: WriteForm;
  /** A write inside the property's value (`x.p.q = v`, `x.p[0] = v`, `x.p.splice(0)`): the key written there (`[]` for an index), or the method called. */
  inner?: string;
  /** The value written, when there is one (`x.p = v`, `{ p: v }`, Reflect.set's, a descriptor's `value`). */
  value?: ts.Expression;
  /** The reflective call that writes it (`Object.defineProperty`), for `reflection`. */
  via?: string;
  /** A property of a copy written before the spread it is read against: the spread's own value wins. */
  beforeSpread?: true;
}

/** A write waiting for the walk's end, with the ancestors where it is read (an in-place `protectMcpServer(x)` may come later in the file). */
export interface PendingWrite {
  write: PropertyWrite;
  ancestors: readonly ts.Node[];
}

/** The key a member names: `x.p` and `x['p']` give `p`; another element access gives `[]` (an index or a key check cannot read). */
export function memberKey(e: ts.Expression): { object: ts.Expression; key: string } | undefined {
  if (typescript.isPropertyAccessExpression(e)) return { object: e.expression, key: e.name.text };
  if (!typescript.isElementAccessExpression(e)) return undefined;
  const arg = skipWrappers(e.argumentExpression);
  return { object: e.expression, key: isStringLike(arg) ? arg.text : '[]' };
}

/** With a write of `x.p.q` (its target `x.p` a member), the write inside `p` of `x` it also is. */
function withContents(w: PropertyWrite): PropertyWrite[] {
  const outer = memberKey(skipWrappers(w.target));
  if (!outer || outer.key === '[]') return [w];
  const inner: PropertyWrite = { node: w.node, target: outer.object, key: outer.key, form: 'contents', inner: w.key };
  if (w.value) inner.value = w.value;
  return [w, inner];
}

/** `x.p = v`, `x['p'] ??= v`; `x.p[0] = v` and `x.p.length = 0` change `p` of `x` in place. */
export function assignmentWrites(node: ts.BinaryExpression): PropertyWrite[] {
  const member = memberKey(skipWrappers(node.left));
  if (!member) return [];
  return withContents({ node, target: member.object, key: member.key, form: 'assignment', value: node.right });
}

/** The array methods that change an array in place (`x.p.splice(0)` writes inside `p` of `x`). */
const IN_PLACE = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'fill', 'copyWithin', 'sort', 'reverse']);

/**
 * `Object.assign(x, { p })`, `Object.defineProperty(x, 'p', d)`, `Reflect.defineProperty(x, 'p', d)`,
 * `Object.defineProperties(x, { p: d })`, `Reflect.set(x, 'p', v)`, and an array method changing a
 * property in place (`x.p.splice(0)`).
 */
export function callWrites(node: ts.CallExpression): PropertyWrite[] {
  const callee = skipWrappers(node.expression);
  if (!typescript.isPropertyAccessExpression(callee)) return [];
  const method = callee.name.text;
  const owner = skipWrappers(callee.expression);
  const global = typescript.isIdentifier(owner) ? owner.text : undefined;
  const [target, second, third] = node.arguments;
  const out: PropertyWrite[] = [];
  const via = `${global}.${method}`;
  if (global === 'Object' && method === 'assign' && target) {
    for (const source of node.arguments.slice(1)) {
      for (const [key, value] of literalProperties(source)) out.push(...withContents({ node, target, key, form: 'object-assign', ...withValue(value) }));
    }
  } else if ((global === 'Object' || global === 'Reflect') && method === 'defineProperty' && target && second && isStringLike(skipWrappers(second))) {
    const key = (skipWrappers(second) as ts.StringLiteral).text;
    out.push(...withContents({ node, target, key, form: 'reflection', via, ...withValue(third && descriptorValue(third)) }));
  } else if (global === 'Object' && method === 'defineProperties' && target && second) {
    for (const [key, d] of literalProperties(second))
      out.push(...withContents({ node, target, key, form: 'reflection', via, ...withValue(d && descriptorValue(d)) }));
  } else if (global === 'Reflect' && method === 'set' && target && second && isStringLike(skipWrappers(second))) {
    const key = (skipWrappers(second) as ts.StringLiteral).text;
    out.push(...withContents({ node, target, key, form: 'reflection', via, ...withValue(third) }));
  } else if (IN_PLACE.has(method)) {
    const member = memberKey(owner);
    if (member && member.key !== '[]') out.push({ node, target: member.object, key: member.key, form: 'contents', inner: method });
  }
  return out;
}

const withValue = (value: ts.Expression | undefined): { value?: ts.Expression } => (value ? { value } : {});

/** The keys of an object literal with their values (a shorthand's name, a method itself); nothing for another expression. */
function literalProperties(expr: ts.Expression): Array<[string, ts.Expression | undefined]> {
  const o = skipWrappers(expr);
  if (!typescript.isObjectLiteralExpression(o)) return [];
  const out: Array<[string, ts.Expression | undefined]> = [];
  for (const p of o.properties) {
    const key = typescript.isSpreadAssignment(p) ? undefined : propertyName(p.name);
    if (key === undefined) continue;
    out.push([key, typescript.isPropertyAssignment(p) ? p.initializer : typescript.isShorthandPropertyAssignment(p) ? p.name : undefined]);
  }
  return out;
}

/** A property descriptor's `value` (or its `get`), when it is an object literal holding one. */
function descriptorValue(d: ts.Expression): ts.Expression | undefined {
  return literalProperties(d).find(([key]) => key === 'value' || key === 'get')?.[1];
}

/**
 * `{ ...x, p: v }`: a copy of `x` with `p` written, one write for each spread before `p`. A property
 * before every spread (`{ p: v, ...x }`) is written against the first spread, marked `beforeSpread`.
 */
export function spreadWrites(node: ts.ObjectLiteralExpression): PropertyWrite[] {
  const spreads: ts.Expression[] = [];
  const first = node.properties.find((p): p is ts.SpreadAssignment => typescript.isSpreadAssignment(p))?.expression;
  if (!first) return [];
  const out: PropertyWrite[] = [];
  for (const p of node.properties) {
    if (typescript.isSpreadAssignment(p)) {
      spreads.push(p.expression);
      continue;
    }
    const key = propertyName(p.name);
    if (key === undefined) continue;
    const value = typescript.isPropertyAssignment(p) ? p.initializer : typescript.isShorthandPropertyAssignment(p) ? p.name : undefined;
    if (spreads.length === 0) out.push({ node, target: first, key, form: 'spread', beforeSpread: true, ...withValue(value) });
    for (const target of spreads) out.push({ node, target, key, form: 'spread', ...withValue(value) });
  }
  return out;
}
