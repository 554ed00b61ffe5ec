import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { collectModuleImports, importedAs, requiredModule } from '../imports.js';
import { declarationAt, initializerInScope } from '../local-values.js';
import { spanOf } from '../parse.js';
import { accessedName, isStringLike, skipWrappers } from '../syntax.js';
import type { ImportedWrite } from '../types.js';
import { ANY_EXPORT, commonJsExportsOf, WHOLE } from './commonjs-exports.js';
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
  const heldBy = (expr: ts.Expression, ancestors: readonly ts.Node[] = top): string | undefined => {
    const e = skipWrappers(expr);
    if (typescript.isNewExpression(e) && agentClassOf(cx, e.expression) !== undefined) return AGENT_DOOR;
    const held = doorOf(e, ancestors);
    if (held.door !== undefined) return held.door;
    if (held.opaque) return UNKNOWN;
    if (!typescript.isIdentifier(e)) return undefined;
    const init = initializerInScope(e.text, ancestors, cx.hoisted);
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
    }
  }
  for (const x of commonJsExportsOf(cx.sf, cx.hoisted)) {
    const held = x.value === null ? UNKNOWN : heldBy(x.value, x.ancestors);
    if (!x.sure) {
      // written in a function or a branch: not known to be made, so a door there (or any value, for
      // `module.exports` itself) is an export check cannot tell
      if (x.name === WHOLE) unknown.push(ANY_EXPORT);
      else if (held !== undefined) unknown.push(x.name);
    } else if (x.name === WHOLE && held !== undefined && held !== UNKNOWN) {
      // `module.exports = door`: the door is what `require` returns and an ES import reads as the
      // default, its names the door's own; any other value may hold a door under any name
      add('default', held);
    } else if (x.name === WHOLE) unknown.push(ANY_EXPORT);
    else add(x.name, held);
  }
  return { ...(Object.keys(out).length > 0 ? { doors: out } : {}), ...(unknown.length > 0 ? { unknown } : {}) };
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
  shadowed: (local: string) => boolean | { specifier: string; name: string; members?: string[] } = () => false,
  anyKey = false,
): { specifier: string; name: string; members: string[]; required?: true } | undefined {
  const members: string[] = [];
  let e = skipWrappers(expr);
  for (;;) {
    // `ns.github`, `ns['github']` (the same read), `tools[0]` (an element of a list held by an export);
    // `ns[key]`: which export it reads is not known, unless `anyKey` reads it as any member
    const member = accessedName(e, true) ?? (anyKey && typescript.isElementAccessExpression(e) ? ANY_KEY : undefined);
    if (member === undefined) break;
    members.unshift(member);
    e = skipWrappers((e as ts.PropertyAccessExpression | ts.ElementAccessExpression).expression);
  }
  // `require('…/doors').github` read in place: the module's exports, as a whole require's
  const inPlace = requiredModule(e);
  if (inPlace !== undefined) return shadowed('require') === false ? { specifier: inPlace, name: '*', members, required: true } : undefined;
  if (!typescript.isIdentifier(e)) return undefined;
  const nearer = shadowed(e.text);
  if (nearer !== false)
    return nearer === true ? undefined : { specifier: nearer.specifier, name: nearer.name, members: [...(nearer.members ?? []), ...members], required: true };
  const b = importOf(sf, e.text);
  if (b !== undefined) return { specifier: b.specifier, name: b.name, members };
  const r = requireOf(sf, e.text);
  return r === undefined ? undefined : { specifier: r.specifier, name: r.name, members, required: true };
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
 * the whole module (`*`), `const { a, b: c } = require('…/m')` the name, `const { a: { b } } =
 * require('…/m')` the name `a` and the member `b` read on it; undefined for any other declaration.
 */
function requireDeclared(d: ts.Node, local: string): { specifier: string; name: string; members?: string[] } | undefined {
  if (!typescript.isVariableDeclaration(d)) return undefined;
  const specifier = requiredModule(d.initializer && skipWrappers(d.initializer));
  if (specifier === undefined) return undefined;
  if (typescript.isIdentifier(d.name)) return { specifier, name: '*' };
  if (!typescript.isObjectBindingPattern(d.name)) return undefined;
  const path = bindingPath(d.name, local);
  if (path === undefined) return undefined;
  const [name, ...members] = path as [string, ...string[]];
  return members.length > 0 ? { specifier, name, members } : { specifier, name };
}

/** The keys from an object pattern down to the binding `local` (`{ a: { b: local } }`: `a`, `b`); undefined when it is not bound there by keys check reads (a computed key, a list pattern). */
function bindingPath(pattern: ts.ObjectBindingPattern, local: string): string[] | undefined {
  for (const el of pattern.elements) {
    if (el.dotDotDotToken) continue;
    const p = el.propertyName;
    const key =
      p === undefined ? (typescript.isIdentifier(el.name) ? el.name.text : undefined) : typescript.isIdentifier(p) || isStringLike(p) ? p.text : undefined;
    if (typescript.isIdentifier(el.name)) {
      if (el.name.text === local) return key === undefined ? undefined : [key];
    } else if (typescript.isObjectBindingPattern(el.name)) {
      const inner = bindingPath(el.name, local);
      if (inner !== undefined) return key === undefined ? undefined : [key, ...inner];
    }
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
