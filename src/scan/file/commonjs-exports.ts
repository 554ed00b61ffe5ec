import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { heldAtTop } from '../held-at-top.js';
import { declarationAt, type ScopedInitializer, valuesInScope } from '../local-values.js';
import type { HoistedVars } from '../scope.js';
import { accessedName, isAssigning, isStringLike, skipParens, skipWrappers } from '../syntax.js';

// A CommonJS module's exports (issue 40 item 4): what `require` and an ES import of the module read
// by name. Written at the top of the module or in an IIFE's body they are known to be made when the
// module loads; written anywhere else (a function, a callback, a branch) they may be, so a door
// written there is an export check cannot tell (door-exports.ts `exportedDoors`).

/** One export a CommonJS write makes: its name, the value (null: any value), where the value's names are read, and whether it is made when the module loads. */
export interface CommonJsExport {
  name: string;
  value: ts.Expression | null;
  ancestors: readonly ts.Node[];
  sure: boolean;
}

/** What `module.exports` itself is named by when it is given a value that is no object literal (`module.exports = github`). */
export const WHOLE = '\0module.exports';

/** The unknown export a CommonJS module lists when check cannot tell the names of its `module.exports`: any name read may be a door. */
export const ANY_EXPORT = '*';

interface Walk {
  hoisted: HoistedVars | undefined;
  out: CommonJsExport[];
  /** The nodes from the file down to the one visited (pushed and popped, copied only for an export). */
  stack: ts.Node[];
}

/**
 * Every export the file's CommonJS writes make: `module.exports = { github, gh: shellTool }`,
 * `exports.x = …`, `module.exports.x = …`, an assignment chain, `Object.assign(module.exports, { … })`,
 * each also through a local holding the exports object (`const e = module.exports; e.github = …`);
 * a spread, a computed name, an accessor, or a call given the exports object that is no such
 * `Object.assign`, is `ANY_EXPORT`. `exports` or `module` declared by the file (a parameter, an ES
 * module's own `const exports = {}`) is not CommonJS's, unless it holds the exports object.
 */
export function commonJsExportsOf(sf: ts.SourceFile, hoisted: HoistedVars | undefined): CommonJsExport[] {
  // most files never name it: no walk (an ES module's top-level `this` is undefined, no exports object)
  if (!sf.text.includes('exports') && !(sf.text.includes('this') && !isEsModule(sf))) return [];
  const w: Walk = { hoisted, out: [], stack: [sf] };
  for (const st of sf.statements) visit(w, st, true);
  return w.out;
}

const loadedByFile = new WeakMap<ts.SourceFile, ReadonlyMap<string, ts.Expression | null>>();

/**
 * The value a CommonJS module's export `name` holds once the module has loaded: the last write of
 * it made as the module loads (`exports.github = void 0;` then `Object.defineProperty(exports,
 * 'github', { get: … })`, as TypeScript writes a re-export). Undefined when no write names it, or
 * any write may be of any name, or one of it is not known to run, is made in a function's body (an
 * IIFE's) or holds a value check cannot tell.
 */
export function loadedExport(sf: ts.SourceFile, name: string): ts.Expression | undefined {
  let values = loadedByFile.get(sf);
  if (values === undefined) {
    const found = new Map<string, ts.Expression | null>();
    // after `module.exports = { … }` a write through `exports` goes to the old object, and the walk
    // does not say which object a write went through: a name written again is not known
    let replaced = false;
    for (const x of commonJsExportsOf(sf, undefined)) {
      if (x.name === ANY_EXPORT || x.name === WHOLE) {
        found.clear();
        break;
      }
      // a write in an IIFE's body is not taken: its value may name the IIFE's own locals, and the
      // repo scan reads a name at the top (`const d = require('…/doors')` in the IIFE, another `d` above)
      const top = !x.ancestors.some((a) => typescript.isFunctionLike(a));
      const again = replaced && found.has(x.name);
      found.set(x.name, x.sure && top && !again && found.get(x.name) !== null ? x.value : null);
      replaced ||= replacementMember(x);
    }
    values = found;
    loadedByFile.set(sf, values);
  }
  return values.get(name) ?? undefined;
}

/** Whether `x` is a member of an object literal given to an assignment (`module.exports = { gh: … }`); read from the walk's stack, as trees may have no parents. */
function replacementMember(x: CommonJsExport): boolean {
  const at = x.ancestors[x.ancestors.length - 1];
  if (at === undefined || !isAssignment(at)) return false;
  let value = skipWrappers(at.right);
  while (isAssignment(value)) value = skipWrappers(value.right);
  return typescript.isObjectLiteralExpression(value) && x.value !== value;
}

