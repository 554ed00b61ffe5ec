import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';

/** Whether a written type is `undefined` or `null`: the alternatives the type readers skip in a union. */
export function isNullishType(t: ts.TypeNode): boolean {
  if (t.kind === typescript.SyntaxKind.UndefinedKeyword) return true;
  return typescript.isLiteralTypeNode(t) && t.literal.kind === typescript.SyntaxKind.NullKeyword;
}
