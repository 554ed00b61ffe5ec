import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { isSdkModule } from '../imports.js';
import { spanOf } from '../parse.js';
import { declarationAt, initializerInScope } from '../local-values.js';
import { isWrapper, propertyName, shortText, skipWrappers } from '../syntax.js';
import type { FileContext } from './context.js';
import { ANY_KEY, importedBinding } from './door-exports.js';
import { callbackOf, copiedBy, mapCallback, returnsName, returnsOf } from './returned-values.js';
import { declaredFunction, usesOf } from './function-uses.js';

// A tool handed to an agent from another module (issue 40 item 4, "no false green"): a literal door
// whose `type` check cannot read (`{ type: SHELL, shell }`) is reported only in a file using the SDK
// or the generated module, since other libraries write such objects (`{ type: Column.Text, editor }`).
// A module naming neither may still export one that an agent's `tools` holds: the agent's file keeps
// the imports its agents' `tools` name, and the repo scan reads those exports in such a module.

/**
 * The imports an agent's `tools` value names (`[shellTool, ...more, ns.patch]`, an imported list, a
 * list the file holds), kept in the scan; returns the object literals it holds here (`[{ ... }]`, a
 * variable of the file holding one, what a function of the file called for it returns, what a
 * `.map` callback returns), which file/function-objects.ts `onHandedObject` reads.
 */
export function onAgentTools(cx: FileContext, value: ts.Expression): ts.ObjectLiteralExpression[] {
  const objects: ts.ObjectLiteralExpression[] = [];
  reach(cx, value, cx.ancestors, 0, objects, new Set());
  return objects;
}

/** How many steps (a list, a variable, a call, a `return`) a value of the agent's file is followed through. */
export const AGENT_TOOL_STEPS = 12;

/**
 * Follows a value the agent is handed to its object literals and the imports it names (`ancestors`:
 * where its names are read). Past AGENT_TOOL_STEPS an object literal or an import is still read (no step
 * follows it); a value that leads on (a list, a variable, a function's returns) is reported as a
 * chain check cannot follow (fail closed), since a function tool may lie past it.
 */
function reach(
  cx: FileContext,
  value: ts.Expression,
  ancestors: readonly ts.Node[],
  depth: number,
  objects: ts.ObjectLiteralExpression[],
  seen: Set<ts.Node>,
): void {
  let e = skipWrappers(value);
  if (typescript.isAwaitExpression(e)) e = skipWrappers(e.expression);
  const next = (v: ts.Expression, at: readonly ts.Node[]): void => reach(cx, v, at, depth + 1, objects, seen);
  const over = depth > AGENT_TOOL_STEPS;
  if (typescript.isArrayLiteralExpression(e)) {
    if (over) return tooFar(cx, e);
    for (const el of e.elements) next(typescript.isSpreadElement(el) ? el.expression : el, ancestors);
    return;
  }
  if (typescript.isObjectLiteralExpression(e)) {
    if (!objects.includes(e)) objects.push(e);
    return;
  }
  // a variable of the file (`const tools = [myShell]`, read in its scope; a `let`'s initializer too:
  // more modules to read, never fewer findings)
  const held = typescript.isIdentifier(e) ? initializerInScope(e.text, ancestors, cx.hoisted) : undefined;
  if (held) return over ? tooFar(cx, e) : next(held.init, held.ancestors);
  // a copy of a list (`Array.from(xs)`, `xs.slice()`, `xs.concat(ys)`) or an object's values
  // (`Object.values(kit)`): what the list or the object holds is handed
  const copied = typescript.isCallExpression(e) ? copiedBy(e) : undefined;
  if (copied) {
    if (over) return tooFar(cx, e);
    for (const list of copied.lists) next(list, ancestors);
    for (const object of copied.objects) valuesOf(cx, object, ancestors, next);
    return;
  }
  // the function whose returns are handed: a `.map`/`.flatMap`/`Array.from` callback (written in
  // place or named: `flows.map(toTool)`), else the function called
  const callee = typescript.isCallExpression(e) ? (callbackOf(e) ?? skipWrappers(e.expression)) : undefined;
  // what a callback or a function of the file returns is handed, each once (a recursion ends)
  const fn = callee !== undefined ? (inPlace(callee, ancestors) ?? localFunction(cx, callee, ancestors)) : undefined;
  if (fn) {
    if (seen.has(fn.node)) return;
    if (over) return tooFar(cx, e);
    seen.add(fn.node);
    for (const r of returnsOf(fn.node, fn.ancestors)) next(r.value, r.ancestors);
    return;
  }
  // `makeTools(toTool)`: a function the file passes may be what the callee maps its list with (a
  // parameter there: `(cb) => flows.map(cb)`), so what it returns is handed too
  if (callee !== undefined) passedFunctions(cx, e as ts.CallExpression, ancestors, seen, over, next);
  // `makeTools()`: what the imported function returns is the agent's (`call`); `kit.shell`: a member
  // of the export (`members`), a method's result left unread
  const from = importedBinding(cx, callee ?? e, ancestors, true);
  const call = callee !== undefined;
  if (from === undefined || (call && from.members.length > 0)) return;
  keepImport(cx, from, call);
}

