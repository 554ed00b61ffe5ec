import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';
import { firstDeclarations, scopeDeclarations, scopeKinds, type HoistedVars } from './scope.js';
import { isAssigning, isWrapper, skipParens } from './syntax.js';

/**
 * Where a name read at the current point of the walk is declared: the innermost scope of
 * `ancestors` (outermost first) that declares it. A variable declaration, a parameter, or the
 * `for...of` statement whose loop variable it is; undefined for a global or an import. `hoisted`:
 * the `var`s each function of the file hoists, when the scan filed them (else its body is walked).
 */
export function declarationOf(name: string, ancestors: readonly ts.Node[], hoisted?: HoistedVars): ts.Node | undefined {
  return declarationAt(name, ancestors, hoisted)?.declaration;
}

/** The index in `ancestors` of the scope that declares `name` where they end; undefined for an import or a global. */
export function declarationDepth(name: string, ancestors: readonly ts.Node[], hoisted?: HoistedVars): number | undefined {
  return declarationAt(name, ancestors, hoisted)?.depth;
}

/** The declaration `declarationOf` finds, with the index in `ancestors` of the scope that makes it. */
export function declarationAt(name: string, ancestors: readonly ts.Node[], hoisted?: HoistedVars): { declaration: ts.Node; depth: number } | undefined {
  const scopes = hoisted ? scopesOf(hoisted) : undefined;
  const wanted = scopes ? undefined : new Set([name]);
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const node = ancestors[i]!;
    if (typescript.isSourceFile(node)) {
      const declaration = topLevelDeclaration(node, name);
      return declaration ? { declaration, depth: i } : undefined;
    }
    const declaration = scopes ? declaredIn(scopes, node, hoisted).get(name) : scopeDeclarations(node, wanted!, hoisted)[0]?.declaration;
    if (declaration) return { declaration, depth: i };
  }
  return undefined;
}

/**
 * Each scope's declarations by name, read once a scope: the scan asks where names are declared
 * again and again along the same ancestors (issue 40, item 8). Kept by the file's `hoisted` map,
 * which the file's context fills in its alias walk before any lookup and never changes after.
 */
const scopesByFile = new WeakMap<HoistedVars, WeakMap<ts.Node, ReadonlyMap<string, ts.Node>>>();

function scopesOf(hoisted: HoistedVars): WeakMap<ts.Node, ReadonlyMap<string, ts.Node>> {
  let scopes = scopesByFile.get(hoisted);
  if (!scopes) {
    scopes = new WeakMap();
    scopesByFile.set(hoisted, scopes);
  }
  return scopes;
}

const NO_NAMES: ReadonlyMap<string, ts.Node> = new Map();

function declaredIn(scopes: WeakMap<ts.Node, ReadonlyMap<string, ts.Node>>, node: ts.Node, hoisted: HoistedVars | undefined): ReadonlyMap<string, ts.Node> {
  // most ancestors (expressions, statements) make no scope: nothing kept for them
  if (scopeKinds()[node.kind] !== 1) return NO_NAMES;
  let names = scopes.get(node);
  if (!names) {
    names = firstDeclarations(node, hoisted);
    scopes.set(node, names);
  }
  return names;
}

/** The value a variable is declared with where a name is read, and where that value's own names are read. */
export interface ScopedInitializer {
  init: ts.Expression;
  /** `ancestors` down to the scope that declares the variable: the scope chain of its initializer. */
  ancestors: readonly ts.Node[];
  /** A `const` (a `let` or `var` may be given another value later). */
  constant: boolean;
}

/**
 * The initializer of the variable `name` is where `ancestors` end (`const|let|var name = init`):
 * not the first declaration of the name anywhere in the file (another function's `const servers`).
 * Undefined for a parameter, a catch or loop variable, a name in a destructuring pattern (its
 * value is a part of the initializer), a variable without initializer, an import or a global.
 */
export function initializerInScope(name: string, ancestors: readonly ts.Node[], hoisted?: HoistedVars): ScopedInitializer | undefined {
  const found = declarationAt(name, ancestors, hoisted);
  const decl = found?.declaration;
  if (!found || !decl || !typescript.isVariableDeclaration(decl) || !decl.initializer || !typescript.isIdentifier(decl.name)) return undefined;
  const scope = ancestors.slice(0, found.depth + 1);
  return { init: decl.initializer, ancestors: scope, constant: isConstDeclaration(decl, scope) };
}

