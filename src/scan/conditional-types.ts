import type { ts } from 'ts-morph';
import { boundParameter, WALK_DEPTH } from './type-trail.js';
import { typescript } from './typescript.js';
import type { TypeFile, WrittenType } from './written-type.js';

/*
 * The branch a conditional type takes (issue 40 item 4): `type StateOf<K> = K extends 'agent' ?
 * RunState : Review` read as `StateOf<'agent'>` is the SDK's `RunState`. It is decided only where
 * both sides are literals as written (`'agent'`, `1`, `true`, a union of them), a bound type
 * parameter read as its argument. Any other test is one TypeScript may decide or defer: either
 * branch may be the type, so both are given, unsure, and the SDK's in either makes a finding.
 */

/** The branches a conditional type may give, read where it is written, and whether the choice is unsure. */
export function conditionalBranches(type: ts.ConditionalTypeNode, file: TypeFile): { branches: WrittenType[]; unsure: boolean } {
  const yes: WrittenType = { ...file, type: type.trueType };
  const no: WrittenType = { ...file, type: type.falseType };
  const checked = literalsOf(type.checkType, file, 0);
  const against = literalsOf(type.extendsType, file, 0);
  if (checked === undefined || against === undefined) return { branches: [yes, no], unsure: true };
  const inside = checked.map((k) => against.includes(k));
  // a bare type parameter distributes over its argument's alternatives (`StateOf<'agent' | 'review'>` gives both branches)
  const distributes = boundParameter(type.checkType, file) !== undefined;
  const takesYes = distributes ? inside.some(Boolean) : inside.every(Boolean);
  const takesNo = distributes ? inside.some((x) => !x) : !takesYes;
  return { branches: [...(takesYes ? [yes] : []), ...(takesNo ? [no] : [])], unsure: false };
}

/**
 * The literal values a written type is, each as a key (`s:agent`, `n:1`, `true`): a string, number or
 * boolean literal type, a union of them, a bound type parameter's argument; undefined when any part is no literal.
 */
function literalsOf(type: ts.TypeNode, file: TypeFile, depth: number): string[] | undefined {
  if (depth >= WALK_DEPTH) return undefined;
  if (typescript.isParenthesizedTypeNode(type)) return literalsOf(type.type, file, depth + 1);
  const bound = boundParameter(type, file);
  if (bound) return literalsOf(bound.type, bound, depth + 1);
  if (typescript.isUnionTypeNode(type)) {
    const parts = type.types.map((u) => literalsOf(u, file, depth + 1));
    return parts.every((p) => p !== undefined) ? parts.flat() : undefined;
  }
  const key = typescript.isLiteralTypeNode(type) ? literalKey(type.literal) : undefined;
  return key === undefined ? undefined : [key];
}

function literalKey(l: ts.LiteralTypeNode['literal']): string | undefined {
  if (typescript.isStringLiteralLike(l)) return `s:${l.text}`;
  if (typescript.isNumericLiteral(l)) return `n:${Number(l.text)}`;
  // `true`, `false`; any other (`null`, `-1`) is not read, and the test is unsure
  return l.kind === typescript.SyntaxKind.TrueKeyword || l.kind === typescript.SyntaxKind.FalseKeyword
    ? String(l.kind === typescript.SyntaxKind.TrueKeyword)
    : undefined;
}
