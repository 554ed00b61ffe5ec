import type { ts } from 'ts-morph';
import { declarationAt, unwrapValue } from './local-values.js';
import type { HoistedVars } from './scope.js';
import { isAssigning } from './syntax.js';
import { TRUTHY, testedValue } from './tag-values.js';
import { typescript } from './typescript.js';

/*
 * What the tag tests around a use say of a tagged union's object (issue 40 item 4: `type Task = {
 * kind: 'agent'; state: RunState } | { kind: 'review'; state: ReviewState }` answered as
 * `t.state.approve(i)`). A branch narrows the object's alternatives only where its test certainly
 * holds there, as TypeScript narrows: `===`/`!==` of `t.kind` to a string, `!`, a conjunction `&&`
 * (each test holds), a disjunction `||` only when every side tests the same tag, a switch's cases
 * and `default`. A test of the object the reader cannot read this way (a `||` with another
 * condition, a type guard call), or an object assigned again in its scope, leaves the SDK's kind
 * possible: the reading is then unsure, and the answer is taken for the SDK's when any alternative
 * left is (fail closed). No test of the object at all: no narrowing (the readers ask every
 * alternative to be the SDK's).
 */

/**
 * A tag's values a branch leaves: `t.kind` is one of `values` there, or none of them when
 * `excluded` (values as tag-values.ts writes them); `truthy` for a truthiness test (`if (t.sdk)`).
 */
export interface TagTest {
  key: string;
  values: readonly string[];
  excluded?: boolean;
  truthy?: boolean;
  /** Of `Extract`/`Exclude` (assignable-tags.ts): an alternative whose tag is not written as a value may or may not be left. */
  assignable?: boolean;
}

/** What holds at a use: every constraint certainly; `unsure` when a test of the object was not read as certain, or the object is assigned again. */
export interface Narrowing {
  constraints: readonly TagTest[];
  unsure?: boolean;
}

/**
 * The tag tests of the branches around the use of `obj` (innermost out, all holding at once), or
 * undefined when no branch tests `obj`. A function whose own parameter is the name stops the walk
 * (its `obj` is another value); a callback inside a branch keeps the narrowing.
 */
export function narrowing(obj: ts.Expression, ancestors: readonly ts.Node[], sf: ts.SourceFile, hoisted?: HoistedVars): Narrowing | undefined {
  const name = obj.getText(sf);
  const facts: Narrowing[] = [];
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const node = ancestors[i]!;
    if (typescript.isFunctionLike(node) && declaresParameter(node, name)) break;
    const branch = branchAt(node, ancestors[i + 1], obj);
    const fact = branch ? readTest(branch.test, branch.holds, name, sf) : caseFact(node, ancestors, i, name, sf);
    if (fact) facts.push(fact);
  }
  if (facts.length === 0) return undefined;
  // the tests hold only while the object is the one they tested
  if (assignedAgain(name, ancestors, hoisted, sf)) return { constraints: [], unsure: true };
  return { constraints: facts.flatMap((f) => f.constraints), ...(facts.some((f) => f.unsure) ? { unsure: true } : {}) };
}

/** The test a branch around the use makes, and whether it is true there: an if's branch, a side of `?:`, the right of `&&`/`||`. */
function branchAt(node: ts.Node, child: ts.Node | undefined, obj: ts.Expression): { test: ts.Expression; holds: boolean } | undefined {
  // `child` is the node on the way to the use (undefined when the use is `node`'s own child: never an if's branch)
  if (typescript.isIfStatement(node))
    return child !== undefined && child !== node.expression ? { test: node.expression, holds: child === node.thenStatement } : undefined;
  // the use may be the expression's own child (the call is not among the ancestors): by position
  if (typescript.isConditionalExpression(node)) return within(obj, node.condition) ? undefined : { test: node.condition, holds: within(obj, node.whenTrue) };
  if (typescript.isBinaryExpression(node) && within(obj, node.right)) {
    const op = node.operatorToken.kind;
    if (op === typescript.SyntaxKind.AmpersandAmpersandToken) return { test: node.left, holds: true };
    if (op === typescript.SyntaxKind.BarBarToken) return { test: node.left, holds: false };
  }
  return undefined;
}

const within = (inner: ts.Node, outer: ts.Node): boolean => inner.pos >= outer.pos && inner.end <= outer.end;