/**
 * Every value the variable `name` may hold where `ancestors` end, each with the scope chain its
 * names are read in: a `const`'s initializer; a `let`'s or `var`'s initializer (if written) and each
 * value assigned to the name in the scope that declares it (`name = v`, `name ??= v`; an inner
 * variable of the same name counts too: more values, never fewer). Undefined when `name` is not a
 * variable declared there with a plain name (a parameter, a pattern, an import, a global).
 */
export function valuesInScope(name: string, ancestors: readonly ts.Node[], hoisted?: HoistedVars): ScopedInitializer[] | undefined {
  const found = declarationAt(name, ancestors, hoisted);
  const decl = found?.declaration;
  if (!found || !decl || !typescript.isVariableDeclaration(decl) || !typescript.isIdentifier(decl.name)) return undefined;
  const scope = ancestors.slice(0, found.depth + 1);
  const constant = isConstDeclaration(decl, scope);
  const out: ScopedInitializer[] = decl.initializer ? [{ init: decl.initializer, ancestors: scope, constant }] : [];
  if (!constant) {
    for (const init of assignedIn(ancestors[found.depth]!, name)) if (init !== decl.initializer) out.push({ init, ancestors: scope, constant });
  }
  return out;
}

/**
 * The values stored in `name` anywhere under `node`: `name = v` (and `||=`, `??=`, `&&=`); a
 * destructuring assignment that names it (`[name] = list`: the whole assignment, its part not
 * read); another `var name = v` of the same function (a `var` declared twice is one variable).
 */
function assignedIn(node: ts.Node, name: string): readonly ts.Expression[] {
  let all = assignmentsUnder.get(node);
  if (!all) {
    const found = new Map<string, ts.Expression[]>();
    const add = (key: string, value: ts.Expression): void => {
      const list = found.get(key);
      if (list) list.push(value);
      else found.set(key, [value]);
    };
    const visit = (n: ts.Node, inFunction: boolean): void => {
      if (typescript.isBinaryExpression(n) && isAssigning(n.operatorToken.kind)) {
        const left = skipParens(n.left);
        if (typescript.isIdentifier(left)) add(left.text, n.right);
        else if (typescript.isArrayLiteralExpression(left) || typescript.isObjectLiteralExpression(left)) for (const t of patternTargets(left)) add(t, n);
      }
      if (!inFunction && typescript.isVariableDeclarationList(n) && (n.flags & typescript.NodeFlags.BlockScoped) === 0) {
        for (const d of n.declarations) if (d.initializer && typescript.isIdentifier(d.name)) add(d.name.text, d.initializer);
      }
      const inner = inFunction || (n !== node && typescript.isFunctionLike(n));
      typescript.forEachChild(n, (c) => visit(c, inner));
    };
    visit(node, false);
    all = found;
    assignmentsUnder.set(node, all);
  }
  return all.get(name) ?? [];
}

/** The names a destructuring assignment's target stores into (`[a, { b }, ...c]`, `{ a, b: d }`). */
function patternTargets(target: ts.Expression): string[] {
  const e = skipParens(target);
  if (typescript.isIdentifier(e)) return [e.text];
  if (typescript.isArrayLiteralExpression(e)) return e.elements.flatMap((el) => patternTargets(typescript.isSpreadElement(el) ? el.expression : el));
  if (typescript.isObjectLiteralExpression(e)) {
    return e.properties.flatMap((p) =>
      typescript.isShorthandPropertyAssignment(p)
        ? [p.name.text]
        : typescript.isPropertyAssignment(p)
          ? patternTargets(p.initializer)
          : typescript.isSpreadAssignment(p)
            ? patternTargets(p.expression)
            : [],
    );
  }
  if (typescript.isBinaryExpression(e) && e.operatorToken.kind === typescript.SyntaxKind.EqualsToken) return patternTargets(e.left); // a default: `[a = 1] = list`
  return [];
}

// by scope node, every name's assigned values: one walk of a scope however many of its names are
// asked (a file that may name createRequire asks for each call's callee)
const assignmentsUnder = new WeakMap<ts.Node, ReadonlyMap<string, readonly ts.Expression[]>>();

/**
 * The value of the `const` that `name` is where `ancestors` end: not the first declaration of the
 * name anywhere in the file (another function's `const state = e.state`), nor a `let` that may be
 * given another value later. Undefined for a parameter, a `let`, a catch variable or a name not declared.
 */
export function constInitializer(name: string, ancestors: readonly ts.Node[], hoisted?: HoistedVars): ts.Expression | undefined {
  const found = initializerInScope(name, ancestors, hoisted);
  return found?.constant ? found.init : undefined;
}

