import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { declarationAt, declarationOf, initializerInScope, valuesInScope } from '../local-values.js';
import { isStaticMember } from '../method-types.js';
import { isWrapper, propertyName, skipWrappers } from '../syntax.js';
import { doorOf, resolve, returnsOf, type FileContext } from './context.js';
import { importOf } from './door-exports.js';
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

/**
 * What one question may still follow, and whether some value could not be followed to what made it
 * (`opaque`): a parameter of a method or a callback, an element of an array, a function's result,
 * a field of a base class. A write on such an object may be a door's (file/door-writes.ts).
 */
interface HeldBudget {
  left: number;
  opaque?: true;
  /** Each node followed, at the least depth it was followed from. */
  seen: Map<ts.Node, number>;
}

/** How many steps (variables, properties, fields, parameters) a holder is followed through. */
const MAX_DEPTH = 6;
/** How many values one question follows at most: a function called from many places, through functions called from many, stays cheap. */
const MAX_HELD = 256;

/** What a holder may hold, and whether some value could not be followed to what made it (a write on it may be a door's). */
export interface Held {
  values: HeldValue[];
  opaque: boolean;
}

/**
 * The values `expr` may hold where `ancestors` end, each step on the way included (a variable's name
 * too, for an in-place guard of it), following within MAX_DEPTH steps: a variable to its initializer,
 * `o.p` to `p` of the object literal `o` holds, `this.p` to the field (or the constructor's
 * `this.p = v`) of the class (or the object literal) the method is in, and a parameter to the
 * argument each call of its function in the file passes.
 */
export function heldValues(cx: FileContext, value: HeldValue): Held {
  const budget: HeldBudget = { left: MAX_HELD, seen: new Map() };
  const values = follow(cx, value, 0, budget);
  return { values, opaque: budget.opaque === true };
}

/** One step of `heldValues`, spending the question's budget. */
function follow(cx: FileContext, value: HeldValue, depth: number, budget: HeldBudget): HeldValue[] {
  let e = skipWrappers(value.expr);
  while (typescript.isAwaitExpression(e)) e = skipWrappers(e.expression);
  const here = { ...value, expr: e };
  // a node already followed from as near (a function passing its parameter to itself, `o = { p: o.p }`)
  // adds nothing: without this, such a loop spent the whole budget before the calls that pass the door
  const seenAt = budget.seen.get(e);
  if (seenAt !== undefined && seenAt <= depth) return [];
  if (depth > MAX_DEPTH || budget.left-- <= 0) {
    budget.opaque = true;
    return [];
  }
  budget.seen.set(e, depth);
  const next = (v: HeldValue): HeldValue[] => follow(cx, v, depth + 1, budget);
  const opaque = (): HeldValue[] => {
    budget.opaque = true;
    return [here];
  };
  if (typescript.isIdentifier(e)) {
    // a `let` or `var`: its initializer and every value the file assigns it, each read where it is
    // (a function's own const given to it); one check cannot follow makes the holder opaque
    const held = valuesInScope(e.text, value.ancestors, cx.hoisted);
    if (held !== undefined && held.length > 0) {
      const init = initializerInScope(e.text, value.ancestors, cx.hoisted)?.init;
      return [here, ...held.flatMap((v) => next({ expr: v.init, ancestors: v.init === init ? v.ancestors : pathTo(cx.sf, v.init), at: value.at }))];
    }
    const args = argumentsOf(cx, e.text, value.ancestors, budget);
    if (args === undefined) return opaqueName(cx, e.text, value.ancestors) ? opaque() : [here];
    return [here, ...args.flatMap(next)];
  }
  if (e.kind === typescript.SyntaxKind.ThisKeyword) return inConstruction(value.ancestors) ? [here] : opaque();
  if (typescript.isCallExpression(e)) {
    const returned = returnedValues(cx, e, value.at);
    return returned === undefined ? opaque() : [here, ...returned.flatMap(next)];
  }
  if (typescript.isConditionalExpression(e)) return [here, ...next({ ...value, expr: e.whenTrue }), ...next({ ...value, expr: e.whenFalse })];
  if (typescript.isBinaryExpression(e) && logical(e.operatorToken.kind))
    return [here, ...next({ ...value, expr: e.left }), ...next({ ...value, expr: e.right })];
  const member = typescript.isPropertyAccessExpression(e) || typescript.isElementAccessExpression(e) ? memberKey(e) : undefined;
  if (!member) return isMadeHere(e) ? [here] : opaque();
  // `servers[0]`, `m[key]`: an element check cannot tell
  if (member.key === '[]') return opaque();
  const object = skipWrappers(member.object);
  if (object.kind === typescript.SyntaxKind.ThisKeyword) {
    const fields = thisMember(value.ancestors, member.key);
    // a field of a base class, one a method or a `get` accessor gives: not followed
    if (fields.length === 0) return opaque();
    return [here, ...fields.flatMap((v) => next({ ...v, at: value.at }))];
  }
  const out: HeldValue[] = [here];
  for (const o of next({ ...value, expr: object })) {
    if (typescript.isObjectLiteralExpression(o.expr)) {
      const p = propertyOf(o.expr, member.key);
      if (p) out.push(...next({ expr: p, ancestors: o.ancestors, at: value.at }));
    }
    // `new Desk().sh`: the field of a class declared at the top of the file
    const cls = typescript.isNewExpression(o.expr) ? topLevelClass(cx.sf, o.expr.expression) : undefined;
    if (cls) for (const expr of classField(cls, member.key, false)) out.push(...next({ expr, ancestors: [cx.sf, cls], at: value.at }));
  }
  // nothing gives the property a value check can see: a getter, a spread, a class of another module
  if (out.length === 1) budget.opaque = true;
  return out;
}

