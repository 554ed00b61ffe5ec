import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { collectModuleImports, importedAs, requiredModule } from '../imports.js';
import { declarationAt, initializerInScope } from '../local-values.js';
import { spanOf } from '../parse.js';
import { isStringLike, skipWrappers } from '../syntax.js';
import type { ImportedWrite } from '../types.js';
import { agentClassOf, type FileContext } from './context.js';
import type { PropertyWrite } from './property-writes.js';

// A door made in one module and written in another (issue 40 item 4): the module that makes it
// names the doors it exports, the module that writes it names the imported binding written and
// which doors that write would break; the repo scan (imported-door-writes.ts) joins the two.

/** What an exported agent is called among the doors: the SDK's runner takes its tools from its `getAllTools`. */
export const AGENT_DOOR = 'Agent';

/** The door a top-level value holds (`door` of door-writes.ts), and whether check could not tell every value it may be. */
export type DoorOfValue = (expr: ts.Expression, ancestors: readonly ts.Node[]) => { door?: string; opaque: boolean };

/**
 * The doors the file exports, by exported name: `export const github = protectMcpServer(...)`,
 * `export { sh as shellTool }`, `export default server` (as `default`); and the exports whose value
 * check cannot tell (`export const gh = makeServer()` of an imported factory), which may be doors.
 */
export function exportedDoors(cx: FileContext, doorOf: DoorOfValue): { doors?: Record<string, string>; unknown?: string[] } {
  const out: Record<string, string> = {};
  const unknown: string[] = [];
  const top: readonly ts.Node[] = [cx.sf];
  const heldBy = (expr: ts.Expression): string | undefined => {
    const e = skipWrappers(expr);
    if (typescript.isNewExpression(e) && agentClassOf(cx, e.expression) !== undefined) return AGENT_DOOR;
    const held = doorOf(e, top);
    if (held.door !== undefined) return held.door;
    if (held.opaque) return UNKNOWN;
    if (!typescript.isIdentifier(e)) return undefined;
    const init = initializerInScope(e.text, top, cx.hoisted);
    const inner = init && skipWrappers(init.init);
    return inner && typescript.isNewExpression(inner) && agentClassOf(cx, inner.expression) !== undefined ? AGENT_DOOR : undefined;
  };
  const add = (name: string, door: string | undefined): void => {
    if (door === UNKNOWN) unknown.push(name);
    else if (door !== undefined) out[name] = door;
  };
  for (const st of cx.sf.statements) {
    if (typescript.isVariableStatement(st) && st.modifiers?.some((m) => m.kind === typescript.SyntaxKind.ExportKeyword)) {
      for (const d of st.declarationList.declarations) if (typescript.isIdentifier(d.name) && d.initializer) add(d.name.text, heldBy(d.initializer));
    } else if (typescript.isExportAssignment(st) && !st.isExportEquals) {
      // `export default protectMcpServer(...)`, `export default server`
      add('default', heldBy(st.expression));
    } else if (typescript.isExportDeclaration(st) && !st.moduleSpecifier && st.exportClause && typescript.isNamedExports(st.exportClause)) {
      for (const el of st.exportClause.elements) add(el.name.text, heldBy((el.propertyName ?? el.name) as ts.Identifier));
    } else if (typescript.isExpressionStatement(st)) {
      for (const [name, value] of commonJsExports(st.expression)) {
        const held = value === null ? UNKNOWN : heldBy(value);
        // `module.exports = door`: the door is what `require` returns and an ES import reads as the
        // default, its names the door's own; any other value may hold a door under any name
        if (name === WHOLE && held !== undefined && held !== UNKNOWN) add('default', held);
        else if (name === WHOLE) unknown.push(ANY_EXPORT);
        else add(name, held);
      }
    }
  }
  return { ...(Object.keys(out).length > 0 ? { doors: out } : {}), ...(unknown.length > 0 ? { unknown } : {}) };
}

/**
 * The exports a CommonJS statement makes, by name: `module.exports = { github, gh: shellTool }`,
 * `exports.github = github`, `module.exports.github = …` (what `require` and an import of the module
 * read by those names), each target of a chain (`exports = module.exports = { github }`), and
 * `Object.assign(module.exports, { github })`; any other `module.exports = value` is `[WHOLE, value]`.
 * A spread, a computed name, an accessor, or a call given `module.exports` or `exports` that is
 * no such `Object.assign` is `[ANY_EXPORT, null]`: any name may be a door there (fail closed).
 */
function commonJsExports(expr: ts.Expression): Array<readonly [string, ts.Expression | null]> {
  if (typescript.isCallExpression(expr)) return assignedExports(expr);
  if (!isAssignment(expr)) return [];
  // `a = b = value`: every target of the chain holds the last value
  let value = skipWrappers(expr.right);
  const targets = [skipWrappers(expr.left)];
  while (isAssignment(value)) {
    targets.push(skipWrappers(value.left));
    value = skipWrappers(value.right);
  }
  return targets.flatMap((t) => exportsOfTarget(t, value));
}

