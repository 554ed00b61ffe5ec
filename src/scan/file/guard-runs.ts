import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';

// Whether a guard call (`protectMcpServer(fs)`, `protectAgent(a)`) runs whenever the variable it
// guards exists. Decided exactly for the shapes read here; any other shape is no guard (fail closed).

/**
 * Whether the guard `call` runs on every run of the scope at `ancestors[scope]` that declares the
 * guarded variable (its declaration ending at `declaredEnd`): between the two lies no branch, loop
 * body, `case`, `catch` or short-circuit operand; no statement after the declaration and before the
 * guard that may leave early (`return`, `throw`, a `break`/`continue` out of it, any statement before
 * it inside a `try`); and no function or class, except a setup function the way calls
 * unconditionally (`function setup() {..}` or `const setup = () => {..}` with `setup();` in the
 * block that declares it, `await setup();` for an async one) or an IIFE.
 */
export function guardRunsWith(ancestors: readonly ts.Node[], scope: number, declaredEnd: number, call: ts.Node): boolean {
  const from = scope + 1;
  const way: Way = { ancestors, scope, declaredEnd, call, crossed: false };
  let child: ts.Node = call;
  for (let i = ancestors.length - 1; i >= from; i--) {
    const p = ancestors[i]!;
    if (isConditionalPart(p, child, ancestors[i - 1])) return false;
    // a class's members run only when it is made or read: no guard proven
    if (typescript.isClassLike(p)) return false;
    if (isFunctionScope(p)) {
      const site = (p as ts.FunctionLikeDeclaration).body === child ? callSiteOf(way, i) : undefined;
      if (!site) return false;
      way.crossed = true;
      i = site.depth;
      child = site.child;
      continue;
    }
    if (leavesBefore(p, child, tryBetween(ancestors, from, i))) return false;
    child = p;
  }
  // in the declaring scope (unless a setup function's call there was checked), only what runs after the declaration counts
  return scope < 0 || child === ancestors[scope] || !leavesBefore(ancestors[scope]!, child, false, declaredEnd);
}

interface Way {
  ancestors: readonly ts.Node[];
  scope: number;
  declaredEnd: number;
  call: ts.Node;
  /** Whether the walk already crossed a function (an async one's body is then read no further for awaits). */
  crossed: boolean;
}

/** Whether `child` runs only on some runs of `p`: a branch, a loop's body, a `case`, a `catch`, the right of `&&`/`||`/`??`. */
function isConditionalPart(p: ts.Node, child: ts.Node, above: ts.Node | undefined): boolean {
  const k = typescript.SyntaxKind;
  if (typescript.isIfStatement(p)) return child !== p.expression;
  if (typescript.isConditionalExpression(p)) return child !== p.condition;
  // `[x = v] = a`, `({ k: x = v } = o)`: an element's default (read as one even in a plain array literal: fail closed)
  const elementDefault = above !== undefined && (typescript.isArrayLiteralExpression(above) || typescript.isPropertyAssignment(above));
  if (typescript.isBinaryExpression(p) && p.operatorToken.kind === k.EqualsToken && elementDefault) return child === p.right;
  if (typescript.isBinaryExpression(p)) {
    const op = p.operatorToken.kind;
    const shortCircuit =
      op === k.AmpersandAmpersandToken ||
      op === k.BarBarToken ||
      op === k.QuestionQuestionToken ||
      op === k.AmpersandAmpersandEqualsToken ||
      op === k.BarBarEqualsToken ||
      op === k.QuestionQuestionEqualsToken;
    return shortCircuit && child === p.right;
  }
  // an optional chain's arguments and later links run only when the head is there (`log?.(guard)`)
  if (typescript.isOptionalChain(p) && child !== p.expression) return true;
  // a default runs only when the value is undefined (`const { s = guard } = o`, `[s = guard] = a`)
  if (typescript.isBindingElement(p)) return child === p.initializer;
  if (typescript.isShorthandPropertyAssignment(p)) return child === p.objectAssignmentInitializer;
  if (typescript.isWhileStatement(p) || typescript.isForInStatement(p) || typescript.isForOfStatement(p)) return child === p.statement;
  if (typescript.isForStatement(p)) return child === p.statement || child === p.condition || child === p.incrementor;
  return typescript.isCaseClause(p) || typescript.isDefaultClause(p) || typescript.isCatchClause(p);
}

