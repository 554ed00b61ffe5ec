import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { isStringLike, propertyName, skipWrappers } from '../syntax.js';
import { ownReturns, type FileContext } from '../file/context.js';
import type { ReachValue } from '../types.js';
import type { Binding, BindingIndex, PathStep } from './bindings.js';
import { all, member, NONE, unknown } from './values.js';

/**
 * An expression as a `ReachValue` (issue 40, item 3): what doors it may reach, with imports left
 * symbolic for the repo to follow. Anything the scan cannot read is `unknown`, with why: a run of
 * such an agent is taken to reach a protected tool (fail safe).
 */
export interface ReachContext {
  cx: FileContext;
  /** Calls and constructions (src/scan/reach/leaves.ts, handed in so the two modules do not import each other). */
  callValue: (e: ts.CallExpression | ts.NewExpression, rc: ReachContext) => ReachValue;
  bindings: () => BindingIndex;
  /** Declarations and functions being converted (a cycle adds nothing new). */
  seen: Set<object>;
  depth: number;
}

const bare = (e: ts.Expression): ts.Expression => {
  let x = skipWrappers(e);
  while (typescript.isAwaitExpression(x)) x = skipWrappers(x.expression);
  return x;
};

export function reachValueOf(expr: ts.Expression, rc: ReachContext): ReachValue {
  if (rc.depth > 40) return unknown('the value is built too deep to follow');
  rc.depth++;
  try {
    return convert(bare(expr), rc);
  } finally {
    rc.depth--;
  }
}

function convert(e: ts.Expression, rc: ReachContext): ReachValue {
  if (isInert(e)) return NONE;
  if (typescript.isIdentifier(e)) return identifierValue(e, rc);
  if (typescript.isPropertyAccessExpression(e)) return propertyValue(e, e.name.text, rc);
  if (typescript.isElementAccessExpression(e)) return propertyValue(e, isStringLike(e.argumentExpression) ? e.argumentExpression.text : undefined, rc);
  if (typescript.isConditionalExpression(e)) return all([reachValueOf(e.whenTrue, rc), reachValueOf(e.whenFalse, rc)]);
  if (typescript.isBinaryExpression(e)) return binaryValue(e, rc);
  if (typescript.isArrayLiteralExpression(e))
    return all(e.elements.map((el) => (typescript.isSpreadElement(el) ? reachValueOf(el.expression, rc) : reachValueOf(el, rc))));
  if (typescript.isObjectLiteralExpression(e)) return objectValue(e, rc);
  if (typescript.isArrowFunction(e) || typescript.isFunctionExpression(e)) return functionValue(e, rc);
  if (typescript.isCallExpression(e) || typescript.isNewExpression(e)) return rc.callValue(e, rc);
  if (e.kind === typescript.SyntaxKind.ThisKeyword) return unknown('`this` is not followed');
  return unknown(`\`${e.getText(rc.cx.sf).slice(0, 40)}\` is not followed`);
}

/** Literals, templates, arithmetic: values that are no door. */
function isInert(e: ts.Expression): boolean {
  switch (e.kind) {
    case typescript.SyntaxKind.StringLiteral:
    case typescript.SyntaxKind.NoSubstitutionTemplateLiteral:
    case typescript.SyntaxKind.TemplateExpression:
    case typescript.SyntaxKind.NumericLiteral:
    case typescript.SyntaxKind.BigIntLiteral:
    case typescript.SyntaxKind.TrueKeyword:
    case typescript.SyntaxKind.FalseKeyword:
    case typescript.SyntaxKind.NullKeyword:
    case typescript.SyntaxKind.RegularExpressionLiteral:
    case typescript.SyntaxKind.TypeOfExpression:
    case typescript.SyntaxKind.VoidExpression:
    case typescript.SyntaxKind.PrefixUnaryExpression:
    case typescript.SyntaxKind.PostfixUnaryExpression:
      return true;
    default:
      return typescript.isIdentifier(e) && e.text === 'undefined';
  }
}

function binaryValue(e: ts.BinaryExpression, rc: ReachContext): ReachValue {
  const op = e.operatorToken.kind;
  if (op === typescript.SyntaxKind.BarBarToken || op === typescript.SyntaxKind.QuestionQuestionToken || op === typescript.SyntaxKind.AmpersandAmpersandToken)
    return all([reachValueOf(e.left, rc), reachValueOf(e.right, rc)]);
  if (op === typescript.SyntaxKind.EqualsToken) return reachValueOf(e.right, rc);
  // comparisons, arithmetic, `in`, `instanceof`: a boolean, a number or a string
  return NONE;
}

function objectValue(e: ts.ObjectLiteralExpression, rc: ReachContext): ReachValue {
  const props: Record<string, ReachValue> = {};
  const extra: ReachValue[] = [];
  for (const p of e.properties) {
    if (typescript.isSpreadAssignment(p)) {
      extra.push(reachValueOf(p.expression, rc));
      continue;
    }
    const key = propertyName(p.name);
    let value: ReachValue;
    if (typescript.isPropertyAssignment(p)) value = reachValueOf(p.initializer, rc);
    else if (typescript.isShorthandPropertyAssignment(p)) value = identifierValue(p.name, rc);
    else if (typescript.isMethodDeclaration(p)) value = functionValue(p, rc);
    else value = unknown('a getter or setter is not followed');
    if (key === undefined) extra.push(value);
    else props[key] = value;
  }
  return all([{ k: 'obj', props }, ...extra]);
}