/** The exports one assignment target makes when it is given `value`: `module.exports`, `exports.x`, `module.exports.x`, or `exports[key]` (any). */
function exportsOfTarget(left: ts.Expression, value: ts.Expression): Array<readonly [string, ts.Expression | null]> {
  if (isModuleExports(left)) return typescript.isObjectLiteralExpression(value) ? literalExports(value) : [[WHOLE, value]];
  if (!typescript.isPropertyAccessExpression(left) && !typescript.isElementAccessExpression(left)) return [];
  if (!isExportsObject(skipWrappers(left.expression))) return [];
  const name = memberName(left);
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
 * A top-level call given the exports object: `Object.assign(module.exports, { github }, …)` lists
 * each literal's names (any other source may hold any name); any other call so given
 * (`Object.defineProperty(exports, …)`, `extend(module.exports, …)`) may add any name.
 */
function assignedExports(call: ts.CallExpression): Array<readonly [string, ts.Expression | null]> {
  const [first, ...sources] = call.arguments.map((a) => skipWrappers(a));
  const callee = skipWrappers(call.expression);
  const isAssign =
    typescript.isPropertyAccessExpression(callee) &&
    typescript.isIdentifier(callee.expression) &&
    callee.expression.text === 'Object' &&
    callee.name.text === 'assign';
  if (isAssign && first !== undefined && isExportsObject(first)) {
    return sources.flatMap((s) => (typescript.isObjectLiteralExpression(s) ? literalExports(s) : [[ANY_EXPORT, null] as const]));
  }
  return call.arguments.some((a) => isExportsObject(skipWrappers(a))) ? [[ANY_EXPORT, null]] : [];
}

/** `exports` or `module.exports`, the object `require` returns. */
function isExportsObject(e: ts.Expression): boolean {
  return (typescript.isIdentifier(e) && e.text === 'exports') || isModuleExports(e);
}

function isAssignment(e: ts.Expression): e is ts.BinaryExpression {
  return typescript.isBinaryExpression(e) && e.operatorToken.kind === typescript.SyntaxKind.EqualsToken;
}

/** What `commonJsExports` names `module.exports` itself by when it is no object literal (`module.exports = github`). */
const WHOLE = '\0module.exports';

/** The unknown export a CommonJS module lists when check cannot tell the names of its `module.exports`: any name read may be a door. */
export const ANY_EXPORT = '*';

/** `module.exports`. */
function isModuleExports(e: ts.Expression): boolean {
  return typescript.isPropertyAccessExpression(e) && typescript.isIdentifier(e.expression) && e.expression.text === 'module' && e.name.text === 'exports';
}

/** What `heldBy` answers for a value check cannot tell. */
const UNKNOWN = '\0unknown';

/**
 * The module and export an expression names when it is an imported binding (`github`) or a member
 * of one (`d.github` or `d['github']` of a namespace import; `ns.github`, `b.ns.github` where the export may be a
 * namespace, `export * as ns`): the members past the export are kept for the repo scan to follow.
 */
export function importedBinding(
  cx: FileContext,
  expr: ts.Expression,
  ancestors: readonly ts.Node[],
  anyKey = false,
): { specifier: string; name: string; members: string[] } | undefined {
  const read = importedPath(
    cx.sf,
    expr,
    (local) => {
      const found = declarationAt(local, ancestors, cx.hoisted);
      if (found === undefined) return false;
      // a `const { github } = require('…/doors')`, at the top or in a function, reads its module
      return requireDeclared(found.declaration, local) ?? true;
    },
    anyKey,
  );
  if (read === undefined) return undefined;
  // a namespace import's first member is the export read; a binding itself is one; a whole
  // `require` written itself (`const sh = require('…/shell'); sh.shell = …`) reads `module.exports`, the default
  const path = read.name === '*' ? (read.members.length === 0 && read.required ? ['default'] : read.members) : [read.name, ...read.members];
  // which export `ns[key]` reads is not known: the write stays on an object check cannot tell, as before
  if (path[0] === ANY_KEY) return undefined;
  return path.length > 0 ? { specifier: read.specifier, name: path[0]!, members: path.slice(1) } : undefined;
}

/** A member read by a key check cannot read (`tools[i]`): any element or property of the value. */
export const ANY_KEY = '\0any';

/**
 * The import an expression reads, and the members read on it: `github` of `import { github }`,
 * `d.github` of `import * as d` (`name` then `*`, `members` `['github']`); undefined when the
 * expression reads no import at the top of the file, or `shadowed` says a nearer declaration holds
 * the name.
 */
export function importedPath(
  sf: ts.SourceFile,
  expr: ts.Expression,
  shadowed: (local: string) => boolean | { specifier: string; name: string } = () => false,
  anyKey = false,
): { specifier: string; name: string; members: string[]; required?: true } | undefined {
  const members: string[] = [];
  let e = skipWrappers(expr);
  for (;;) {
    const member = memberName(e) ?? (anyKey && typescript.isElementAccessExpression(e) ? ANY_KEY : undefined);
    if (member === undefined) break;
    members.unshift(member);
    e = skipWrappers((e as ts.PropertyAccessExpression | ts.ElementAccessExpression).expression);
  }
  // `require('…/doors').github` read in place: the module's exports, as a whole require's
  const inPlace = requiredModule(e);
  if (inPlace !== undefined) return shadowed('require') === false ? { specifier: inPlace, name: '*', members, required: true } : undefined;
  if (!typescript.isIdentifier(e)) return undefined;
  const nearer = shadowed(e.text);
  if (nearer !== false) return nearer === true ? undefined : { ...nearer, members, required: true };
  const b = importOf(sf, e.text);
  if (b !== undefined) return { specifier: b.specifier, name: b.name, members };
  const r = requireOf(sf, e.text);
  return r === undefined ? undefined : { specifier: r.specifier, name: r.name, members, required: true };
}

/**
 * The member an access reads: `ns.github`, and `ns['github']` (a string literal is the same read),
 * `tools[0]` (an element of a list held by an export); `ns[key]` is none: which export it reads is
 * not known, so the write stays on an object check cannot tell (`importedPath`'s `anyKey` reads it
 * as any member, for a value the repo scan follows).
 */
function memberName(e: ts.Expression): string | undefined {
  if (typescript.isPropertyAccessExpression(e)) return typescript.isIdentifier(e.name) ? e.name.text : undefined;
  if (!typescript.isElementAccessExpression(e)) return undefined;
  const key = e.argumentExpression;
  return isStringLike(key) || typescript.isNumericLiteral(key) ? key.text : undefined;
}

/** The import declaring `local` at the top of the file: its specifier and the name imported (`default`, `*` for a namespace); a `require` is `requireOf`'s. */
export function importOf(sf: ts.SourceFile, local: string): { specifier: string; name: string } | undefined {
  return importedAs(
    local,
    collectModuleImports(sf).filter((i) => i.syntax === 'import'),
    { everyForm: true },
  );
}

/**
 * The module a top-level `require` declaring `local` reads, as the import it means: `const { a, b: c }
 * = require('…/m')` a named import, `const m = require('…/m')` (and `import m = require('…/m')`) a
 * namespace one (`*`). A CommonJS app's doors cross modules so (issue 40 item 4).
 */
export function requireOf(sf: ts.SourceFile, local: string): { specifier: string; name: string } | undefined {
  return importedAs(
    local,
    collectModuleImports(sf).filter((i) => i.syntax === 'require'),
    { everyForm: true },
  );
}

/**
 * The module and name a `require` declaration gives `local`, wherever it is: `const d = require('…/m')`
 * the whole module (`*`), `const { a, b: c } = require('…/m')` the name; undefined for any other
 * declaration or a nested pattern.
 */
function requireDeclared(d: ts.Node, local: string): { specifier: string; name: string } | undefined {
  if (!typescript.isVariableDeclaration(d)) return undefined;
  const specifier = requiredModule(d.initializer && skipWrappers(d.initializer));
  if (specifier === undefined) return undefined;
  if (typescript.isIdentifier(d.name)) return { specifier, name: '*' };
  if (!typescript.isObjectBindingPattern(d.name)) return undefined;
  for (const el of d.name.elements) {
    if (el.dotDotDotToken || !typescript.isIdentifier(el.name) || el.name.text !== local) continue;
    const p = el.propertyName;
    if (p === undefined) return { specifier, name: local };
    return typescript.isIdentifier(p) || isStringLike(p) ? { specifier, name: p.text } : undefined;
  }
  return undefined;
}

/**
 * A write of an imported binding's property, kept with the doors it would break (`breaks`): the
 * repo scan reports it when the module it comes from exports one of them under that name.
 */
export function importedWrite(cx: FileContext, w: PropertyWrite, ancestors: readonly ts.Node[], breaks: readonly string[]): ImportedWrite | undefined {
  if (breaks.length === 0) return undefined;
  const from = importedBinding(cx, w.target, ancestors, true);
  if (from === undefined) return undefined;
  const out: ImportedWrite = { specifier: from.specifier, name: from.name, breaks: [...breaks], span: spanOf(w.node, cx.sf), property: w.key, form: w.form };
  if (from.members.length > 0) out.members = from.members;
  if (w.inner !== undefined) out.inner = w.inner;
  if (w.via !== undefined) out.via = w.via;
  const t = skipWrappers(w.target);
  out.target = typescript.isIdentifier(t) ? t.text : t.getText(cx.sf);
  return out;
}