function isFunctionScope(n: ts.Node): boolean {
  return typescript.isFunctionLike(n) || typescript.isClassStaticBlockDeclaration(n);
}

/**
 * Whether a `try` block that may stop a throw lies on the way between `ancestors[from]` and
 * `ancestors[below]`: one with a `catch`, or a `finally` that may leave (a `return` there drops the
 * error). A `try { await server.connect(); .. } finally { .. }` lets a throw go on out of the scope,
 * so the statements after it never run: no statement before the guard in it is a way around it.
 */
function tryBetween(ancestors: readonly ts.Node[], from: number, below: number): boolean {
  for (let j = from; j < below; j++) {
    const t = ancestors[j]!;
    if (!typescript.isTryStatement(t) || ancestors[j + 1] !== t.tryBlock) continue;
    if (t.catchClause || (t.finallyBlock && mayLeave(t.finallyBlock))) return true;
  }
  return false;
}

/**
 * Whether a statement of the list `p` before `child` (and from `after` on) may leave it early (in a
 * `try`, any statement may throw).
 */
function leavesBefore(p: ts.Node, child: ts.Node, inTry: boolean, after = -1): boolean {
  const list = statementsOf(p);
  if (!list) return false;
  for (const s of list) {
    if (s === child) return false;
    if (s.pos >= after && (inTry || mayLeave(s))) return true;
  }
  return false;
}

function statementsOf(p: ts.Node): readonly ts.Statement[] | undefined {
  if (typescript.isBlock(p) || typescript.isSourceFile(p) || typescript.isModuleBlock(p)) return p.statements;
  return undefined;
}

/**
 * Whether running `s` may leave the list it is in: a `return` or `throw` in it (not in a function
 * it declares), a labeled `break`/`continue`, or an unlabeled one not inside a loop (or, for
 * `break`, a `switch`) of `s` itself.
 */
function mayLeave(s: ts.Node): boolean {
  const visit = (n: ts.Node, inLoop: boolean, inSwitch: boolean): boolean => {
    if (typescript.isReturnStatement(n) || typescript.isThrowStatement(n)) return true;
    if (typescript.isBreakStatement(n)) return n.label !== undefined || !(inLoop || inSwitch);
    if (typescript.isContinueStatement(n)) return n.label !== undefined || !inLoop;
    if (isFunctionScope(n)) return false;
    const loop = inLoop || typescript.isIterationStatement(n, false);
    const sw = inSwitch || typescript.isSwitchStatement(n);
    return typescript.forEachChild(n, (c) => (visit(c, loop, sw) ? true : undefined)) === true;
  };
  return visit(s, false, false);
}

/**
 * Where the way goes on from the function at `ancestors[i]` (its depth and the node below it): for
 * a setup function, the block that declares it and calls it (the statements before the call checked
 * here); for an IIFE, the call. Undefined for any other function (a callback, a method, an export other modules call).
 */
function callSiteOf(way: Way, i: number): { depth: number; child: ts.Node } | undefined {
  const { ancestors, scope } = way;
  const f = ancestors[i]!;
  if (!typescript.isFunctionDeclaration(f) && !typescript.isArrowFunction(f) && !typescript.isFunctionExpression(f)) return undefined;
  if (f.asteriskToken) return undefined;
  // an async body runs on its caller's turn up to its first `await`: a guard before any, in the
  // first function crossed, runs whether the call is awaited or not; after one, only an awaited call waits for it
  const isAsync = f.modifiers?.some((m) => m.kind === typescript.SyntaxKind.AsyncKeyword) === true;
  const needsAwait = isAsync && (way.crossed || awaitsBefore(ancestors, i, way.call));
  const iife = iifeAt(ancestors, i, needsAwait);
  if (iife !== undefined) return iife > scope ? { depth: iife, child: ancestors[iife]! } : undefined;
  const named = setupName(ancestors, i);
  if (!named) return undefined;
  const block = ancestors[named.listDepth]!;
  // JavaScript may declare the name again (the last `function setup` wins) or assign it: the call may run another body
  if (!boundOnce(block, named.name, named.statement)) return undefined;
  // a call before the guarded variable is declared cannot guard it
  const after = named.listDepth === scope ? way.declaredEnd : -1;
  const list = statementsOf(block)!;
  const start = named.hoisted ? 0 : list.indexOf(named.statement) + 1;
  for (let k = start; k < list.length; k++) {
    const s = list[k]!;
    if (s.pos < after || !callsByName(s, named.name, needsAwait)) continue;
    // the statements before the call in that block must not leave it early either
    if (leavesBefore(block, s, tryBetween(ancestors, scope + 1, named.listDepth), after)) return undefined;
    return { depth: named.listDepth, child: block };
  }
  return undefined;
}

