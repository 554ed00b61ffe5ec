import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { declarationAt, declarationOf, initializerInScope } from '../local-values.js';
import { isStaticMember } from '../method-types.js';
import { isWrapper, propertyName, skipWrappers } from '../syntax.js';
import type { FileContext } from './context.js';
import { memberKey } from './property-writes.js';

// Where a written object comes from, when it is held somewhere other than a variable: a property of
// an object literal (`kit.sh`), a field of the class the write is in (`this.sh`), a parameter of a
// function of the file (`function tamper(t) { t.shell = x }`, `tamper(sh)`). file/door-writes.ts asks
// which door each value is.

/** A value an expression may hold, with the scope chain its names are read in and the position it is read at. */
export interface HeldValue {
  expr: ts.Expression;
  ancestors: readonly ts.Node[];
  at: number;
}

/** How many steps (variables, properties, fields, parameters) a holder is followed through. */
const MAX_DEPTH = 6;
/** How many values one question follows at most: a function called from many places, through functions called from many, stays cheap. */
const MAX_VALUES = 256;

/**
 * The values `expr` may hold where `ancestors` end, each step on the way included (a variable's name
 * too, for an in-place guard of it), following within MAX_DEPTH steps: a variable to its initializer,
 * `o.p` to `p` of the object literal `o` holds, `this.p` to the field (or the constructor's
 * `this.p = v`) of the class (or the object literal) the method is in, and a parameter to the
 * argument each call of its function in the file passes.
 */
export function heldValues(cx: FileContext, value: HeldValue, depth = 0, budget = { left: MAX_VALUES, seen: new Map<ts.Node, number>() }): HeldValue[] {
  let e = skipWrappers(value.expr);
  while (typescript.isAwaitExpression(e)) e = skipWrappers(e.expression);
  const here = { ...value, expr: e };
  // a node already followed from as near (a function passing its parameter to itself, `o = { p: o.p }`)
  // adds nothing: without this, such a loop spent the whole budget before the calls that pass the door
  const seenAt = budget.seen.get(e);
  if (depth > MAX_DEPTH || (seenAt !== undefined && seenAt <= depth) || budget.left-- <= 0) return [];
  budget.seen.set(e, depth);
  const next = (v: HeldValue): HeldValue[] => heldValues(cx, v, depth + 1, budget);
  if (typescript.isIdentifier(e)) {
    const held = initializerInScope(e.text, value.ancestors, cx.hoisted);
    if (held) return [here, ...next({ expr: held.init, ancestors: held.ancestors, at: value.at })];
    return [here, ...argumentsOf(cx, e.text, value.ancestors, budget.left).flatMap(next)];
  }
  const member = typescript.isPropertyAccessExpression(e) || typescript.isElementAccessExpression(e) ? memberKey(e) : undefined;
  if (!member || member.key === '[]') return [here];
  const object = skipWrappers(member.object);
  if (object.kind === typescript.SyntaxKind.ThisKeyword) return [here, ...thisMember(value.ancestors, member.key).flatMap((v) => next({ ...v, at: value.at }))];
  const out: HeldValue[] = [here];
  for (const o of next({ ...value, expr: object })) {
    if (typescript.isObjectLiteralExpression(o.expr)) {
      const p = propertyOf(o.expr, member.key);
      if (p) out.push(...next({ expr: p, ancestors: o.ancestors, at: value.at }));
    }
    // `new Desk().sh`: the field of a class declared at the top of the file
    const cls = typescript.isNewExpression(o.expr) ? topLevelClass(cx.sf, o.expr.expression) : undefined;
    if (cls) for (const expr of classField(cls, member.key)) out.push(...next({ expr, ancestors: [cx.sf, cls], at: value.at }));
  }
  return out;
}

/** The class a top-level declaration of the file names (`new Desk()`), when the name is a plain identifier. */
function topLevelClass(sf: ts.SourceFile, callee: ts.Expression): ts.ClassDeclaration | undefined {
  const e = skipWrappers(callee);
  if (!typescript.isIdentifier(e)) return undefined;
  return sf.statements.find((st): st is ts.ClassDeclaration => typescript.isClassDeclaration(st) && st.name?.text === e.text);
}

/** The value of the last property `key` of an object literal (`{ key: v }`, `{ key }`); undefined after a spread that may override it. */
function propertyOf(o: ts.ObjectLiteralExpression, key: string): ts.Expression | undefined {
  let found: ts.Expression | undefined;
  for (const p of o.properties) {
    if (typescript.isSpreadAssignment(p)) found = undefined;
    else if (propertyName(p.name) === key) {
      found = typescript.isPropertyAssignment(p) ? p.initializer : typescript.isShorthandPropertyAssignment(p) ? p.name : undefined;
    }
  }
  return found;
}

/**
 * `this.key` where `ancestors` end: inside a method (or an arrow in one) of a class, the instance
 * field's initializer or the constructor's `this.key = v`; inside a method of an object literal,
 * that object's property. A plain `function` in between has its own `this`: nothing.
 */