/** Whether a declaration is of a `const` statement of a block on the way (the parse keeps no parent pointers). */
export function isConstDeclaration(decl: ts.VariableDeclaration, ancestors: readonly ts.Node[]): boolean {
  for (const a of ancestors) {
    const statements = typescript.isSourceFile(a) || typescript.isBlock(a) || typescript.isModuleBlock(a) ? a.statements : [];
    for (const st of statements) {
      if (typescript.isVariableStatement(st) && st.declarationList.declarations.includes(decl))
        return !!(st.declarationList.flags & typescript.NodeFlags.Const);
    }
  }
  return false;
}

/** A top-level `const|let|var` of the file declaring `name` (scopeDeclarations skips the file itself). */
/**
 * The file's top-level variable declarations by name (the first one of a name), read once a file: a
 * file of 10,000 statements asked once per call of a function called 10,000 times was a scan of
 * 10^8 statements (issue 40, item 1).
 */
const topLevelByFile = new WeakMap<ts.SourceFile, ReadonlyMap<string, ts.Node>>();

function topLevelDeclaration(sf: ts.SourceFile, name: string): ts.Node | undefined {
  let byName = topLevelByFile.get(sf);
  if (!byName) {
    const found = new Map<string, ts.Node>();
    for (const st of sf.statements) {
      if (!typescript.isVariableStatement(st)) continue;
      for (const d of st.declarationList.declarations) addBoundNames(d.name, d, found);
    }
    byName = found;
    topLevelByFile.set(sf, byName);
  }
  return byName.get(name);
}

function addBoundNames(b: ts.BindingName, declaration: ts.Node, into: Map<string, ts.Node>): void {
  if (typescript.isIdentifier(b)) {
    if (!into.has(b.text)) into.set(b.text, declaration);
    return;
  }
  for (const el of b.elements) if (!typescript.isOmittedExpression(el)) addBoundNames(el.name, declaration, into);
}

/** Parentheses, casts, `await` and non-null assertions around a value. */
export function unwrapValue(expr: ts.Expression): ts.Expression {
  for (;;) {
    if (isWrapper(expr) || typescript.isAwaitExpression(expr)) {
      expr = expr.expression;
    } else return expr;
  }
}

/** The written type of a declaration (`state: RunState<...>`), as text; undefined when none is written. */
export function declaredTypeText(decl: ts.Node, sf: ts.SourceFile): string | undefined {
  if ((typescript.isVariableDeclaration(decl) || typescript.isParameter(decl)) && decl.type) return decl.type.getText(sf);
  return undefined;
}

/**
 * Whether the `let` `name` read at `use` (the walk's `ancestors` there) holds its own guard
 * (`s = protectMcpServer(s)`): every value the file assigns it after its initializer is
 * `name = guard(name)` (`isGuard` tells the call), a statement at the top level of the block that
 * declares it, after the declaration and before `use`, and no function lies between that block and
 * `use` (a function may run before the guard). Anything else (a `const`, a `var`, another value, a
 * guard in an `if` or a function, one after the use) is false: the caller keeps its answer for the
 * initializer (fails closed).
 */
export function guardedLetAt(
  name: string,
  ancestors: readonly ts.Node[],
  use: ts.Node,
  isGuard: (call: ts.CallExpression) => boolean,
  hoisted?: HoistedVars,
): boolean {
  const guards = letSelfGuards(name, ancestors, isGuard, hoisted);
  return guards !== undefined && guardedAt(guards, ancestors, use);
}

/**
 * Whether the `let` `name` (declared where the walk's `ancestors` end) holds its guard at every read
 * of it (`a = protectAgent(a)`, a guard that returns the value it is given): each read of the name in
 * the declaring block, outside the guard statements themselves, is as `guardedLetAt` asks, so the
 * guards are all at the block's top level, before every read, with no function between. No read at
 * all is false (fails closed). A name read in a nested scope that shadows it is asked about its own
 * variable, as a read.
 */
export function guardedLetAtEveryRead(
  name: string,
  ancestors: readonly ts.Node[],
  isGuard: (call: ts.CallExpression) => boolean,
  hoisted?: HoistedVars,
): boolean {
  const guards = letSelfGuards(name, ancestors, isGuard, hoisted);
  if (guards === undefined) return false;
  const { decl, block } = guards;
  const outer = ancestors.slice(0, guards.depth + 1);
  let reads = 0;
  let guarded = true;
  const visit = (n: ts.Node, path: ts.Node[]): void => {
    if (!guarded || n === decl.name) return;
    if (path.length === 0 && selfGuard(n as ts.Statement, name, isGuard)) return;
    if (typescript.isIdentifier(n) && n.text === name && !isMemberName(n, path[path.length - 1])) {
      reads++;
      const at = [...outer, ...path];
      // the guards were found once; a read of another variable of the name (a shadowing one) is asked whole
      guarded = declarationAt(name, at, hoisted)?.declaration === decl ? guardedAt(guards, at, n) : guardedLetAt(name, at, n, isGuard, hoisted);
      return;
    }
    path.push(n);
    typescript.forEachChild(n, (c) => visit(c, path));
    path.pop();
  };
  for (const st of block.statements) visit(st, []);
  return guarded && reads > 0;
}