/** The depth of the call of an IIFE at `ancestors[i]` (`(() => {..})()`, `await (async () => {..})()`), if it is one (awaited when `needsAwait`). */
function iifeAt(ancestors: readonly ts.Node[], i: number, needsAwait: boolean): number | undefined {
  let j = i - 1;
  let inner: ts.Node = ancestors[i]!;
  while (j >= 0 && typescript.isParenthesizedExpression(ancestors[j]!)) inner = ancestors[j--]!;
  const c = ancestors[j];
  if (!c || !typescript.isCallExpression(c) || c.expression !== inner) return undefined;
  if (needsAwait && !(j > 0 && typescript.isAwaitExpression(ancestors[j - 1]!))) return undefined;
  return j;
}

/** A function declaration, or a `const` initialized with the function, as a statement of a block: its name and where it is. */
function setupName(ancestors: readonly ts.Node[], i: number): { name: string; listDepth: number; statement: ts.Statement; hoisted: boolean } | undefined {
  const f = ancestors[i]!;
  if (typescript.isFunctionDeclaration(f)) {
    if (!f.name || !statementsOf(ancestors[i - 1]!)) return undefined;
    return { name: f.name.text, listDepth: i - 1, statement: f, hoisted: true };
  }
  const decl = ancestors[i - 1];
  const declList = ancestors[i - 2];
  const stmt = ancestors[i - 3];
  if (!decl || !typescript.isVariableDeclaration(decl) || decl.initializer !== f || !typescript.isIdentifier(decl.name)) return undefined;
  if (!declList || !typescript.isVariableDeclarationList(declList) || !(declList.flags & typescript.NodeFlags.Const)) return undefined;
  if (!stmt || !typescript.isVariableStatement(stmt) || !statementsOf(ancestors[i - 4]!)) return undefined;
  return { name: decl.name.text, listDepth: i - 4, statement: stmt, hoisted: false };
}

/**
 * Whether `name` in `block` is this setup function only: no other statement of the block declares
 * it (a function, a class, a variable), and nothing in the block assigns it (`setup = ...`,
 * `setup++`, a destructuring target), in a nested function too (fail closed: a shadowing name
 * there counts as well).
 */
function boundOnce(block: ts.Node, name: string, statement: ts.Statement): boolean {
  for (const s of statementsOf(block) ?? []) {
    if (s === statement) continue;
    if ((typescript.isFunctionDeclaration(s) || typescript.isClassDeclaration(s)) && s.name?.text === name) return false;
    if (typescript.isVariableStatement(s) && s.declarationList.declarations.some((d) => bindsName(d.name, name))) return false;
  }
  const assigns = (n: ts.Node): boolean => {
    if (typescript.isBinaryExpression(n) && isAssignment(n.operatorToken.kind) && targets(n.left, name)) return true;
    if ((typescript.isPrefixUnaryExpression(n) || typescript.isPostfixUnaryExpression(n)) && isUpdate(n.operator) && targets(n.operand, name)) return true;
    return typescript.forEachChild(n, (c) => (assigns(c) ? true : undefined)) === true;
  };
  return !assigns(block);
}

