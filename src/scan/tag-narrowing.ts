import type { ts } from 'ts-morph';
import { declarationAt, unwrapValue } from './local-values.js';
import type { HoistedVars } from './scope.js';
import { isAssigning } from './syntax.js';
import { aliased, comparedValue, disjunction, mentions, type Narrowing, readTest, type Subject, tagOf } from './tag-tests.js';
import { typescript } from './typescript.js';

/*
 * What the tag tests around a use say of a tagged union's object (issue 40 item 4: `type Task = {
 * kind: 'agent'; state: RunState } | { kind: 'review'; state: ReviewState }` answered as
 * `t.state.approve(i)`). A branch narrows the object's alternatives only where its test certainly
 * holds there, as TypeScript narrows (the test itself is read in tag-tests.ts): an if's branch, a
 * side of `?:`, `&&`/`||`, a switch's cases and `default` (`switch (true)` too), and an `if` before
 * the use that leaves the block on one side (`if (t.kind === 'review') return;`). A test of the
 * object the reader cannot read this way (a `||` with another condition, a type guard call), or an
 * object that may be assigned another value between the test and the use, leaves the SDK's kind
 * possible: the reading is then unsure, and the answer is taken for the SDK's when any alternative
 * left is (fail closed). No test of the object at all: no narrowing (a reader of answers
 * takes the SDK's when any alternative is, session 26). `in` tests are read in tag-tests.ts and
 * kept-alternatives.ts.
 */

export type { Narrowing, TagTest } from './tag-tests.js';

/** A test's reading at the use, with where it is: the index of its node among the ancestors, and where the test ends (the object's value must not change after). */
interface Fact {
  reading: Narrowing;
  index: number;
  from: number;
}

/**
 * The tag tests around the use of `obj` (innermost out, all holding at once): the branches it is
 * in, and the `if`s before it in each block around it that leave the block when true (`if
 * (t.kind === 'review') return;`) or false; undefined when none tests `obj`. A function whose own
 * parameter is the name stops the walk (its `obj` is another value); a callback inside a branch
 * keeps the narrowing.
 */
export function narrowing(obj: ts.Expression, ancestors: readonly ts.Node[], sf: ts.SourceFile, hoisted?: HoistedVars): Narrowing | undefined {
  const name = obj.getText(sf);
  const facts: Fact[] = [];
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const node = ancestors[i]!;
    if (typescript.isFunctionLike(node) && declaresParameter(node, name)) break;
    // a test's names are read in the scopes around it
    const s: Subject = { name, sf, ancestors: ancestors.slice(0, i + 1), hoisted };
    const branch = branchAt(node, ancestors[i + 1], obj);
    const reading = branch ? readTest(branch.test, branch.holds, s) : caseFact(node, ancestors, i, s);
    if (reading) facts.push({ reading, index: i, from: branch ? branch.test.end : ancestors[i - 1]!.pos });
    for (const exit of earlyExits(node, obj, s)) facts.push({ ...exit, index: i });
  }
  if (facts.length === 0) return undefined;
  // the tests hold only while the object is the one they tested
  if (changedAfter(facts, obj, name, ancestors, hoisted, sf)) return { constraints: [], unsure: true };
  const readings = facts.map((f) => f.reading);
  return { constraints: readings.flatMap((f) => f.constraints), ...(readings.some((f) => f.unsure) ? { unsure: true } : {}) };
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

/** A switch's case or `default` around the use: its tag test of the subject, unsure when the switch reads it otherwise or a case's value is not read. */
function caseFact(node: ts.Node, ancestors: readonly ts.Node[], i: number, s: Subject): Narrowing | undefined {
  if (!typescript.isCaseClause(node) && !typescript.isDefaultClause(node)) return undefined;
  const sw = ancestors[i - 2];
  if (!sw || !typescript.isSwitchStatement(sw)) return undefined;
  const block = ancestors[i - 1] as ts.CaseBlock;
  // `switch (true) { case t.kind === 'agent': … }` (TypeScript 5.3): each case is a test
  if (sw.expression.kind === typescript.SyntaxKind.TrueKeyword) return trueCaseFact(node, block, s);
  const tag = tagOf(sw.expression, s);
  if (tag === undefined) return mentions(sw.expression, s.name, s.sf) ? { constraints: [], unsure: true } : undefined;
  const values = typescript.isCaseClause(node) ? caseValues(node, block, s) : otherCaseValues(node, block, s);
  if (!values) return { constraints: [], unsure: true };
  return aliased({ constraints: [{ key: tag.key, values, ...(typescript.isDefaultClause(node) ? { excluded: true } : {}) }] }, tag);
}

