import type { ts } from 'ts-morph';
import { holdsDoor } from '../imports.js';
import { isReferencePosition } from '../syntax.js';
import { sdkValueOf } from '../values.js';
import { isTopLevel, lookupName, type FileContext } from './context.js';
import { followValue, heldOf } from './escapes.js';

// Identifiers: how often an import is used, and door values that escape where check cannot follow.

/** One more reference to a top-level import (an import nothing reads is removed by the codemod). */
export function countReference(cx: FileContext, id: ts.Identifier): void {
  const parent = cx.ancestors[cx.ancestors.length - 1];
  const b = cx.bindings.get(id.text);
  if (!b || !parent || !isReferencePosition(id, parent) || !isTopLevel(cx, id.text)) return;
  if (b.kind === 'generated-namespace' || !b.spec) return;
  b.spec.references++;
}

/**
 * Fail closed: an identifier that stands for a door export (`tool`, `handoff`, `Agent`, ...) or a
 * module exporting one must be used in a way the scanner follows (file/escapes.ts).
 */
export function checkEscape(cx: FileContext, id: ts.Identifier): void {
  const parent = cx.ancestors[cx.ancestors.length - 1];
  if (!parent) return;
  // asked of every identifier: the name's binding first (a map lookup, most names hold no door)
  const v = sdkValueOf(lookupName(cx, id.text));
  const held = v && holdsDoor(v) ? heldOf(v) : undefined;
  if (!held || !isReferencePosition(id, parent)) return;
  followValue(cx, id, held, id.text);
}