/** `sure`: the node is evaluated whenever the module loads (a top-level statement, an IIFE's body). */
function visit(w: Walk, node: ts.Node, sure: boolean): void {
  w.stack.push(node);
  visitIn(w, node, sure);
  w.stack.pop();
}

function visitIn(w: Walk, node: ts.Node, sure: boolean): void {
  if (typescript.isExpressionStatement(node) || typescript.isVariableStatement(node) || typescript.isVariableDeclarationList(node)) {
    typescript.forEachChild(node, (c) => visit(w, c, sure));
    return;
  }
  if (typescript.isVariableDeclaration(node)) {
    if (node.initializer) visit(w, node.initializer, sure);
    return;
  }
  if (isAssignment(node)) {
    // `a = b = value`: every target of the chain holds the last value
    let value = skipWrappers(node.right);
    const targets = [skipWrappers(node.left)];
    while (isAssignment(value)) {
      targets.push(skipWrappers(value.left));
      value = skipWrappers(value.right);
    }
    for (const t of targets) for (const [name, v] of exportsOfTarget(w, t, value)) emit(w, name, v, sure);
    visit(w, value, false);
    return;
  }
  if (sure && (typescript.isParenthesizedExpression(node) || isVoidOrNot(node))) {
    visit(w, typescript.isPrefixUnaryExpression(node) ? node.operand : node.expression, true);
    return;
  }
  if (typescript.isCallExpression(node)) {
    for (const [name, v] of assignedExports(w, node)) emit(w, name, v, sure);
    const fn = sure ? iifeOf(node) : undefined;
    if (fn !== undefined) {
      // an IIFE's body runs as the module loads: its statements are read as the top level's
      const depth = w.stack.length;
      w.stack.push(...fn.wrappers, fn.fn);
      if (typescript.isBlock(fn.fn.body)) {
        w.stack.push(fn.fn.body);
        for (const st of fn.fn.body.statements) visit(w, st, true);
      } else visit(w, fn.fn.body, true);
      w.stack.length = depth;
      for (const a of node.arguments) visit(w, a, false);
      return;
    }
  }
  typescript.forEachChild(node, (c) => visit(w, c, false));
}

function emit(w: Walk, name: string, value: ts.Expression | null, sure: boolean): void {
  w.out.push({ name, value, ancestors: w.stack.slice(), sure });
}

/** `!expr` or `void expr` (an IIFE's `!function () { … }()`). */
function isVoidOrNot(node: ts.Node): node is ts.PrefixUnaryExpression | ts.VoidExpression {
  return (typescript.isPrefixUnaryExpression(node) && node.operator === typescript.SyntaxKind.ExclamationToken) || typescript.isVoidExpression(node);
}

/**
 * The function a call runs at once (`(function () { … })()`, `(() => { … })()`, `(function () { … }).call(this)`),
 * with the nodes between: not an async or generator one, whose body may run later or never.
 */
function iifeOf(call: ts.CallExpression): { fn: ts.FunctionExpression | ts.ArrowFunction; wrappers: ts.Node[] } | undefined {
  const wrappers: ts.Node[] = [];
  let callee: ts.Expression = call.expression;
  if (typescript.isPropertyAccessExpression(callee) && (callee.name.text === 'call' || callee.name.text === 'apply')) {
    wrappers.push(callee);
    callee = callee.expression;
  }
  while (typescript.isParenthesizedExpression(callee)) {
    wrappers.push(callee);
    callee = callee.expression;
  }
  if (!typescript.isFunctionExpression(callee) && !typescript.isArrowFunction(callee)) return undefined;
  if (callee.asteriskToken || callee.modifiers?.some((m) => m.kind === typescript.SyntaxKind.AsyncKeyword)) return undefined;
  return { fn: callee, wrappers };
}

/** The exports one assignment target makes when it is given `value`: `module.exports`, `exports.x`, `module.exports.x`, or `exports[key]` (any). */
function exportsOfTarget(w: Walk, left: ts.Expression, value: ts.Expression): Array<readonly [string, ts.Expression | null]> {
  if (isModuleExports(w, left, w.stack)) return typescript.isObjectLiteralExpression(value) ? literalExports(value) : [[WHOLE, value]];
  if (!typescript.isPropertyAccessExpression(left) && !typescript.isElementAccessExpression(left)) return [];
  if (!isExportsObject(w, left.expression, w.stack)) return [];
  // `exports[0] = …` is read as any name, as a computed key is
  const name = accessedName(left, false);
  return name === undefined ? [[ANY_EXPORT, null]] : [[name, value]];
}

