import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { skipWrappers } from '../syntax.js';
import type { FileContext } from './context.js';
import type { DoorOfValue } from './door-exports.js';

// A door made inside a value of a module using the SDK (issue 40 item 4, "no false green"):
// `export const tools = [protectShellTool(…)]`, then `tools[0].shell = evil` in a file naming no SDK.
// The module's scan names each door made in the lists and objects of its top-level values, by where
// its expression starts; the repo scan (imported-door-writes.ts `aliasedImports`) follows a write's
// members into the export's value and asks this record at the element it reaches.

/** How many values of lists and objects a file's top-level values are read through (a larger table is read no further). */
const HELD_VALUES = 2000;

/** The doors made inside the lists and objects the file's top-level variables and default export hold, or undefined for none. */
export function heldDoorsOf(cx: FileContext, doorOf: DoorOfValue): { at: Record<string, string>; holders: string[] } | undefined {
  const at: Record<string, string> = {};
  const holders = new Set<string>();
  const top: readonly ts.Node[] = [cx.sf];
  let budget = HELD_VALUES;
  // `inside`: the value is an element or a property's value (the top-level value itself is `exportedDoors`')
  const visit = (expr: ts.Expression, holder: string, inside: boolean): void => {
    if (--budget < 0) return;
    const e = skipWrappers(expr);
    if (typescript.isArrayLiteralExpression(e)) {
      for (const el of e.elements) if (!typescript.isSpreadElement(el) && !typescript.isOmittedExpression(el)) visit(el, holder, true);
      return;
    }
    if (typescript.isObjectLiteralExpression(e)) {
      for (const p of e.properties) {
        if (typescript.isPropertyAssignment(p)) visit(p.initializer, holder, true);
        else if (typescript.isShorthandPropertyAssignment(p)) visit(p.name, holder, true);
      }
      return;
    }
    // only what may make or name a door is asked (a literal, a function, a template is none)
    if (!inside || !(typescript.isCallExpression(e) || typescript.isNewExpression(e) || typescript.isIdentifier(e) || typescript.isPropertyAccessExpression(e)))
      return;
    const door = doorOf(e, top).door;
    if (door === undefined) return;
    at[String(e.getStart(cx.sf))] = door;
    holders.add(holder);
  };
  for (const st of cx.sf.statements) {
    if (typescript.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) if (typescript.isIdentifier(d.name) && d.initializer) visit(d.initializer, d.name.text, false);
    } else if (typescript.isExportAssignment(st) && !st.isExportEquals) visit(st.expression, 'default', false);
  }
  return holders.size > 0 ? { at, holders: [...holders] } : undefined;
}