/** What `e` being `holds` says of `name`'s tags, or undefined when `e` does not mention `name`. */
function readTest(e: ts.Expression, holds: boolean, name: string, sf: ts.SourceFile): Narrowing | undefined {
  const x = unwrapValue(e);
  if (typescript.isPrefixUnaryExpression(x) && x.operator === typescript.SyntaxKind.ExclamationToken) return readTest(x.operand, !holds, name, sf);
  const test = tagTest(x, name, sf);
  if (test) return { constraints: [{ key: test.key, values: [test.value], ...(holds === test.equal ? {} : { excluded: true }) }] };
  // `if (t.sdk)`, `!t.sdk`: the tag is truthy (or not) there
  const truthy = tagOf(x, name, sf);
  if (truthy !== undefined) return { constraints: [{ key: truthy, values: [TRUTHY], truthy: true, ...(holds ? {} : { excluded: true }) }] };
  if (typescript.isBinaryExpression(x)) {
    const op = x.operatorToken.kind;
    const k = typescript.SyntaxKind;
    if (op === k.AmpersandAmpersandToken || op === k.BarBarToken) {
      const a = readTest(x.left, holds, name, sf);
      const b = readTest(x.right, holds, name, sf);
      // `A && B` true, `A || B` false: both sides hold
      const both = (op === k.AmpersandAmpersandToken) === holds;
      return both ? conjunction(a, b) : disjunction(a, b);
    }
  }
  return mentions(x, name, sf) ? { constraints: [], unsure: true } : undefined;
}

function conjunction(a: Narrowing | undefined, b: Narrowing | undefined): Narrowing | undefined {
  if (!a || !b) return a ?? b;
  return { constraints: [...a.constraints, ...b.constraints], ...(a.unsure || b.unsure ? { unsure: true } : {}) };
}

/** Either side holds: certain only when each side tests the one same tag (`t.kind === 'a' || t.kind === 'b'`). */
function disjunction(a: Narrowing | undefined, b: Narrowing | undefined): Narrowing | undefined {
  if (!a && !b) return undefined;
  // a side that tests nothing of the object leaves it any kind
  const x = a?.constraints.length === 1 ? a.constraints[0]! : undefined;
  const y = b?.constraints.length === 1 ? b.constraints[0]! : undefined;
  if (!x || !y || x.key !== y.key) return { constraints: [], unsure: true };
  return { constraints: [eitherOf(x, y)], ...(a!.unsure || b!.unsure ? { unsure: true } : {}) };
}

/** The tag's values either test leaves, as one test. */
function eitherOf(x: TagTest, y: TagTest): TagTest {
  const [inX, inY] = [!x.excluded, !y.excluded];
  const truthy = x.truthy || y.truthy ? { truthy: true } : {};
  if (inX && inY) return { key: x.key, values: [...new Set([...x.values, ...y.values])], ...truthy };
  if (!inX && !inY) return { key: x.key, values: x.values.filter((v) => y.values.includes(v)), excluded: true, ...truthy };
  // one in a set, the other out of one: out of what the second excludes and the first does not name
  const [kept, out] = inX ? [x, y] : [y, x];
  return { key: x.key, values: out.values.filter((v) => !kept.values.includes(v)), excluded: true, ...truthy };
}

/** Whether `e` reads `name` (the object or a member of it) anywhere. */
function mentions(e: ts.Node, name: string, sf: ts.SourceFile): boolean {
  if ((typescript.isIdentifier(e) || typescript.isPropertyAccessExpression(e) || e.kind === typescript.SyntaxKind.ThisKeyword) && e.getText(sf) === name)
    return true;
  return typescript.forEachChild(e, (c) => mentions(c, name, sf) || undefined) ?? false;
}

/** A switch's case or `default` around the use: its tag test of `name`, unsure when the switch reads `name` otherwise or a case's value is not read. */
function caseFact(node: ts.Node, ancestors: readonly ts.Node[], i: number, name: string, sf: ts.SourceFile): Narrowing | undefined {
  if (!typescript.isCaseClause(node) && !typescript.isDefaultClause(node)) return undefined;
  const sw = ancestors[i - 2];
  if (!sw || !typescript.isSwitchStatement(sw)) return undefined;
  const key = tagOf(sw.expression, name, sf);
  if (key === undefined) return mentions(sw.expression, name, sf) ? { constraints: [], unsure: true } : undefined;
  const block = ancestors[i - 1] as ts.CaseBlock;
  const values = typescript.isCaseClause(node) ? caseValues(node, block) : otherCaseValues(node, block);
  if (!values) return { constraints: [], unsure: true };
  return { constraints: [{ key, values, ...(typescript.isDefaultClause(node) ? { excluded: true } : {}) }] };
}