/** A function as a value: what its calls return (its own `return`s; parameters are unknown). */
export function functionValue(fn: ts.FunctionLikeDeclaration, rc: ReachContext): ReachValue {
  if (rc.seen.has(fn)) return { k: 'fn', returns: NONE };
  rc.seen.add(fn);
  try {
    const body = fn.body;
    if (!body) return { k: 'fn', returns: unknown('a function without a body') };
    const returns = typescript.isBlock(body) ? ownReturns(body) : [body as ts.Expression];
    return { k: 'fn', returns: all(returns.map((r) => reachValueOf(r, rc))) };
  } finally {
    rc.seen.delete(fn);
  }
}

/** `a.b`, `a[k]`: a member of an import's module reads that export; else a member of `a`'s value. */
function propertyValue(e: ts.PropertyAccessExpression | ts.ElementAccessExpression, name: PathStep, rc: ReachContext): ReachValue {
  const target = bare(e.expression);
  if (typescript.isIdentifier(target)) {
    const b = rc.bindings().lookup(target.text, target.end - 1);
    const d = b?.declared;
    if (d?.kind === 'import' && d.name === '*' && d.path.length === 0 && name !== undefined && b!.assigned.length === 0)
      return { k: 'import', from: rc.cx.fileAbs, specifier: d.specifier, name };
  }
  return member(reachValueOf(e.expression, rc), name);
}

export function identifierValue(id: ts.Identifier, rc: ReachContext): ReachValue {
  const b = rc.bindings().lookup(id.text, id.end - 1);
  if (!b) return unknown(`\`${id.text}\` is not declared in this file`);
  return bindingValue(id.text, b, rc);
}

/** What a binding may hold: its declaration's value, and whatever the file assigns or adds to it. */
export function bindingValue(name: string, b: Binding, rc: ReachContext): ReachValue {
  const d = b.declared;
  if (d.kind === 'opaque') return unknown(`\`${name}\` is ${d.what}`);
  if (d.kind === 'param') return paramValue(name, d, b, rc);
  if (d.kind === 'function') return functionValue(d.node, rc);
  if (d.kind === 'import') return path({ k: 'import', from: rc.cx.fileAbs, specifier: d.specifier, name: d.name }, d.path);
  const key = d.kind === 'var' ? (d.init ?? d.path) : d.iterable;
  if (rc.seen.has(key)) return NONE;
  rc.seen.add(key);
  try {
    const own = d.kind === 'var' ? (d.init ? path(reachValueOf(d.init, rc), d.path) : NONE) : path(member(reachValueOf(d.iterable, rc), undefined), d.path);
    const added = b.added.map(({ value, key }) =>
      key === undefined ? reachValueOf(value, rc) : ({ k: 'obj', props: { [key]: reachValueOf(value, rc) } } satisfies ReachValue),
    );
    const held = [own, ...b.assigned.map((v) => reachValueOf(v, rc)), ...added];
    if (b.opaque) held.push(unknown(`\`${name}\` is written by ${b.opaque}`));
    const init = d.kind === 'var' && d.init ? bare(d.init) : undefined;
    if (b.escapes && init && (typescript.isArrayLiteralExpression(init) || typescript.isObjectLiteralExpression(init)))
      held.push(unknown(`\`${name}\` is handed to a function that may change it`));
    return all(held);
  } finally {
    rc.seen.delete(key);
  }
}

function path(v: ReachValue, steps: PathStep[]): ReachValue {
  let out = v;
  for (const s of steps) out = member(out, s);
  return out;
}

/**
 * A parameter: what the function's callers pass in its place, when every use of the function is a
 * call of this file (`runWithRetry(agent, prompt)`), and for an exported function the calls of the
 * files that import it (followed by the repo). A function handed on (a callback, a method, a value
 * stored) has callers the scan cannot list: unknown.
 */
function paramValue(name: string, d: Extract<Binding['declared'], { kind: 'param' }>, b: Binding, rc: ReachContext): ReachValue {
  if (d.rest) return unknown(`\`${name}\` is a rest parameter`);
  if (rc.seen.has(b)) return NONE;
  rc.seen.add(b);
  try {
    const own = [...b.assigned.map((v) => reachValueOf(v, rc)), ...(d.init ? [reachValueOf(d.init, rc)] : [])];
    if (b.opaque) own.push(unknown(`\`${name}\` is written by ${b.opaque}`));
    return all([...own, path(callersPass(d.fn, d.index, name, rc), d.path)]);
  } finally {
    rc.seen.delete(b);
  }
}

function callersPass(fn: ts.SignatureDeclaration, index: number, param: string, rc: ReachContext): ReachValue {
  const holder = rc.bindings().holderOf(fn);
  if (!holder) return unknown(`\`${param}\` is a parameter of a function the scan cannot list the calls of`);
  const fnBinding = rc.bindings().lookup(holder.name, holder.pos);
  if (!fnBinding) return unknown(`\`${param}\` is a parameter of \`${holder.name}\``);
  const passed: ReachValue[] = [];
  for (const ref of rc.bindings().refsOf(holder.name, fnBinding)) {
    if (ref.exported) {
      passed.push({ k: 'callers', from: rc.cx.fileAbs, fn: holder.name, index });
      continue;
    }
    if (!ref.call) return unknown(`\`${param}\` is a parameter of \`${holder.name}\`, which is used other than called`);
    const args = ref.call.arguments ?? [];
    if (args.slice(0, index + 1).some((a) => typescript.isSpreadElement(a))) return unknown(`\`${holder.name}\` is called with a spread`);
    const arg = args[index];
    if (arg) passed.push(reachValueOf(arg, rc));
  }
  // `export function f`, `export const f = …`: called from other files too
  if (holder.exported) passed.push({ k: 'callers', from: rc.cx.fileAbs, fn: holder.name, index });
  return all(passed);
}