const LOGICAL = new Set<ts.SyntaxKind>();
/** `a ?? b`, `a || b`, `a && b`: either side may be the value. */
function logical(kind: ts.SyntaxKind): boolean {
  if (LOGICAL.size === 0) {
    const k = typescript.SyntaxKind;
    for (const op of [k.QuestionQuestionToken, k.BarBarToken, k.AmpersandAmpersandToken]) LOGICAL.add(op);
  }
  return LOGICAL.has(kind);
}

/** An expression that makes its own value here (an object, an array, `new`, a literal, a function): no door unless a door's maker made it. */
function isMadeHere(e: ts.Expression): boolean {
  const k = typescript.SyntaxKind;
  switch (e.kind) {
    case k.ObjectLiteralExpression:
    case k.ArrayLiteralExpression:
    case k.NewExpression:
    case k.StringLiteral:
    case k.NumericLiteral:
    case k.BigIntLiteral:
    case k.NoSubstitutionTemplateLiteral:
    case k.TemplateExpression:
    case k.TrueKeyword:
    case k.FalseKeyword:
    case k.NullKeyword:
    case k.ArrowFunction:
    case k.FunctionExpression:
    case k.ClassExpression:
    case k.RegularExpressionLiteral:
    case k.VoidExpression:
    case k.TypeOfExpression:
      return true;
    default:
      return false;
  }
}

/**
 * Whether a name with no value followed is one check cannot see: a parameter not followed, a name of a
 * pattern, a loop or catch variable, a variable declared with no value, a global. An import is the
 * repo scan's (door-exports.ts); a function, class or enum declared so is no door.
 */
function opaqueName(cx: FileContext, name: string, ancestors: readonly ts.Node[]): boolean {
  const found = declarationAt(name, ancestors, cx.hoisted);
  if (!found) return name !== 'undefined' && importOf(cx.sf, name) === undefined;
  const d = found.declaration;
  // a loop's variable is declared by the loop (scope.ts)
  return (
    typescript.isParameter(d) ||
    typescript.isBindingElement(d) ||
    typescript.isVariableDeclaration(d) ||
    typescript.isForOfStatement(d) ||
    typescript.isForInStatement(d) ||
    typescript.isForStatement(d)
  );
}