/** Keeps an import an agent's `tools` reads (`call`: what the imported function returns), once, for the repo scan to read in its module. */
function keepImport(cx: FileContext, from: { specifier: string; name: string; members: string[] }, call: boolean): void {
  if (isSdkModule(from.specifier)) return;
  const read: { specifier: string; name: string; call?: true; members?: string[] } = { specifier: from.specifier, name: from.name };
  if (call) read.call = true;
  if (from.members.length > 0) read.members = from.members;
  const key = memberPath(read.name, read.members ?? []);
  cx.scan.agentToolImports = cx.scan.agentToolImports ?? [];
  const kept = cx.scan.agentToolImports;
  if (!kept.some((i) => i.specifier === read.specifier && memberPath(i.name, i.members ?? []) === key && !i.call === !call)) kept.push(read);
}

/**
 * Follows the values of an object whose values an agent is handed (`Object.values(kit)`): each
 * property's value of an object literal (a variable of the file holding one, a spread of another),
 * or any member of an import (`kit[key]` of `ANY_KEY`).
 */
function valuesOf(
  cx: FileContext,
  value: ts.Expression,
  ancestors: readonly ts.Node[],
  next: (v: ts.Expression, at: readonly ts.Node[]) => void,
  depth = 0,
): void {
  const e = skipWrappers(value);
  if (depth > AGENT_TOOL_STEPS) return tooFar(cx, e);
  if (typescript.isObjectLiteralExpression(e)) {
    for (const p of e.properties) {
      if (typescript.isPropertyAssignment(p)) next(p.initializer, ancestors);
      else if (typescript.isShorthandPropertyAssignment(p)) next(p.name, ancestors);
      else if (typescript.isSpreadAssignment(p)) valuesOf(cx, p.expression, ancestors, next, depth + 1);
    }
    return;
  }
  const held = typescript.isIdentifier(e) ? initializerInScope(e.text, ancestors, cx.hoisted) : undefined;
  if (held) return valuesOf(cx, held.init, held.ancestors, next, depth + 1);
  const from = importedBinding(cx, e, ancestors, true);
  if (from !== undefined) keepImport(cx, { ...from, members: [...from.members, ANY_KEY] }, false);
}

/**
 * Follows the returns of each function a call is passed (written in place or a function of the
 * file, each once), as the agent's values: the callee, not read here, may return what they make.
 */