/** An object literal's names as exports: a method is no door; a spread, a computed name or an accessor may be any. */
function literalExports(obj: ts.ObjectLiteralExpression): Array<readonly [string, ts.Expression | null]> {
  const out: Array<readonly [string, ts.Expression | null]> = [];
  for (const p of obj.properties) {
    if (typescript.isShorthandPropertyAssignment(p)) out.push([p.name.text, p.name]);
    else if (typescript.isPropertyAssignment(p) && (typescript.isIdentifier(p.name) || isStringLike(p.name))) out.push([p.name.text, p.initializer]);
    else if (!typescript.isMethodDeclaration(p)) out.push([ANY_EXPORT, null]);
  }
  return out;
}

/**
 * A call given the exports object: `Object.assign(module.exports, { github }, …)` lists each
 * literal's names (any other source may hold any name); any other call so given
 * (`Object.defineProperty(exports, key, …)` of a key check cannot read, `extend(module.exports, …)`, `register(e)` of a local holding it) may add any name.
 */
function assignedExports(w: Walk, call: ts.CallExpression): Array<readonly [string, ts.Expression | null]> {
  const [first, ...sources] = call.arguments.map((a) => skipWrappers(a));
  const callee = skipWrappers(call.expression);
  const isAssign =
    typescript.isPropertyAccessExpression(callee) &&
    typescript.isIdentifier(callee.expression) &&
    callee.expression.text === 'Object' &&
    callee.name.text === 'assign';
  if (isAssign && first !== undefined && isExportsObject(w, first, w.stack)) {
    return sources.flatMap((s) => (typescript.isObjectLiteralExpression(s) ? literalExports(s) : [[ANY_EXPORT, null] as const]));
  }
  const defined = definedExport(w, callee, first, sources);
  if (defined !== undefined) return defined;
  return call.arguments.some((a) => isExportsObject(w, a, w.stack)) ? [[ANY_EXPORT, null]] : [];
}

/**
 * `Object.defineProperty(exports, 'name', descriptor)` with a literal name, as TypeScript's CommonJS
 * output writes every module (`'__esModule'` given `true`: no door) and each re-export (`{ enumerable: true,
 * get: function () { return m.github; } }`): the name's value is the descriptor's `value`, or what
 * a getter of one `return` returns; any value otherwise. Undefined: no such call.
 */
function definedExport(
  w: Walk,
  callee: ts.Expression,
  target: ts.Expression | undefined,
  [key, descriptor]: readonly ts.Expression[],
): Array<readonly [string, ts.Expression | null]> | undefined {
  const define =
    typescript.isPropertyAccessExpression(callee) &&
    typescript.isIdentifier(callee.expression) &&
    callee.expression.text === 'Object' &&
    callee.name.text === 'defineProperty';
  if (!define || target === undefined || key === undefined || !isStringLike(key) || !isExportsObject(w, target, w.stack)) return undefined;
  return [[key.text, descriptorValue(descriptor)]];
}

/** The value a descriptor written in place gives: its `value`, or the expression a getter of one `return` returns; null: check cannot tell. */
function descriptorValue(descriptor: ts.Expression | undefined): ts.Expression | null {
  if (descriptor === undefined || !typescript.isObjectLiteralExpression(descriptor)) return null;
  const found: Array<ts.Expression | null> = [];
  for (const p of descriptor.properties) {
    const name = p.name !== undefined && (typescript.isIdentifier(p.name) || isStringLike(p.name)) ? p.name.text : undefined;
    if (name === 'enumerable' || name === 'configurable' || name === 'writable') continue;
    if (name === 'value' && typescript.isPropertyAssignment(p)) found.push(p.initializer);
    else if (name === 'get') found.push(getterReturn(p));
    // a spread, a `set`, a computed name: the value is not known
    else return null;
  }
  return found.length === 1 ? found[0]! : null;
}

/** What a getter of one statement returns (`get: function () { return m.x; }`, `get() { return x; }`, `get: () => x`); null otherwise. */
function getterReturn(p: ts.ObjectLiteralElementLike): ts.Expression | null {
  const fn = typescript.isPropertyAssignment(p) ? skipWrappers(p.initializer) : p;
  if (!typescript.isFunctionExpression(fn) && !typescript.isArrowFunction(fn) && !typescript.isMethodDeclaration(fn)) return null;
  const body = fn.body;
  if (body === undefined) return null;
  if (!typescript.isBlock(body)) return body;
  const [only] = body.statements;
  return body.statements.length === 1 && only !== undefined && typescript.isReturnStatement(only) && only.expression !== undefined ? only.expression : null;
}

/** How many locals holding locals (`const f = e`) an exports object is followed through; a longer chain is taken to hold it. */
const ALIASES = 4;

/**
 * `exports` or `module.exports`, the object `require` returns, where `ancestors` end; or a local
 * that may hold it (`const e = module.exports`, `var exports = module.exports = {}`, `let e; e = exports`). An `exports` the file
 * declares otherwise (a parameter, `const exports = {}`) is not it.
 */
