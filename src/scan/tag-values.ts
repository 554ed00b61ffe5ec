import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';

/*
 * A tagged union's tag values, as a test writes them (`t.kind === Kind.Review`, `t.v === 2`) and as
 * an alternative's type writes them (`kind: Kind.Review`, `v: 2`), in one form both compare in
 * (issue 40 item 4): `s:review` of a string, `n:2` of a number, `b:true` of a boolean, `e:Kind.Review`
 * of an enum member. Two values of different forms (`'review'` beside `Kind.Review`, or members of
 * two enums) may still be equal: they are not comparable, and the narrowing is then unsure.
 */

/** The value a truthiness test (`if (t.sdk)`) leaves. */
export const TRUTHY = 'b:true';

/** The value a test compares a tag with: a string, number or boolean literal, or an enum member `Enum.Member`; undefined for any other. */
export function testedValue(e: ts.Expression): string | undefined {
  if (typescript.isStringLiteralLike(e)) return `s:${e.text}`;
  if (typescript.isNumericLiteral(e)) return `n:${Number(e.text)}`;
  if (e.kind === typescript.SyntaxKind.TrueKeyword) return 'b:true';
  if (e.kind === typescript.SyntaxKind.FalseKeyword) return 'b:false';
  if (typescript.isPropertyAccessExpression(e) && typescript.isIdentifier(e.expression)) return `e:${e.expression.text}.${e.name.text}`;
  return undefined;
}

/** The value an alternative's tag type writes: a string, number or boolean literal type, or an enum member's type; undefined for any other. */
export function writtenValue(t: ts.TypeNode): string | undefined {
  if (typescript.isLiteralTypeNode(t))
    return typescript.isNumericLiteral(t.literal) || typescript.isStringLiteral(t.literal) || isBoolean(t.literal) ? testedValue(t.literal) : undefined;
  if (!typescript.isTypeReferenceNode(t) || t.typeArguments || !typescript.isQualifiedName(t.typeName)) return undefined;
  const { left, right } = t.typeName;
  return typescript.isIdentifier(left) ? `e:${left.text}.${right.text}` : undefined;
}

const isBoolean = (e: ts.Node): e is ts.Expression => e.kind === typescript.SyntaxKind.TrueKeyword || e.kind === typescript.SyntaxKind.FalseKeyword;

/** Whether two values are certainly equal or certainly not by their text: of one form, and for enum members, of one enum. */
export function comparable(a: string, b: string): boolean {
  if (a.slice(0, 2) !== b.slice(0, 2)) return false;
  return !a.startsWith('e:') || enumOf(a) === enumOf(b);
}

const enumOf = (v: string): string => v.slice(0, v.lastIndexOf('.'));