/**
 * A case of `switch (true)`: one of the tests that lead into it (it and the empty cases just
 * before it) is true; in `default`, none of the others is. (A case matches only a value `=== true`:
 * a truthiness test read as holding or not leaves a tag that is no boolean unsure, written-members.ts.)
 */
function trueCaseFact(clause: ts.CaseClause | ts.DefaultClause, block: ts.CaseBlock, s: Subject): Narrowing | undefined {
  const at = block.clauses.indexOf(clause);
  let first = at;
  while (first > 0 && block.clauses[first - 1]!.statements.length === 0) first--;
  const tests = (from: number, to: number) => block.clauses.slice(from, to).flatMap((c) => (typescript.isCaseClause(c) ? [c.expression] : []));
  if (typescript.isCaseClause(clause)) {
    // a `default` among the cases falling in: any value reaches the body
    if (block.clauses.slice(first, at).some((c) => !typescript.isCaseClause(c))) return mentionsAny(tests(first, at + 1), s);
    return tests(first, at + 1).reduce<Narrowing | undefined>(
      (acc, t, j) => (j === 0 ? readTest(t, true, s) : disjunction(acc, readTest(t, true, s))),
      undefined,
    );
  }
  const others = [...tests(0, first), ...tests(at + 1, block.clauses.length)];
  const read = others.map((t) => readTest(t, false, s)).filter((r): r is Narrowing => r !== undefined);
  if (read.length === 0) return undefined;
  return {
    constraints: read.flatMap((r) => r.constraints),
    ...(read.some((r) => r.unsure) ? { unsure: true } : {}),
    ...(read.some((r) => r.aliased) ? { aliased: true } : {}),
  };
}

const mentionsAny = (tests: readonly ts.Expression[], s: Subject): Narrowing | undefined =>
  tests.some((t) => mentions(t, s.name, s.sf)) ? { constraints: [], unsure: true } : undefined;

/** The cases that lead into `clause` (it and the empty cases just before it), or undefined when `default` or a value tag-values.ts does not read is among them. */
function caseValues(clause: ts.CaseClause, block: ts.CaseBlock, s: Subject): string[] | undefined {
  const at = block.clauses.indexOf(clause);
  const values: string[] = [];
  for (let j = at; j >= 0; j--) {
    const c = block.clauses[j]!;
    if (j < at && c.statements.length > 0) break;
    const value = typescript.isCaseClause(c) ? comparedValue(c.expression, s) : undefined;
    if (value === undefined) return undefined;
    values.push(value);
  }
  return values;
}