/** Whether `this` where `ancestors` end is an object being built: a constructor's or a field initializer's (before anything can protect it). */
function inConstruction(ancestors: readonly ts.Node[]): boolean {
  for (let i = ancestors.length - 1; i > 0; i--) {
    const n = ancestors[i]!;
    if (typescript.isArrowFunction(n)) continue;
    if (typescript.isConstructorDeclaration(n)) return true;
    if (typescript.isPropertyDeclaration(n) && typescript.isClassLike(ancestors[i - 1]!)) return !isStaticMember(n);
    if (typescript.isFunctionLike(n) || typescript.isClassLike(n)) return false;
  }
  return false;
}

/**
 * What a call returns when check can see it: a function of the file (`make()`), each of its own
 * `return`s read where it is; a call the scan resolves (the SDK's, the generated module's) is a value
 * made here. Undefined for any other call: a method (`m.get('gh')`), an import, a callback.
 */
function returnedValues(cx: FileContext, call: ts.CallExpression, at: number): HeldValue[] | undefined {
  if (doorOf(cx, call.expression) !== undefined || resolve(cx, call.expression) !== undefined) return [];
  const callee = skipWrappers(call.expression);
  if (!typescript.isIdentifier(callee)) return undefined;
  const returns = returnsOf(cx, callee.text);
  if (returns === undefined || importOf(cx.sf, callee.text) !== undefined) return undefined;
  return returns.map((expr) => ({ expr, ancestors: pathTo(cx.sf, expr), at }));
}