function passedFunctions(
  cx: FileContext,
  call: ts.CallExpression,
  ancestors: readonly ts.Node[],
  seen: Set<ts.Node>,
  over: boolean,
  next: (v: ts.Expression, at: readonly ts.Node[]) => void,
): void {
  for (const arg of call.arguments) {
    const a = skipWrappers(arg);
    const fn = inPlace(a, ancestors) ?? localFunction(cx, a, ancestors);
    if (fn === undefined || seen.has(fn.node)) continue;
    if (over) return tooFar(cx, call);
    seen.add(fn.node);
    for (const r of returnsOf(fn.node, fn.ancestors)) next(r.value, r.ancestors);
  }
}

/** Between an export's name and each member read on it, in the names a module is scanned with (`kit.shell` of `tools: [kit.shell]`). */
const MEMBER = '\u0001';

/** The name a module is scanned with for its export `name` read through `members` (`kit`, `kit.shell`, `list.0`). */
export function memberPath(name: string, members: readonly string[]): string {
  return [name, ...members].join(MEMBER);
}

/** A value of an agent's `tools` the search stops at, still leading on: an object-literal-tool finding there, once. */
function tooFar(cx: FileContext, e: ts.Expression): void {
  const start = e.getStart(cx.sf);
  if (cx.scan.objectLiteralTools!.some((t) => t.span.start === start)) return;
  cx.scan.objectLiteralTools!.push({ kind: 'object-literal-tool', span: spanOf(e, cx.sf), tooFar: shortText(e.getText(cx.sf)) });
}

interface LocalFunction {
  node: ts.SignatureDeclaration;
  ancestors: readonly ts.Node[];
}

/** A function written in place (a callback's arrow or function expression). */
function inPlace(e: ts.Expression, ancestors: readonly ts.Node[]): LocalFunction | undefined {
  return typescript.isArrowFunction(e) || typescript.isFunctionExpression(e) ? { node: e, ancestors } : undefined;
}

/** The function of the file a call names (`build()`): a function declaration, or a variable holding an arrow or a function expression. */
function localFunction(cx: FileContext, callee: ts.Expression, ancestors: readonly ts.Node[]): LocalFunction | undefined {
  if (!typescript.isIdentifier(callee)) return undefined;
  const found = declarationAt(callee.text, ancestors, cx.hoisted);
  if (found && typescript.isFunctionDeclaration(found.declaration)) {
    // an overload signature (no body) is found first: the returns are its implementation's
    const fn = implementationOf(found.declaration, ancestors[found.depth]!);
    return fn ? { node: fn, ancestors: ancestors.slice(0, found.depth + 1) } : undefined;
  }
  const held = found ? initializerInScope(callee.text, ancestors, cx.hoisted) : undefined;
  const init = held ? skipWrappers(held.init) : undefined;
  if (init && (typescript.isArrowFunction(init) || typescript.isFunctionExpression(init))) return { node: init, ancestors: held!.ancestors };
  if (found) return undefined;
  // a top-level function declaration (the scope lookup reads the file's variables only)
  const top = cx.sf.statements.find((st) => typescript.isFunctionDeclaration(st) && st.body !== undefined && st.name?.text === callee.text);
  return top ? { node: top as ts.FunctionDeclaration, ancestors: [cx.sf] } : undefined;
}

/** The declaration with a body among `f`'s overloads in its scope (`f` itself when it has one); undefined for a `declare function`. */
function implementationOf(f: ts.FunctionDeclaration, scope: ts.Node): ts.FunctionDeclaration | undefined {
  if (f.body) return f;
  const body = (scope as { body?: ts.Node }).body;
  const statements = (scope as { statements?: readonly ts.Statement[] }).statements ?? (body && typescript.isBlock(body) ? body.statements : []);
  return statements.find((st): st is ts.FunctionDeclaration => typescript.isFunctionDeclaration(st) && st.body !== undefined && st.name?.text === f.name?.text);
}

/** The tools a file adds to an agent after it is made (`agent.tools.push(a, ...b)`, `agent.tools = [a]`): read as its `tools`. */
export function onAddedTools(cx: FileContext, values: readonly ts.Expression[]): ts.ObjectLiteralExpression[] {
  return values.flatMap((v) => onAgentTools(cx, typescript.isSpreadElement(v) ? v.expression : v));
}

