import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { isStringLike, propertyName, skipWrappers } from '../syntax.js';
import type { Binding, PathStep } from './bindings.js';
import type { ReachContext } from './convert.js';

/**
 * The strings an expression can be, when the file shows them all (issue 40, item 5: the server
 * label of `hostedMcpTool(config)` inside the app's own `function makeMcp(label) { … }`): a
 * literal, a constant, a conditional of both, a parameter whose every call in the file passes
 * strings (in place or as a property of an object literal). Undefined when some value is not known
 * (an exported helper, a value handed in from elsewhere).
 */
export function stringValuesOf(expr: ts.Expression, rc: ReachContext, path: PathStep[] = [], depth = 0): string[] | undefined {
  if (depth > 12) return undefined;
  const e = skipWrappers(expr);
  // `{ serverLabel: label }` read at `serverLabel`: its property, read along the rest of the path
  if (path.length > 0) {
    if (!typescript.isObjectLiteralExpression(e)) return viaName(e, rc, path, depth);
    const prop = e.properties.find((p) => propertyName(p.name) === path[0]);
    if (!prop || e.properties.some(typescript.isSpreadAssignment)) return undefined;
    const value = typescript.isPropertyAssignment(prop) ? prop.initializer : typescript.isShorthandPropertyAssignment(prop) ? prop.name : undefined;
    return value ? stringValuesOf(value, rc, path.slice(1), depth + 1) : undefined;
  }
  if (isStringLike(e)) return [e.text];
  if (typescript.isConditionalExpression(e)) return both(stringValuesOf(e.whenTrue, rc, [], depth + 1), stringValuesOf(e.whenFalse, rc, [], depth + 1));
  if (typescript.isPropertyAccessExpression(e)) return stringValuesOf(e.expression, rc, [e.name.text], depth + 1);
  return viaName(e, rc, path, depth);
}

function both(a: string[] | undefined, b: string[] | undefined): string[] | undefined {
  return a && b ? [...new Set([...a, ...b])] : undefined;
}

/** A name: a constant's value, or what the callers of the function it is a parameter of pass. */
function viaName(e: ts.Expression, rc: ReachContext, path: PathStep[], depth: number): string[] | undefined {
  if (!typescript.isIdentifier(e)) return undefined;
  const b = rc.bindings().lookup(e.text, e.end - 1);
  if (!b || b.opaque || b.added.length > 0) return undefined;
  const d = b.declared;
  if (d.kind === 'var') {
    if (!d.init || b.assigned.length > 0) return undefined;
    return stringValuesOf(d.init, rc, [...d.path, ...path], depth + 1);
  }
  if (d.kind === 'param' && !d.rest) return callersPass(b, d, path, rc, depth);
  return undefined;
}

function callersPass(b: Binding, d: Extract<Binding['declared'], { kind: 'param' }>, path: PathStep[], rc: ReachContext, depth: number): string[] | undefined {
  if (b.assigned.length > 0) return undefined;
  const holder = rc.bindings().holderOf(d.fn);
  if (!holder || holder.exported) return undefined;
  const fn = rc.bindings().lookup(holder.name, holder.pos);
  const refs = fn ? rc.bindings().refsOf(holder.name, fn) : [];
  if (refs.length === 0) return undefined;
  let out: string[] | undefined = d.init ? stringValuesOf(d.init, rc, [...d.path, ...path], depth + 1) : [];
  for (const ref of refs) {
    if (!ref.call || out === undefined) return undefined;
    const args = ref.call.arguments ?? [];
    if (args.slice(0, d.index + 1).some((a) => typescript.isSpreadElement(a))) return undefined;
    const arg = args[d.index];
    // no argument: the default value (counted once above), or `undefined`, no label
    out = arg ? both(out, stringValuesOf(arg, rc, [...d.path, ...path], depth + 1)) : d.init ? out : undefined;
  }
  return out;
}