/** `obj.key === 'v'` (either side, `==` too; `!==`/`!=` as not equal; `v` a literal or an enum member), or undefined. */
function tagTest(x: ts.Expression, name: string, sf: ts.SourceFile): { key: string; value: string; equal: boolean } | undefined {
  if (!typescript.isBinaryExpression(x)) return undefined;
  const op = x.operatorToken.kind;
  const k = typescript.SyntaxKind;
  const equal = op === k.EqualsEqualsEqualsToken || op === k.EqualsEqualsToken;
  if (!equal && op !== k.ExclamationEqualsEqualsToken && op !== k.ExclamationEqualsToken) return undefined;
  for (const [a, b] of [
    [x.left, x.right],
    [x.right, x.left],
  ] as const) {
    const key = tagOf(a, name, sf);
    const value = testedValue(unwrapValue(b));
    if (key !== undefined && value !== undefined) return { key, value, equal };
  }
  return undefined;
}

/** `key` of `obj.key` where `obj` is written `name`, or undefined. */
function tagOf(e: ts.Expression, name: string, sf: ts.SourceFile): string | undefined {
  const x = unwrapValue(e);
  return typescript.isPropertyAccessExpression(x) && x.expression.getText(sf) === name ? x.name.text : undefined;
}

/** The cases that lead into `clause` (it and the empty cases just before it), or undefined when `default` or a value tag-values.ts does not read is among them. */
function caseValues(clause: ts.CaseClause, block: ts.CaseBlock): string[] | undefined {
  const at = block.clauses.indexOf(clause);
  const values: string[] = [];
  for (let j = at; j >= 0; j--) {
    const c = block.clauses[j]!;
    if (j < at && c.statements.length > 0) break;
    const value = typescript.isCaseClause(c) ? testedValue(unwrapValue(c.expression)) : undefined;
    if (value === undefined) return undefined;
    values.push(value);
  }
  return values;
}

/** The cases of a switch that do not fall into its `default` (the tag is none of them there), or undefined when a case's value is not read. */
function otherCaseValues(clause: ts.DefaultClause, block: ts.CaseBlock): string[] | undefined {
  const at = block.clauses.indexOf(clause);
  // the empty cases just before `default` fall into it: their values are not excluded
  let first = at;
  while (first > 0 && block.clauses[first - 1]!.statements.length === 0) first--;
  const values: string[] = [];
  for (const [j, c] of block.clauses.entries()) {
    if (j >= first && j <= at) continue;
    const value = typescript.isCaseClause(c) ? testedValue(unwrapValue(c.expression)) : undefined;
    if (value === undefined) return undefined;
    values.push(value);
  }
  return values;
}

function declaresParameter(fn: ts.SignatureDeclaration, name: string): boolean {
  return fn.parameters.some((p) => typescript.isIdentifier(p.name) && p.name.text === name);
}

/**
 * Whether the object a test narrowed may be another value at the use: its name (or the name it is
 * a member of) is assigned anywhere in the scope that declares it (the function, for `this.x`; the
 * file, for a global or an import). A `const` never is; a parameter or `let` assigned before or
 * after the test alike counts (the reader follows no flow).
 */
function assignedAgain(name: string, ancestors: readonly ts.Node[], hoisted: HoistedVars | undefined, sf: ts.SourceFile): boolean {
  const root = name.split(/[.[(!]/)[0]!;
  const scope = root === 'this' ? innermostFunction(ancestors) : ancestors[declarationAt(root, ancestors, hoisted)?.depth ?? 0];
  return scope !== undefined && assignsIn(scope, name, root, sf);
}

function innermostFunction(ancestors: readonly ts.Node[]): ts.Node | undefined {
  for (let i = ancestors.length - 1; i >= 0; i--) if (typescript.isFunctionLike(ancestors[i]!)) return ancestors[i];
  return ancestors[0];
}

/** Whether `scope` assigns `name` or what it is a member of (`t = u`, `[t] = list`, `for (t of list)`, `this.entry = next`). */
function assignsIn(scope: ts.Node, name: string, root: string, sf: ts.SourceFile): boolean {
  const target = (e: ts.Node): boolean => {
    // a destructuring writes each name it holds
    if (typescript.isObjectLiteralExpression(e) || typescript.isArrayLiteralExpression(e)) return mentions(e, root, sf);
    const text = unwrapValue(e as ts.Expression).getText(sf);
    return text === name || name.startsWith(`${text}.`);
  };
  const visit = (n: ts.Node): boolean => {
    if (typescript.isBinaryExpression(n) && isAssigning(n.operatorToken.kind) && target(n.left)) return true;
    if ((typescript.isForOfStatement(n) || typescript.isForInStatement(n)) && !typescript.isVariableDeclarationList(n.initializer) && target(n.initializer))
      return true;
    return typescript.forEachChild(n, (c) => visit(c) || undefined) ?? false;
  };
  return visit(scope);
}