/**
 * Whether an object literal is what this module exports under a name another module hands to an
 * agent's `tools` (`ScanSourceOptions.agentToolExports`): the initializer of a top-level variable
 * exported under it (or an element of one, a list of tools), or the default export; or what an
 * exported function returns (an element of the list it returns), when the agent's `tools` calls it.
 */
export function handedToAgent(cx: FileContext, node: ts.ObjectLiteralExpression): boolean {
  const names = cx.options.agentToolExports;
  if (names === undefined || names.size === 0) return false;
  if (memberHanded(cx, node, names)) return true;
  // the tree has no parent links: the walk's ancestors (the last is the object's parent)
  return returnedToExport(cx, names, cx.ancestors, node, new Set());
}

/**
 * Whether `node` (read with the ancestors `up`, the last its parent) is held by an export `names`
 * lists, or returned by an exported function one lists as called: through a list, a variable a
 * function returns, a `.map` callback, and the calls of a function the module declares (`seen`: each
 * function's calls are followed once, so a recursion ends).
 */
function returnedToExport(cx: FileContext, names: ReadonlySet<string>, up: readonly ts.Node[], node: ts.Node, seen: Set<ts.Node>): boolean {
  let [i, n] = outOfList(up, wrapped(up, up.length - 1), node);
  // what a function returns through a variable or a `.map` callback: the function's own value, hop
  // by hop out of the callbacks; each hop starts above the last (`i` falls), so the walk ends at the file
  for (;;) {
    const p = up[i];
    if (p === undefined) return false;
    // what an exported function returns, handed to an agent by a call (`tools: makeTools()`): `name()`
    const returned = typescript.isReturnStatement(p) || (typescript.isArrowFunction(p) && p.body === n) || returnedVariable(up, i, n);
    const fn = returned ? returningFunction(up, i) : -1;
    if (fn < 0) return holderNames(cx, up, i, n).some((x) => names.has(x));
    const f = up[fn]!;
    // `xs.map((x) => ({ ... }))`: each element the callback returns is in the list the call returns
    // (the callback may be written in parentheses: `xs.map(((x) => …))`)
    const c = wrapped(up, fn - 1);
    const call = up[c];
    if (call && typescript.isCallExpression(call) && mapCallback(call) === f) {
      [i, n] = outOfList(up, wrapped(up, c - 1), call);
      continue;
    }
    const j = wrapped(up, fn - 1);
    const called = typescript.isFunctionDeclaration(f) ? (fn === 1 ? functionNames(cx.sf, f) : []) : holderNames(cx, up, j, up[j + 1]!);
    if (called.some((x) => names.has(`${x}()`))) return true;
    // `function make() { return {...} }; export const myShell = make();`: what the export holds
    const local = typescript.isFunctionDeclaration(f) ? (fn === 1 ? f.name?.text : undefined) : topLevelHolder(up, j, up[j + 1]!);
    if (local !== undefined && madeBy(cx.sf, local).some((x) => names.has(x))) return true;
    return calledToExport(cx, names, up, fn, seen);
  }
}

/**
 * The position above `up[i]` once out of the values that may be the one there: a branch of `c ? a :
 * b`, a side of `a ?? b`, `a || b`, the right of `a && b`, and the list holding it (an element, or
 * spread: `[...flows.map(toShell)]`); with the child of that position.
 */
function outOfList(up: readonly ts.Node[], i: number, node: ts.Node): [number, ts.Node] {
  let child = i + 1 < up.length ? up[i + 1]! : node;
  let p = up[i];
  while (p !== undefined && isValueOf(p, child)) {
    child = p;
    i = wrapped(up, i - 1);
    p = up[i];
  }
  const list = p !== undefined && typescript.isSpreadElement(p) ? wrapped(up, i - 1) : i;
  if (list < 0 || !typescript.isArrayLiteralExpression(up[list]!)) return [i, child];
  return [wrapped(up, list - 1), up[list]!];
}

