import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { isWrapper, propertyName, skipWrappers } from '../syntax.js';
import { callbackOf } from './returned-values.js';

// Where a function a module declares gives its value (issue 40 item 4, "no false green"): a door an
// unexported function returns is handed to an agent when a call of it, or a `.map`/`.flatMap`/
// `Array.from` it is the callback of, is what an export holds or returns. Those calls are found here.

/** A function declared by name: `function f`, `const f = () => …`, or a member of an object held by a variable (`const kit = { f() {…} }`). */
export interface DeclaredFunction {
  name: string;
  /** The member of the object `name` holds (`kit.f`), when the function is one. */
  member?: string;
  /** The index in the walk's ancestors of the node holding the declaration's statement (its scope). */
  scope: number;
}

/** A call whose value is what a declared function returns, with the ancestors the call is read in (the last is its parent). */
export interface FunctionUse {
  call: ts.CallExpression;
  ancestors: readonly ts.Node[];
}

/** The name `up[fn]` (a function) is declared under, or undefined (a callback written in place, a class's method, a parameter's default). */
export function declaredFunction(up: readonly ts.Node[], fn: number): DeclaredFunction | undefined {
  const f = up[fn]!;
  if (typescript.isFunctionDeclaration(f)) return f.name && fn > 0 ? { name: f.name.text, scope: fn - 1 } : undefined;
  const j = typescript.isMethodDeclaration(f) ? fn : skipUp(up, fn - 1);
  const p = up[j];
  if (p === undefined) return undefined;
  const holder = variableAt(up, j, up[j + 1]);
  if (holder !== undefined && !typescript.isMethodDeclaration(f)) return isFunctionValue(f) ? holder : undefined;
  // a member of an object a variable holds: `helpers = { toShell: (f) => … }` or `{ toShell(f) { … } }`
  const member = typescript.isMethodDeclaration(f)
    ? propertyName(f.name)
    : typescript.isPropertyAssignment(p) && isFunctionValue(f)
      ? propertyName(p.name)
      : undefined;
  const o = skipUp(up, j - 1);
  const object = up[o];
  if (member === undefined || object === undefined || !typescript.isObjectLiteralExpression(object)) return undefined;
  const outer = variableAt(up, skipUp(up, o - 1), up[skipUp(up, o - 1) + 1]);
  return outer && { ...outer, member };
}

const isFunctionValue = (f: ts.Node): boolean => typescript.isArrowFunction(f) || typescript.isFunctionExpression(f);

/** The variable of a variable statement `child` of `up[j]` initializes (`const f = child`), with the statement's scope. */
function variableAt(up: readonly ts.Node[], j: number, child: ts.Node | undefined): DeclaredFunction | undefined {
  const d = up[j];
  if (!d || !typescript.isVariableDeclaration(d) || d.initializer !== child || !typescript.isIdentifier(d.name)) return undefined;
  const statement = up[j - 2];
  return statement && typescript.isVariableStatement(statement) && j >= 3 ? { name: d.name.text, scope: j - 3 } : undefined;
}

/** The index of the first ancestor at or above `i` that is no wrapper. */
function skipUp(up: readonly ts.Node[], i: number): number {
  let j = i;
  while (j >= 0 && isWrapper(up[j]!)) j--;
  return j;
}

/**
 * The calls in the declaration's scope whose value is what `fn` returns: `f(…)` (`kit.f(…)`), and
 * `xs.map(f)`, `xs.flatMap(f)`, `Array.from(xs, f)`. A name shadowed inside the scope is still
 * taken: more places to follow, never fewer findings.
 */
export function usesOf(up: readonly ts.Node[], fn: DeclaredFunction): FunctionUse[] {
  const out: FunctionUse[] = [];
  const names = (e: ts.Expression | undefined): boolean => {
    if (e === undefined) return false;
    if (fn.member === undefined) return typescript.isIdentifier(e) && e.text === fn.name;
    if (!typescript.isPropertyAccessExpression(e) || e.name.text !== fn.member) return false;
    const owner = skipWrappers(e.expression);
    return typescript.isIdentifier(owner) && owner.text === fn.name;
  };
  // one stack, copied only at a use (the scope may be the whole file)
  const path = up.slice(0, fn.scope + 1) as ts.Node[];
  const walk = (node: ts.Node): void => {
    if (typescript.isCallExpression(node) && (names(skipWrappers(node.expression)) || names(callbackOf(node)))) out.push({ call: node, ancestors: [...path] });
    path.push(node);
    typescript.forEachChild(node, walk);
    path.pop();
  };
  typescript.forEachChild(up[fn.scope]!, walk);
  return out;
}
