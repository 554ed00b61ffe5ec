import type { NameSource, ToolCallOptions } from '../types.js';
import { isTopLevel, type FileContext } from './context.js';

// A tool's `name` option: a literal, a `const` of this file, or an exported `const` of a relative module.

export interface NameTarget {
  name?: string;
  nameSource?: NameSource;
  nameUnresolved?: string;
}

/** Sets the tool's name on `target`, or why it cannot be known. */
export function resolveName(cx: FileContext, opts: ToolCallOptions, target: NameTarget): void {
  const prop = opts.properties.name;
  if (!prop) {
    if (!opts.span) target.nameUnresolved = 'the options are not an object literal';
    else if (opts.hasSpread) target.nameUnresolved = 'the options spread in other properties, and `name` is not written among them';
    return;
  }
  if (prop.stringValue !== undefined) {
    target.name = prop.stringValue;
    target.nameSource = 'literal';
    return;
  }
  if (prop.identifier === undefined) {
    target.nameUnresolved = 'the `name` is not a string literal or a `const` holding one';
    return;
  }
  const id = prop.identifier;
  if (isTopLevel(cx, id) && cx.constStrings.has(id)) {
    target.name = cx.constStrings.get(id)!;
    target.nameSource = 'const';
    return;
  }
  const imp = lookupImport(cx, id);
  if (imp && (imp.specifier.startsWith('./') || imp.specifier.startsWith('../'))) {
    const v = cx.options.importedConst?.(imp.specifier, cx.fileAbs, imp.imported);
    if (v !== undefined) {
      target.name = v;
      target.nameSource = 'imported-const';
    } else target.nameUnresolved = `\`${id}\` is imported from '${imp.specifier}', where it is not an exported \`const\` string`;
    return;
  }
  target.nameUnresolved = `\`${id}\` is not a \`const\` string of this file or of a relative module`;
}

function lookupImport(cx: FileContext, local: string): { specifier: string; imported: string } | undefined {
  if (!isTopLevel(cx, local)) return undefined;
  for (const imp of cx.moduleImports) {
    if (imp.typeOnly) continue;
    const spec = imp.named.find((n) => n.local === local && !n.typeOnly);
    if (spec) return { specifier: imp.module, imported: spec.imported };
  }
  return undefined;
}