/** Whether `p`'s value may be its operand `child` (`c ? child : b`, `child ?? b`, `a || child`, `a && child`), not its test. */
function isValueOf(p: ts.Node, child: ts.Node): boolean {
  if (typescript.isConditionalExpression(p)) return p.condition !== child;
  if (!typescript.isBinaryExpression(p)) return false;
  const op = p.operatorToken.kind;
  const k = typescript.SyntaxKind;
  if (op === k.AmpersandAmpersandToken) return p.right === child;
  return op === k.QuestionQuestionToken || op === k.BarBarToken;
}

/**
 * Whether a function the module declares (`up[fn]`: `function toShell`, `const toShell = …`, a member
 * of `const helpers = {…}`) gives its value to an export through one of its calls: `toShell(f)`,
 * `flows.map(toShell)`, `Array.from(flows, helpers.toShell)` (file/function-uses.ts).
 */
function calledToExport(cx: FileContext, names: ReadonlySet<string>, up: readonly ts.Node[], fn: number, seen: Set<ts.Node>): boolean {
  const f = up[fn]!;
  if (seen.has(f)) return false;
  seen.add(f);
  const declared = declaredFunction(up, fn);
  if (declared === undefined) return false;
  return usesOf(up, declared).some((use) => returnedToExport(cx, names, use.ancestors, use.call, seen));
}

/**
 * Whether an object literal is a member of an export (`export const kit = { shell: {...} }`, an
 * element of a list in it) that an agent's `tools` reads as that member (`kit.shell`, `kit.all[0]`,
 * `...kit.all`, `kit[key]` any member, `list[0]`); a list handed whole is `handedToAgent`'s own case too.
 */
function memberHanded(cx: FileContext, node: ts.ObjectLiteralExpression, names: ReadonlySet<string>): boolean {
  const up = cx.ancestors;
  const path: string[] = [];
  let last = true;
  let endsInList = false;
  let i = wrapped(up, up.length - 1);
  const childOf = (j: number): ts.Node => (j + 1 < up.length ? up[j + 1]! : node);
  // out through every list and object to the export holding it (each step goes up the walk's ancestors)
  for (;;) {
    const p = up[i];
    if (p !== undefined && typescript.isArrayLiteralExpression(p)) {
      path.unshift(String(p.elements.indexOf(childOf(i) as ts.Expression)));
      if (last) endsInList = true;
      i = wrapped(up, i - 1);
    } else if (p !== undefined && typescript.isPropertyAssignment(p) && p.initializer === childOf(i)) {
      const name = propertyName(p.name);
      if (name === undefined) return false;
      path.unshift(name);
      i = wrapped(up, i - 2);
    } else break;
    last = false;
  }
  const holders = holderNames(cx, up, i, childOf(i));
  if (holders.length === 0) return false;
  for (const wanted of names) {
    const [name, ...members] = wanted.split(MEMBER) as [string, ...string[]];
    if (!holders.includes(name)) continue;
    // the member itself, or the list holding it (`...kit.all`, `tools: kit.all`)
    const along = members.every((m, k) => m === ANY_KEY || m === path[k]);
    if (along && (members.length === path.length || (endsInList && members.length === path.length - 1))) return true;
  }
  return false;
}

/** The name of the top-level variable `child` of `up[i]` initializes (`const make = () => ...`), exported or not. */
function topLevelHolder(up: readonly ts.Node[], i: number, child: ts.Node): string | undefined {
  const p = up[i];
  if (!p || !typescript.isVariableDeclaration(p) || p.initializer !== child || !typescript.isIdentifier(p.name) || i - 2 !== 1) return undefined;
  return p.name.text;
}

