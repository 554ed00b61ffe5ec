import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { skipWrappers } from '../syntax.js';

// What a function gives back to the agent that calls it for its `tools` (issue 40 item 4): its
// `return`s (not those of a function inside it), an arrow's expression body, and the callbacks of
// `.map`/`.flatMap`/`Array.from` whose results it returns (each element a callback returns is handed).

/** A function's own returned value, with the scope chain its names are read in (`ancestors` ends at the function). */
export interface Returned {
  value: ts.Expression;
  ancestors: readonly ts.Node[];
}

/** The values `fn` returns: an arrow's expression body, or each `return x` of its body outside inner functions. */
export function returnsOf(fn: ts.SignatureDeclaration, ancestors: readonly ts.Node[]): Returned[] {
  const own = [...ancestors, fn];
  const body = (fn as { body?: ts.Node }).body;
  if (body === undefined) return [];
  if (!typescript.isBlock(body)) return [{ value: body as ts.Expression, ancestors: own }];
  const out: Returned[] = [];
  const walk = (node: ts.Node, path: ts.Node[]): void => {
    if (typescript.isFunctionLike(node) || typescript.isClassLike(node)) return;
    if (typescript.isReturnStatement(node) && node.expression) out.push({ value: node.expression, ancestors: path });
    const inner = [...path, node];
    typescript.forEachChild(node, (c) => walk(c, inner));
  };
  walk(body, own);
  return out;
}

/** Whether `fn` returns the variable `name` (`const list = [...]; return list;`). */
export function returnsName(fn: ts.SignatureDeclaration, name: string): boolean {
  return returnsOf(fn, []).some((r) => {
    const v = skipWrappers(r.value);
    return typescript.isIdentifier(v) && v.text === name;
  });
}

/** The callback of `xs.map(cb)`, `xs.flatMap(cb)` or `Array.from(xs, cb)` written in place (an arrow or a function expression), or undefined. */
export function mapCallback(call: ts.CallExpression): ts.ArrowFunction | ts.FunctionExpression | undefined {
  const cb = callbackOf(call);
  return cb && (typescript.isArrowFunction(cb) || typescript.isFunctionExpression(cb)) ? cb : undefined;
}

/**
 * The callback argument of `xs.map(cb)`, `xs.flatMap(cb)` or `Array.from(xs, cb)`, as written or
 * named (`xs.map(toTool)`): each element it returns is in the list the call returns.
 */
export function callbackOf(call: ts.CallExpression): ts.Expression | undefined {
  const callee = skipWrappers(call.expression);
  if (!typescript.isPropertyAccessExpression(callee)) return undefined;
  const owner = skipWrappers(callee.expression);
  const from = callee.name.text === 'from' && typescript.isIdentifier(owner) && owner.text === 'Array';
  if (!from && !MAPS.has(callee.name.text)) return undefined;
  const cb = call.arguments[from ? 1 : 0];
  return cb === undefined ? undefined : skipWrappers(cb);
}

const MAPS = new Set(['map', 'flatMap']);

/** What a call's list holds of its receiver and arguments: the lists it copies, and the objects whose values it lists. */
export interface Copied {
  /** `xs` of `Array.from(xs)`, `xs.slice()`, `xs.filter(p)`; `xs` and `ys` of `xs.concat(ys)` (an element there too). */
  lists: ts.Expression[];
  /** `kit` of `Object.values(kit)`. */
  objects: ts.Expression[];
}

/**
 * What the list a call returns holds, when it is a copy (issue 40 item 4): `Array.from(xs)` with no
 * callback (with one it is a map: `callbackOf`), `xs.slice(…)`, `xs.filter(…)`, `xs.concat(…)`, and
 * the like, or `Object.values(kit)`; undefined for any other call.
 */
export function copiedBy(call: ts.CallExpression): Copied | undefined {
  const callee = skipWrappers(call.expression);
  if (!typescript.isPropertyAccessExpression(callee)) return undefined;
  const owner = skipWrappers(callee.expression);
  const method = callee.name.text;
  const first = call.arguments[0];
  if (typescript.isIdentifier(owner) && (owner.text === 'Array' || owner.text === 'Object')) {
    if (first === undefined || typescript.isSpreadElement(first)) return undefined;
    if (owner.text === 'Array' && method === 'from' && call.arguments.length === 1) return { lists: [first], objects: [] };
    return owner.text === 'Object' && method === 'values' ? { lists: [], objects: [first] } : undefined;
  }
  if (method === 'concat') return { lists: [owner, ...call.arguments.map((a) => (typescript.isSpreadElement(a) ? a.expression : a))], objects: [] };
  return COPIES.has(method) ? { lists: [owner], objects: [] } : undefined;
}

/** The list methods whose result holds only the receiver's elements. */
const COPIES = new Set(['slice', 'filter', 'flat', 'reverse', 'sort', 'toReversed', 'toSorted', 'toSpliced']);