function isExportsObject(w: Walk, expr: ts.Expression, ancestors: readonly ts.Node[], depth = 0): boolean {
  const e = skipWrappers(expr);
  if (isModuleExports(w, e, ancestors)) return true;
  if (e.kind === typescript.SyntaxKind.ThisKeyword) return thisIsExports(w, ancestors);
  if (!typescript.isIdentifier(e)) return false;
  if (e.text === 'exports' && declarationAt('exports', ancestors, w.hoisted) === undefined) return true;
  const values = valuesInScope(e.text, ancestors, w.hoisted) ?? [];
  // past the bound a local may still hold it: fail closed rather than silent
  if (depth > ALIASES) return values.length > 0;
  // any value a `let` or `var` is given (`let e; e = module.exports`): a write through it may be an export
  const holds = (held: ScopedInitializer): boolean => {
    // `const e = module.exports = {}`: the chain's targets hold its last value too
    let value = skipWrappers(held.init);
    while (isAssignment(value)) {
      if (isExportsObject(w, value.left, held.ancestors, depth + 1)) return true;
      value = skipWrappers(value.right);
    }
    return isExportsObject(w, value, held.ancestors, depth + 1);
  };
  if (!values.some(holds)) return false;
  // `let e = module.exports; e = {}; e.x = …` in straight-line top-level code: the value held there
  const here = values.length > 1 && typescript.isSourceFile(ancestors[0]!) ? heldAtTop(ancestors[0], e.text, e, values) : undefined;
  return here === undefined || here.some(holds);
}

/**
 * Whether top-level `this` where `ancestors` end is the module's exports object: not in an ES
 * module (where it is undefined), and under no function or class but arrows, or in a function
 * called with it (`(function () { … }).call(this)`).
 */
function thisIsExports(w: Walk, ancestors: readonly ts.Node[]): boolean {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const node = ancestors[i]!;
    if (typescript.isSourceFile(node)) return !isEsModule(node);
    // an arrow's `this` is its scope's
    if (typescript.isArrowFunction(node)) continue;
    if (typescript.isFunctionExpression(node)) {
      const bound = boundThis(ancestors, i);
      return bound !== undefined && isExportsObject(w, bound.arg, ancestors.slice(0, bound.at + 1));
    }
    if (typescript.isFunctionLike(node) || typescript.isClassLike(node)) return false;
  }
  return false;
}

/** The `this` a function expression at `ancestors[i]` is called with by `.call(arg, …)` or `.apply(arg, …)` in place, with the call's index. */
function boundThis(ancestors: readonly ts.Node[], i: number): { arg: ts.Expression; at: number } | undefined {
  let j = i - 1;
  while (j > 0 && typescript.isParenthesizedExpression(ancestors[j]!)) j--;
  const callee = ancestors[j];
  const call = ancestors[j - 1];
  if (callee === undefined || call === undefined || !typescript.isPropertyAccessExpression(callee) || !typescript.isCallExpression(call)) return undefined;
  if (call.expression !== callee || skipParens(callee.expression) !== ancestors[i] || (callee.name.text !== 'call' && callee.name.text !== 'apply'))
    return undefined;
  const arg = call.arguments[0];
  return arg === undefined ? undefined : { arg, at: j - 1 };
}

/** An ES module (one with `import` or `export` syntax): its top-level `this` is undefined. */
function isEsModule(sf: ts.SourceFile): boolean {
  return sf.statements.some(isEsModuleSyntax);
}

/** An `import`, an `export` statement, or a statement with an `export` modifier. */
export function isEsModuleSyntax(st: ts.Statement): boolean {
  if (typescript.isImportDeclaration(st) || typescript.isExportDeclaration(st) || typescript.isExportAssignment(st)) return true;
  return typescript.canHaveModifiers(st) && (typescript.getModifiers(st)?.some((x) => x.kind === typescript.SyntaxKind.ExportKeyword) ?? false);
}

/** `module.exports`, with no `module` of the file's own. */
function isModuleExports(w: Walk, e: ts.Expression, ancestors: readonly ts.Node[]): boolean {
  return (
    typescript.isPropertyAccessExpression(e) &&
    typescript.isIdentifier(e.expression) &&
    e.expression.text === 'module' &&
    e.name.text === 'exports' &&
    declarationAt('module', ancestors, w.hoisted) === undefined
  );
}

/** `a = b`, and `a ??= b`, `a ||= b`, `a &&= b` (which may store `b` as well). */
function isAssignment(e: ts.Node): e is ts.BinaryExpression {
  return typescript.isBinaryExpression(e) && isAssigning(e.operatorToken.kind);
}