function thisMember(ancestors: readonly ts.Node[], key: string): Array<Omit<HeldValue, 'at'>> {
  for (let i = ancestors.length - 1; i > 0; i--) {
    const n = ancestors[i]!;
    const owner = ancestors[i - 1]!;
    if (typescript.isFunctionDeclaration(n) || typescript.isFunctionExpression(n)) return [];
    if (typescript.isClassLike(owner) && isInstanceMember(n)) return classField(owner, key).map((expr) => ({ expr, ancestors: ancestors.slice(0, i) }));
    if (
      typescript.isObjectLiteralExpression(owner) &&
      (typescript.isMethodDeclaration(n) || typescript.isGetAccessorDeclaration(n) || typescript.isSetAccessorDeclaration(n))
    ) {
      const p = propertyOf(owner, key);
      return p ? [{ expr: p, ancestors: ancestors.slice(0, i - 1) }] : [];
    }
  }
  return [];
}

const isInstanceMember = (m: ts.Node): boolean => typescript.isClassElement(m) && !typescript.isClassStaticBlockDeclaration(m) && !isStaticMember(m);

/** The values an instance field `key` of a class is given: its initializer, and `this.key = v` among the constructor's statements. */
function classField(cls: ts.ClassLikeDeclaration, key: string): ts.Expression[] {
  const out: ts.Expression[] = [];
  for (const m of cls.members) {
    if (isStaticMember(m)) continue;
    if (typescript.isPropertyDeclaration(m) && m.initializer && propertyName(m.name) === key) out.push(m.initializer);
    if (!typescript.isConstructorDeclaration(m)) continue;
    for (const st of m.body?.statements ?? []) {
      const e = typescript.isExpressionStatement(st) ? skipWrappers(st.expression) : undefined;
      if (!e || !typescript.isBinaryExpression(e) || e.operatorToken.kind !== typescript.SyntaxKind.EqualsToken) continue;
      const left = skipWrappers(e.left);
      const written = typescript.isPropertyAccessExpression(left) || typescript.isElementAccessExpression(left) ? memberKey(left) : undefined;
      if (written?.key === key && skipWrappers(written.object).kind === typescript.SyntaxKind.ThisKeyword) out.push(e.right);
    }
  }
  return out;
}

/**
 * `name` a plain parameter of a function declared in the file (`function f(t)`, `const f = (t) =>`):
 * the argument at its place in each direct call of that function (`f(sh)`), read where the call is;
 * at most `limit` of them (what the question's budget can follow: a function called 10,000 times
 * is not resolved 10,000 times a question).
 */
function argumentsOf(cx: FileContext, name: string, ancestors: readonly ts.Node[], limit: number): HeldValue[] {
  const found = declarationAt(name, ancestors, cx.hoisted);
  const param = found?.declaration;
  if (!found || !param || !typescript.isParameter(param) || param.dotDotDotToken || !typescript.isIdentifier(param.name)) return [];
  const fn = ancestors[found.depth]!;
  if (!typescript.isFunctionLike(fn)) return [];
  const index = fn.parameters.indexOf(param);
  const binding = functionBinding(fn, ancestors.slice(0, found.depth));
  if (!binding) return [];
  const out: HeldValue[] = [];
  for (const { call, scope } of callsOf(cx, binding.name)) {
    if (out.length >= limit) break;
    const declared = declarationOf(binding.name, scope, cx.hoisted);
    // the same function: its own declaration where the call is (a top-level function declaration is no variable: none)
    if (declared !== binding.declaration && !(declared === undefined && binding.topLevel)) continue;
    const arg = call.arguments[index];
    if (arg && !typescript.isSpreadElement(arg)) out.push({ expr: arg, ancestors: scope, at: call.pos });
  }
  return out;
}

/** The name a function is called by and the declaration that name resolves to: `function f`, or `const f = (...) =>`. */
function functionBinding(fn: ts.SignatureDeclaration, outer: readonly ts.Node[]): { name: string; declaration: ts.Node; topLevel: boolean } | undefined {
  if (typescript.isFunctionDeclaration(fn)) {
    if (!fn.name) return undefined;
    const parent = outer[outer.length - 1];
    return { name: fn.name.text, declaration: fn, topLevel: parent !== undefined && typescript.isSourceFile(parent) };
  }
  if (!typescript.isArrowFunction(fn) && !typescript.isFunctionExpression(fn)) return undefined;
  let i = outer.length - 1;
  while (i >= 0 && isWrapper(outer[i]!)) i--;
  const decl = outer[i];
  // the function is the initializer itself: only wrappers lie between the declaration and it
  if (!decl || !typescript.isVariableDeclaration(decl) || !typescript.isIdentifier(decl.name)) return undefined;
  return { name: decl.name.text, declaration: decl, topLevel: false };
}

/** The file's direct calls of `name` (`name(...)`), each with its ancestors; walked once per name and kept. */
function callsOf(cx: FileContext, name: string): Array<{ call: ts.CallExpression; scope: readonly ts.Node[] }> {
  if (!cx.cache.callsByName) cx.cache.callsByName = new Map();
  const byName = cx.cache.callsByName;
  const known = byName.get(name);
  if (known) return known;
  const out: Array<{ call: ts.CallExpression; scope: readonly ts.Node[] }> = [];
  const stack: ts.Node[] = [];
  const visit = (n: ts.Node): void => {
    if (typescript.isCallExpression(n)) {
      const callee = skipWrappers(n.expression);
      if (typescript.isIdentifier(callee) && callee.text === name) out.push({ call: n, scope: stack.slice() });
    }
    stack.push(n);
    typescript.forEachChild(n, visit);
    stack.pop();
  };
  visit(cx.sf);
  byName.set(name, out);
  return out;
}
