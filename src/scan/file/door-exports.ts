import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { collectModuleImports, importedAs } from '../imports.js';
import { declarationAt, initializerInScope } from '../local-values.js';
import { spanOf } from '../parse.js';
import { skipWrappers } from '../syntax.js';
import type { ImportedWrite } from '../types.js';
import { agentClassOf, type FileContext } from './context.js';
import type { PropertyWrite } from './property-writes.js';

// A door made in one module and written in another (issue 40 item 4): the module that makes it
// names the doors it exports, the module that writes it names the imported binding written and
// which doors that write would break; the repo scan (imported-door-writes.ts) joins the two.

/** What an exported agent is called among the doors: the SDK's runner takes its tools from its `getAllTools`. */
export const AGENT_DOOR = 'Agent';

/** The door a top-level value holds: `door` of door-writes.ts, or an SDK agent made with `new`. */
export type DoorOfValue = (expr: ts.Expression, ancestors: readonly ts.Node[]) => string | undefined;

/** The doors the file exports, by exported name: `export const github = protectMcpServer(...)`, `export { sh as shell }`, `export default server` (as `default`). */
export function exportedDoors(cx: FileContext, doorOf: DoorOfValue): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  const top: readonly ts.Node[] = [cx.sf];
  const heldBy = (expr: ts.Expression): string | undefined => {
    const e = skipWrappers(expr);
    if (typescript.isNewExpression(e) && agentClassOf(cx, e.expression) !== undefined) return AGENT_DOOR;
    const door = doorOf(e, top);
    if (door !== undefined || !typescript.isIdentifier(e)) return door;
    const held = initializerInScope(e.text, top, cx.hoisted);
    const inner = held && skipWrappers(held.init);
    return inner && typescript.isNewExpression(inner) && agentClassOf(cx, inner.expression) !== undefined ? AGENT_DOOR : undefined;
  };
  for (const st of cx.sf.statements) {
    if (typescript.isVariableStatement(st) && st.modifiers?.some((m) => m.kind === typescript.SyntaxKind.ExportKeyword)) {
      for (const d of st.declarationList.declarations) {
        const door = typescript.isIdentifier(d.name) && d.initializer ? heldBy(d.initializer) : undefined;
        if (door !== undefined) out[(d.name as ts.Identifier).text] = door;
      }
    } else if (typescript.isExportAssignment(st) && !st.isExportEquals) {
      // `export default protectMcpServer(...)`, `export default server`
      const door = heldBy(st.expression);
      if (door !== undefined) out.default = door;
    } else if (typescript.isExportDeclaration(st) && !st.moduleSpecifier && st.exportClause && typescript.isNamedExports(st.exportClause)) {
      for (const el of st.exportClause.elements) {
        const door = heldBy((el.propertyName ?? el.name) as ts.Identifier);
        if (door !== undefined) out[el.name.text] = door;
      }
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The module and export an expression names when it is an imported binding (`github`) or a member of an imported namespace (`d.github`). */
function importedBinding(cx: FileContext, expr: ts.Expression, ancestors: readonly ts.Node[]): { specifier: string; name: string } | undefined {
  const e = skipWrappers(expr);
  if (typescript.isIdentifier(e)) {
    const b = importOf(cx.sf, e.text);
    return b && b.name !== '*' && declarationAt(e.text, ancestors, cx.hoisted) === undefined ? b : undefined;
  }
  if (typescript.isPropertyAccessExpression(e) && typescript.isIdentifier(e.expression)) {
    const b = importOf(cx.sf, e.expression.text);
    return b?.name === '*' && declarationAt(e.expression.text, ancestors, cx.hoisted) === undefined ? { specifier: b.specifier, name: e.name.text } : undefined;
  }
  return undefined;
}

/** The import declaring `local` at the top of the file: its specifier and the name imported (`default`, `*` for a namespace); `require` bindings are not read. */
export function importOf(sf: ts.SourceFile, local: string): { specifier: string; name: string } | undefined {
  return importedAs(
    local,
    collectModuleImports(sf).filter((i) => i.syntax === 'import'),
    { everyForm: true },
  );
}

/**
 * A write of an imported binding's property, kept with the doors it would break (`breaks`): the
 * repo scan reports it when the module it comes from exports one of them under that name.
 */
export function importedWrite(cx: FileContext, w: PropertyWrite, ancestors: readonly ts.Node[], breaks: readonly string[]): ImportedWrite | undefined {
  if (breaks.length === 0) return undefined;
  const from = importedBinding(cx, w.target, ancestors);
  if (from === undefined) return undefined;
  const out: ImportedWrite = { specifier: from.specifier, name: from.name, breaks: [...breaks], span: spanOf(w.node, cx.sf), property: w.key, form: w.form };
  if (w.inner !== undefined) out.inner = w.inner;
  if (w.via !== undefined) out.via = w.via;
  const t = skipWrappers(w.target);
  out.target = typescript.isIdentifier(t) ? t.text : t.getText(cx.sf);
  return out;
}