/** The names the top-level variables holding what `local()` returns (`const x = make()`, `await make()`) are exported under. */
function madeBy(sf: ts.SourceFile, local: string): string[] {
  const out: string[] = [];
  for (const st of sf.statements) {
    if (!typescript.isVariableStatement(st)) continue;
    for (const d of st.declarationList.declarations) {
      let v = d.initializer ? skipWrappers(d.initializer) : undefined;
      if (v && typescript.isAwaitExpression(v)) v = skipWrappers(v.expression);
      if (!v || !typescript.isCallExpression(v) || !typescript.isIdentifier(d.name)) continue;
      const callee = skipWrappers(v.expression);
      if (typescript.isIdentifier(callee) && callee.text === local) out.push(...exportNames(sf, d.name.text, hasExport(st)));
    }
  }
  return out;
}

/** Whether `child` of `up[i]` initializes a variable of a function that the function returns (`const list = [...]; return list;`). */
function returnedVariable(up: readonly ts.Node[], i: number, child: ts.Node): boolean {
  const p = up[i]!;
  if (!typescript.isVariableDeclaration(p) || p.initializer !== child || !typescript.isIdentifier(p.name)) return false;
  const fn = returningFunction(up, i);
  return fn >= 0 && returnsName(up[fn] as ts.SignatureDeclaration, p.name.text);
}

/**
 * The names the value `child` of `up[i]` is exported under, when `up[i]` is the default export or
 * the declaration of a top-level variable it initializes.
 */
function holderNames(cx: FileContext, up: readonly ts.Node[], i: number, child: ts.Node): string[] {
  const p = up[i];
  if (p && typescript.isExportAssignment(p)) return p.isExportEquals ? [] : ['default'];
  if (!p || !typescript.isVariableDeclaration(p) || p.initializer !== child || !typescript.isIdentifier(p.name)) return [];
  const statement = up[i - 2];
  if (!statement || !typescript.isVariableStatement(statement) || i - 2 !== 1) return [];
  return exportNames(cx.sf, p.name.text, hasExport(statement));
}

/** The names a top-level function declaration is exported under (`export function f`, `export default function`, a list). */
function functionNames(sf: ts.SourceFile, f: ts.FunctionDeclaration): string[] {
  const mods = f.modifiers ?? [];
  if (hasExport(f) && mods.some((m) => m.kind === typescript.SyntaxKind.DefaultKeyword)) return ['default'];
  return f.name ? exportNames(sf, f.name.text, hasExport(f)) : [];
}

const hasExport = (n: ts.VariableStatement | ts.FunctionDeclaration): boolean => !!n.modifiers?.some((m) => m.kind === typescript.SyntaxKind.ExportKeyword);

/** The index of the function a `return` at `up[i]` (or an arrow's expression body, `up[i]` itself) returns from, or -1. */
function returningFunction(up: readonly ts.Node[], i: number): number {
  for (let j = i; j >= 0; j--) if (typescript.isFunctionLike(up[j]!)) return j;
  return -1;
}

/** The index of the first ancestor at or above `i` that is no wrapper (parentheses, `as`, `satisfies`, `!`). */
function wrapped(up: readonly ts.Node[], i: number): number {
  let j = i;
  while (j >= 0 && isWrapper(up[j]!)) j--;
  return j;
}

/** The names a top-level variable is exported under: itself (`export const`), `export { v as n }`, `export default v`. */
function exportNames(sf: ts.SourceFile, local: string, exported: boolean): string[] {
  const out = exported ? [local] : [];
  for (const st of sf.statements) {
    if (typescript.isExportAssignment(st) && !st.isExportEquals && typescript.isIdentifier(st.expression) && st.expression.text === local) out.push('default');
    if (!typescript.isExportDeclaration(st) || st.moduleSpecifier || st.isTypeOnly || !st.exportClause || !typescript.isNamedExports(st.exportClause)) continue;
    for (const el of st.exportClause.elements) if ((el.propertyName ?? el.name).text === local) out.push(el.name.text);
  }
  return out;
}
