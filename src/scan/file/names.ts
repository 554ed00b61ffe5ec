import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { initializerInScope } from '../local-values.js';
import { isStringLike, skipWrappers } from '../syntax.js';
import type { NameSource, ToolCallOptions } from '../types.js';
import { isTopLevel, type FileContext } from './context.js';

// A tool's `name` option: a literal, a `const` of this file, or an exported `const` of a relative module;
// a `const` may also be a string property of an object literal `as const` (`NAMES.refund`).

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
  // `NAME`, or `NAMES.key` of an `as const` object: looked up as `NAMES.key` (topLevelConstStrings)
  const id = prop.identifier ?? prop.member?.object;
  if (id === undefined) {
    target.nameUnresolved = 'the `name` is not a string literal or a `const` holding one';
    return;
  }
  const key = prop.member ? `.${prop.member.key}` : '';
  const written = id + key;
  if (isTopLevel(cx, id) && cx.constStrings.has(written)) {
    target.name = cx.constStrings.get(written)!;
    target.nameSource = 'const';
    return;
  }
  const what = key ? 'a string property of an exported `as const` object' : 'an exported `const` string';
  const imp = lookupImport(cx, id);
  if (imp && (imp.specifier.startsWith('./') || imp.specifier.startsWith('../'))) {
    const v = cx.options.importedConst?.(imp.specifier, cx.fileAbs, imp.imported + key);
    if (v !== undefined) {
      target.name = v;
      target.nameSource = 'imported-const';
    } else target.nameUnresolved = `\`${written}\` is imported from '${imp.specifier}', where it is not ${what}`;
    return;
  }
  target.nameUnresolved = key
    ? `\`${written}\` is not a string property of an \`as const\` object of this file or of a relative module`
    : `\`${id}\` is not a \`const\` string of this file or of a relative module`;
}

/** The module and exported name a top-level local name is imported as (a value import). */
export function lookupImport(cx: FileContext, local: string): { specifier: string; imported: string } | undefined {
  if (!isTopLevel(cx, local)) return undefined;
  for (const imp of cx.moduleImports) {
    if (imp.typeOnly) continue;
    const spec = imp.named.find((n) => n.local === local && !n.typeOnly);
    if (spec) return { specifier: imp.module, imported: spec.imported };
  }
  return undefined;
}

/**
 * The string an expression holds where `ancestors` end: a literal (`'function' as const`), a
 * `const` holding one in scope (followed a few steps), `NAMES.key` of a top-level `as const`
 * object or enum, or the same exported by a relative module. Undefined when it cannot be known.
 */
export function constStringOf(cx: FileContext, expr: ts.Expression, ancestors: readonly ts.Node[] = cx.ancestors, depth = 0): string | undefined {
  const e = skipWrappers(expr);
  if (isStringLike(e)) return e.text;
  if (depth > 4) return undefined;
  if (typescript.isPropertyAccessExpression(e) && typescript.isIdentifier(e.expression) && isTopLevel(cx, e.expression.text)) {
    const local = cx.constStrings.get(`${e.expression.text}.${e.name.text}`);
    // `Verdict.Approve` of an enum, `KEYS.yes` of an `as const` object, exported by a relative module
    const imp = local === undefined ? lookupImport(cx, e.expression.text) : undefined;
    return imp && isRelative(imp.specifier) ? cx.options.importedConst?.(imp.specifier, cx.fileAbs, `${imp.imported}.${e.name.text}`) : local;
  }
  if (!typescript.isIdentifier(e)) return undefined;
  const scoped = initializerInScope(e.text, ancestors, cx.hoisted);
  if (scoped) return scoped.constant ? constStringOf(cx, scoped.init, scoped.ancestors, depth + 1) : undefined;
  const imp = lookupImport(cx, e.text);
  if (imp && isRelative(imp.specifier)) return cx.options.importedConst?.(imp.specifier, cx.fileAbs, imp.imported);
  return undefined;
}

const isRelative = (specifier: string): boolean => specifier.startsWith('./') || specifier.startsWith('../');