/** A `let`'s guards of itself: its declaration and block, and where the last guard ends. */
interface LetGuards {
  decl: ts.VariableDeclaration;
  block: ts.Block | ts.SourceFile;
  /** The block's place in the walk's ancestors. */
  depth: number;
  lastEnd: number;
}

/**
 * The guards of the `let` `name` (declared where the walk's `ancestors` lead) when every value the
 * file assigns it after its initializer is `name = guard(name)`, a statement at the top level of its
 * block after the declaration; undefined otherwise (a `const`, a `var`, no initializer, no
 * reassignment, another value, a guard in an `if` or a function).
 */
function letSelfGuards(
  name: string,
  ancestors: readonly ts.Node[],
  isGuard: (call: ts.CallExpression) => boolean,
  hoisted?: HoistedVars,
): LetGuards | undefined {
  const found = declarationAt(name, ancestors, hoisted);
  const decl = found?.declaration;
  const block = found ? ancestors[found.depth] : undefined;
  if (!decl || !block || !typescript.isVariableDeclaration(decl) || !decl.initializer || !(typescript.isBlock(block) || typescript.isSourceFile(block)))
    return undefined;
  const statement = block.statements.find((st) => typescript.isVariableStatement(st) && st.declarationList.declarations.includes(decl));
  if (
    !statement ||
    !typescript.isVariableStatement(statement) ||
    (statement.declarationList.flags & typescript.NodeFlags.BlockScoped) !== typescript.NodeFlags.Let
  )
    return undefined;
  const ends = new Map<ts.Expression, number>();
  for (const st of block.statements) {
    if (st.pos < statement.end) continue;
    const guard = selfGuard(st, name, isGuard);
    if (guard) ends.set(guard, st.end);
  }
  const assigned = assignedIn(block, name).filter((v) => v !== decl.initializer);
  if (assigned.length === 0 || !assigned.every((v) => ends.has(v))) return undefined;
  return { decl, block, depth: found!.depth, lastEnd: Math.max(...assigned.map((v) => ends.get(v)!)) };
}

/** Whether a read at `use` (the walk's `ancestors` there) comes after every guard, with no function between it and the block. */
function guardedAt(guards: LetGuards, ancestors: readonly ts.Node[], use: ts.Node): boolean {
  return guards.lastEnd <= use.pos && !ancestors.slice(guards.depth + 1).some((n) => typescript.isFunctionLike(n) || typescript.isClassLike(n));
}

/** Whether `id` names a member (`x.a`, `{ a: v }`, `a() {}`) rather than reading a variable. */
function isMemberName(id: ts.Identifier, parent: ts.Node | undefined): boolean {
  if (!parent) return false;
  if (typescript.isPropertyAccessExpression(parent)) return parent.name === id;
  if (typescript.isQualifiedName(parent)) return parent.right === id;
  const named =
    typescript.isPropertyAssignment(parent) ||
    typescript.isMethodDeclaration(parent) ||
    typescript.isPropertyDeclaration(parent) ||
    typescript.isPropertySignature(parent);
  return named && parent.name === id;
}

/** The guard call of a statement `name = guard(name);`. */
function selfGuard(st: ts.Statement, name: string, isGuard: (call: ts.CallExpression) => boolean): ts.CallExpression | undefined {
  if (!typescript.isExpressionStatement(st)) return undefined;
  const write = skipParens(st.expression);
  if (!typescript.isBinaryExpression(write) || write.operatorToken.kind !== typescript.SyntaxKind.EqualsToken) return undefined;
  const left = skipParens(write.left);
  const call = write.right;
  const arg = typescript.isCallExpression(call) ? call.arguments[0] : undefined;
  const held = arg ? skipParens(arg) : undefined;
  const ok = typescript.isIdentifier(left) && left.text === name && held !== undefined && typescript.isIdentifier(held) && held.text === name;
  return ok && typescript.isCallExpression(call) && isGuard(call) ? call : undefined;
}