/** The nodes from the file down to `node`'s parent (the file is parsed without parent links). */
function pathTo(sf: ts.SourceFile, node: ts.Node): ts.Node[] {
  const out: ts.Node[] = [];
  let n: ts.Node | undefined = sf;
  while (n && n !== node) {
    out.push(n);
    let inner: ts.Node | undefined;
    typescript.forEachChild(n, (c) => {
      if (inner === undefined && c.pos <= node.pos && c.end >= node.end) inner = c;
    });
    n = inner;
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
    if (typescript.isClassLike(owner) && isInstanceMember(n)) return classField(owner, key, false).map((expr) => ({ expr, ancestors: ancestors.slice(0, i) }));
    // a static member's `this` is the class: its static fields
    if (typescript.isClassLike(owner) && typescript.isClassElement(n) && isStaticMember(n))
      return classField(owner, key, true).map((expr) => ({ expr, ancestors: ancestors.slice(0, i) }));
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

/** The values a field `key` of a class is given: its initializer, and for an instance field `this.key = v` among the constructor's statements. */
function classField(cls: ts.ClassLikeDeclaration, key: string, statics: boolean): ts.Expression[] {
  const out: ts.Expression[] = [];
  for (const m of cls.members) {
    if (isStaticMember(m) !== statics) continue;
    if (typescript.isPropertyDeclaration(m) && m.initializer && propertyName(m.name) === key) out.push(m.initializer);
    if (statics || !typescript.isConstructorDeclaration(m)) continue;
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
 * no more than the question's budget has left (a function called 10,000 times is not resolved
 * 10,000 times a question): past it, the rest is opaque. Undefined when check cannot see every
 * call: not such a parameter (a method's, a callback's, a pattern, a rest), a function exported,
 * named other than as a callee (`f.call(x, sh)`, `list.forEach(f)`), or never called in the file.
 */
function argumentsOf(cx: FileContext, name: string, ancestors: readonly ts.Node[], budget: HeldBudget): HeldValue[] | undefined {
  const found = declarationAt(name, ancestors, cx.hoisted);
  const param = found?.declaration;
  if (!found || !param || !typescript.isParameter(param) || param.dotDotDotToken || !typescript.isIdentifier(param.name)) return undefined;
  const fn = ancestors[found.depth]!;
  if (!typescript.isFunctionLike(fn)) return undefined;
  const index = fn.parameters.indexOf(param);
  const binding = functionBinding(fn, ancestors.slice(0, found.depth));
  if (!binding || binding.exported || namedOtherwise(cx, binding.name)) return undefined;
  const out: HeldValue[] = [];
  let calls = 0;
  for (const { call, scope } of callsOf(cx, binding.name)) {
    if (out.length >= budget.left) {
      budget.opaque = true;
      break;
    }
    const declared = declarationOf(binding.name, scope, cx.hoisted);
    // the same function: its own declaration where the call is (a top-level function declaration is no variable: none)
    if (declared !== binding.declaration && !(declared === undefined && binding.topLevel)) continue;
    calls++;
    const arg = call.arguments[index];
    if (arg && !typescript.isSpreadElement(arg)) out.push({ expr: arg, ancestors: scope, at: call.pos });
  }
  return calls > 0 ? out : undefined;
}

/**
 * Whether the file names `name` other than where it is declared, called (`name(...)`) or as a
 * property's key: such a use may hand the function to code that calls it with anything. Any binding
 * of the name counts (more uses, never fewer).
 */
function namedOtherwise(cx: FileContext, name: string): boolean {
  if (!cx.cache.namedOtherwise) cx.cache.namedOtherwise = new Map();
  const known = cx.cache.namedOtherwise.get(name);
  if (known !== undefined) return known;
  let other = false;
  const visit = (n: ts.Node, parent: ts.Node | undefined): void => {
    if (other) return;
    if (typescript.isIdentifier(n) && n.text === name && parent && !isDeclaredOrCalled(n, parent)) other = true;
    typescript.forEachChild(n, (c) => visit(c, n));
  };
  visit(cx.sf, undefined);
  cx.cache.namedOtherwise.set(name, other);
  return other;
}

function isDeclaredOrCalled(id: ts.Identifier, parent: ts.Node): boolean {
  if (typescript.isCallExpression(parent)) return parent.expression === id;
  if (typescript.isPropertyAccessExpression(parent) || typescript.isPropertyAssignment(parent) || typescript.isPropertyDeclaration(parent))
    return parent.name === id;
  if (typescript.isMethodDeclaration(parent) || typescript.isGetAccessorDeclaration(parent) || typescript.isSetAccessorDeclaration(parent))
    return parent.name === id;
  if (
    typescript.isVariableDeclaration(parent) ||
    typescript.isFunctionDeclaration(parent) ||
    typescript.isParameter(parent) ||
    typescript.isBindingElement(parent)
  )
    return parent.name === id;
  if (typescript.isClassDeclaration(parent) || typescript.isTypeReferenceNode(parent)) return true;
  return false;
}

interface FunctionBinding {
  name: string;
  declaration: ts.Node;
  topLevel: boolean;
  /** `export function f`, `export const f = ...`: another module may call it with anything. */
  exported: boolean;
}

const isExported = (n: ts.Node): boolean =>
  typescript.canHaveModifiers(n) && (typescript.getModifiers(n)?.some((m) => m.kind === typescript.SyntaxKind.ExportKeyword) ?? false);

/** The name a function is called by and the declaration that name resolves to: `function f`, or `const f = (...) =>`. */
function functionBinding(fn: ts.SignatureDeclaration, outer: readonly ts.Node[]): FunctionBinding | undefined {
  if (typescript.isFunctionDeclaration(fn)) {
    if (!fn.name) return undefined;
    const parent = outer[outer.length - 1];
    return { name: fn.name.text, declaration: fn, topLevel: parent !== undefined && typescript.isSourceFile(parent), exported: isExported(fn) };
  }
  if (!typescript.isArrowFunction(fn) && !typescript.isFunctionExpression(fn)) return undefined;
  let i = outer.length - 1;
  while (i >= 0 && isWrapper(outer[i]!)) i--;
  const decl = outer[i];
  // the function is the initializer itself: only wrappers lie between the declaration and it
  if (!decl || !typescript.isVariableDeclaration(decl) || !typescript.isIdentifier(decl.name)) return undefined;
  // the variable statement two nodes up (declaration, list, statement) carries `export`
  const statement = outer[i - 2];
  return { name: decl.name.text, declaration: decl, topLevel: false, exported: statement !== undefined && isExported(statement) };
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