/** The cases of a switch that do not fall into its `default` (the tag is none of them there), or undefined when a case's value is not read. */
function otherCaseValues(clause: ts.DefaultClause, block: ts.CaseBlock, s: Subject): string[] | undefined {
  const at = block.clauses.indexOf(clause);
  // the empty cases just before `default` fall into it: their values are not excluded
  let first = at;
  while (first > 0 && block.clauses[first - 1]!.statements.length === 0) first--;
  const values: string[] = [];
  for (const [j, c] of block.clauses.entries()) {
    if (j >= first && j <= at) continue;
    const value = typescript.isCaseClause(c) ? comparedValue(c.expression, s) : undefined;
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
 * a member of) is assigned in the scope that declares it (the function, for `this.x`; the file, for
 * a global or an import) where the value may flow to the use after the test: between the test and
 * the use, anywhere in a loop around the use inside the test's branch, anywhere at all when a
 * function lies between (a callback runs later) or the assignment is in a function (it may run at
 * any call). A drained queue (`while (t) { if (t.kind === 'review') …; t = q.shift(); }`) keeps its
 * test. A test read through a `const` holds only while the object is never assigned (as TypeScript).
 */
function changedAfter(
  facts: readonly Fact[],
  obj: ts.Expression,
  name: string,
  ancestors: readonly ts.Node[],
  hoisted: HoistedVars | undefined,
  sf: ts.SourceFile,
): boolean {
  const root = name.split(/[.[(!]/)[0]!;
  const scope = root === 'this' ? innermostFunction(ancestors) : ancestors[declarationAt(root, ancestors, hoisted)?.depth ?? 0];
  const writes = scope === undefined ? [] : assignmentsIn(scope, accessPath(obj, sf), root, sf);
  if (writes.length === 0) return false;
  if (writes.some((w) => w.inFunction) || facts.some((f) => f.reading.aliased)) return true;
  return facts.some((f) => {
    if (writes.some((w) => w.pos >= f.from && w.pos < obj.pos)) return true;
    const around = ancestors.slice(f.index + 1);
    return around.some((n) => typescript.isFunctionLike(n)) || around.some((n) => isLoop(n) && writes.some((w) => w.pos >= n.pos && w.pos < n.end));
  });
}

function isLoop(n: ts.Node): boolean {
  return (
    typescript.isForStatement(n) ||
    typescript.isForOfStatement(n) ||
    typescript.isForInStatement(n) ||
    typescript.isWhileStatement(n) ||
    typescript.isDoStatement(n)
  );
}

function innermostFunction(ancestors: readonly ts.Node[]): ts.Node | undefined {
  for (let i = ancestors.length - 1; i >= 0; i--) if (typescript.isFunctionLike(ancestors[i]!)) return ancestors[i];
  return ancestors[0];
}

/**
 * A value's access path in one form (`p.task` of `p.task`, `p['task']`, `p?.task`, `(p).task`; `p.*`
 * of `p[k]`, whose member is not written), so a write and a read of one member compare equal.
 */
function accessPath(e: ts.Expression, sf: ts.SourceFile): string {
  const x = unwrapValue(e);
  if (typescript.isPropertyAccessExpression(x)) return `${accessPath(x.expression, sf)}.${x.name.text}`;
  if (typescript.isElementAccessExpression(x)) {
    const key = unwrapValue(x.argumentExpression);
    return `${accessPath(x.expression, sf)}.${typescript.isStringLiteralLike(key) || typescript.isNumericLiteral(key) ? key.text : '*'}`;
  }
  return x.getText(sf);
}

/** Where `scope` assigns `name` or what it is a member of (`t = u`, `[t] = list`, `for (t of list)`, `this.entry = next`), and whether inside a function of its own. */
function assignmentsIn(scope: ts.Node, path: string, root: string, sf: ts.SourceFile): { pos: number; inFunction: boolean }[] {
  const target = (e: ts.Node): boolean => {
    // a destructuring writes each name it holds
    if (typescript.isObjectLiteralExpression(e) || typescript.isArrayLiteralExpression(e)) return mentions(e, root, sf);
    const written = accessPath(e as ts.Expression, sf);
    // `p[k] = …` may write any member of `p`
    if (written.endsWith('.*')) return path.startsWith(written.slice(0, -1)) || path === written.slice(0, -2);
    return written === path || path.startsWith(`${written}.`);
  };
  const out: { pos: number; inFunction: boolean }[] = [];
  const visit = (n: ts.Node, inFunction: boolean): void => {
    if (typescript.isBinaryExpression(n) && isAssigning(n.operatorToken.kind) && target(n.left)) out.push({ pos: n.pos, inFunction });
    if ((typescript.isForOfStatement(n) || typescript.isForInStatement(n)) && !typescript.isVariableDeclarationList(n.initializer) && target(n.initializer))
      out.push({ pos: n.pos, inFunction });
    const inner = inFunction || (n !== scope && typescript.isFunctionLike(n));
    typescript.forEachChild(n, (c) => visit(c, inner));
  };
  visit(scope, false);
  return out;
}

/**
 * The `if`s before the use in a block around it that leave the block on one side (`if (t.kind ===
 * 'review') return;`): past them, the other side's test holds. Read from where each `if` ends.
 */
function earlyExits(node: ts.Node, obj: ts.Expression, s: Subject): { reading: Narrowing; from: number }[] {
  const statements =
    typescript.isBlock(node) ||
    typescript.isSourceFile(node) ||
    typescript.isModuleBlock(node) ||
    typescript.isCaseClause(node) ||
    typescript.isDefaultClause(node)
      ? node.statements
      : undefined;
  const out: { reading: Narrowing; from: number }[] = [];
  for (const st of statements ?? []) {
    if (st.end > obj.pos) break;
    if (!typescript.isIfStatement(st)) continue;
    const [then, other] = [exits(st.thenStatement), st.elseStatement !== undefined && exits(st.elseStatement)];
    const reading = then === other ? undefined : readTest(st.expression, other, s);
    if (reading) out.push({ reading, from: st.end });
  }
  return out;
}

/** Whether a statement never completes normally: a `return`, `throw`, `break` or `continue`, a block with one, an `if` both of whose sides exit. */
function exits(st: ts.Statement): boolean {
  if (typescript.isReturnStatement(st) || typescript.isThrowStatement(st) || typescript.isBreakStatement(st) || typescript.isContinueStatement(st)) return true;
  if (typescript.isBlock(st)) return st.statements.some(exits);
  return typescript.isIfStatement(st) && st.elseStatement !== undefined && exits(st.thenStatement) && exits(st.elseStatement);
}