function bindsName(b: ts.BindingName, name: string): boolean {
  if (typescript.isIdentifier(b)) return b.text === name;
  return b.elements.some((e) => !typescript.isOmittedExpression(e) && bindsName(e.name, name));
}

/** Whether an assignment's left side writes `name` (`name`, `[name] = ..`, `({ name } = ..)`, `({ k: name } = ..)`). */
function targets(e: ts.Expression, name: string): boolean {
  const x = skipParens(e);
  if (typescript.isIdentifier(x)) return x.text === name;
  if (typescript.isArrayLiteralExpression(x)) return x.elements.some((el) => targets(typescript.isSpreadElement(el) ? el.expression : el, name));
  if (typescript.isObjectLiteralExpression(x))
    return x.properties.some((p) =>
      typescript.isShorthandPropertyAssignment(p)
        ? p.name.text === name
        : typescript.isPropertyAssignment(p)
          ? targets(p.initializer, name)
          : typescript.isSpreadAssignment(p) && targets(p.expression, name),
    );
  // a default in a destructuring target: `[name = f] = ..`
  if (typescript.isBinaryExpression(x) && x.operatorToken.kind === typescript.SyntaxKind.EqualsToken) return targets(x.left, name);
  return false;
}

const isAssignment = (k: ts.SyntaxKind): boolean => k >= typescript.SyntaxKind.FirstAssignment && k <= typescript.SyntaxKind.LastAssignment;
const isUpdate = (op: ts.SyntaxKind): boolean => op === typescript.SyntaxKind.PlusPlusToken || op === typescript.SyntaxKind.MinusMinusToken;

/**
 * `name();` as a whole statement, also `void name();` and `name().catch(..)` (`.then`, `.finally`),
 * which call it first; `await name()` when `needsAwait`.
 */
function callsByName(s: ts.Statement, name: string, needsAwait: boolean): boolean {
  if (!typescript.isExpressionStatement(s)) return false;
  let e = skipParens(s.expression);
  if (typescript.isAwaitExpression(e)) e = skipParens(e.expression);
  else if (needsAwait) return false;
  else if (typescript.isVoidExpression(e)) e = skipParens(e.expression);
  while (
    typescript.isCallExpression(e) &&
    typescript.isPropertyAccessExpression(e.expression) &&
    PROMISE_METHODS.has(e.expression.name.text) &&
    typescript.isCallExpression(skipParens(e.expression.expression))
  )
    e = skipParens(e.expression.expression);
  return typescript.isCallExpression(e) && typescript.isIdentifier(e.expression) && e.expression.text === name;
}

const PROMISE_METHODS: ReadonlySet<string> = new Set(['catch', 'then', 'finally']);

function skipParens(e: ts.Expression): ts.Expression {
  while (typescript.isParenthesizedExpression(e)) e = e.expression;
  return e;
}

/**
 * Whether, in the function at `ancestors[i]`, an `await` (not in a function of its own) comes before
 * the guard `call`: in a statement before it, or earlier in its own statement
 * (`log(await s.connect(), protectMcpServer(s))`). An `await` that holds the guard
 * (`await f(protectMcpServer(s))`) runs it first.
 */
function awaitsBefore(ancestors: readonly ts.Node[], i: number, call: ts.Node): boolean {
  const body = (ancestors[i] as ts.FunctionLikeDeclaration).body;
  const before = call.pos;
  const visit = (n: ts.Node): boolean => {
    if (n.pos >= before || isFunctionScope(n)) return false;
    if (n.end <= before && awaits(n)) return true;
    return typescript.forEachChild(n, (c) => (visit(c) ? true : undefined)) === true;
  };
  return body !== undefined && visit(body);
}

function awaits(n: ts.Node): boolean {
  if (typescript.isAwaitExpression(n) || (typescript.isForOfStatement(n) && n.awaitModifier)) return true;
  if (typescript.isVariableDeclarationList(n) && (n.flags & typescript.NodeFlags.AwaitUsing) === typescript.NodeFlags.AwaitUsing) return true;
  if (isFunctionScope(n)) return false;
  return typescript.forEachChild(n, (c) => (awaits(c) ? true : undefined)) === true;
}
