import type { ts } from 'ts-morph';
import { declarationOf, unwrapValue } from './local-values.js';
import { mapGetType } from './map-values.js';
import { thisFieldType } from './this-fields.js';
import type { HoistedVars } from './scope.js';
import { typescript } from './typescript.js';

/*
 * A property's written type through the object's written type (issue 40: an approval handler's
 * `entry.state.approve(entry.item)` with `const entry = pending.get(id)!` over `const pending = new
 * Map<string, { state: RunState<…>; item: RunToolApprovalItem }>()`). The object is a name whose
 * declaration writes a type, or reads a `Map`'s value (`m.get(k)`) whose type arguments are
 * written, or `m.get(k)` itself, or a class field with a written type (`this.entry`); a type is an object literal type, a union of them, or an alias or interface the file
 * declares at its top. Nothing is inferred: what is not written is not followed. A union gives the
 * member's type in each alternative that writes it (a tagged union's `t.state` is every kind's
 * `state`: the narrowing is not read), and the reader asks that each be the SDK's.
 */

/** How many aliases are followed from one type (`type A = B; type B = {…}`). */
const ALIAS_DEPTH = 4;

/** The written types of `obj.member`, one an alternative of the object's type, or undefined when the object's type does not write it. */
export function writtenMemberType(
  obj: ts.Expression,
  member: string,
  ancestors: readonly ts.Node[],
  sf: ts.SourceFile,
  hoisted?: HoistedVars,
): ts.TypeNode[] | undefined {
  const type = writtenTypeOf(unwrapValue(obj), ancestors, hoisted);
  const found = type && memberIn(type, member, sf, 0);
  return found && found.length > 0 ? found : undefined;
}

function writtenTypeOf(e: ts.Expression, ancestors: readonly ts.Node[], hoisted: HoistedVars | undefined): ts.TypeNode | undefined {
  // `this.entry` of a typed field, `pending.get(id)!` read in place
  const field = thisFieldType(e, ancestors);
  if (field) return field;
  if (typescript.isCallExpression(e)) return mapGetType(e, ancestors, hoisted);
  if (!typescript.isIdentifier(e)) return undefined;
  const decl = declarationOf(e.text, ancestors, hoisted);
  if (!decl || !(typescript.isVariableDeclaration(decl) || typescript.isParameter(decl)) || !typescript.isIdentifier(decl.name)) return undefined;
  if (decl.type) return decl.type;
  // `const entry = m.get(k)`: the value type of the map `m` names
  return decl.initializer && mapGetType(decl.initializer, ancestors, hoisted);
}

function memberIn(type: ts.TypeNode, member: string, sf: ts.SourceFile, depth: number): ts.TypeNode[] | undefined {
  if (typescript.isParenthesizedTypeNode(type)) return memberIn(type.type, member, sf, depth);
  // every alternative that writes the member: the first alone would take a tagged union's app kind for its SDK kind
  if (typescript.isUnionTypeNode(type)) return type.types.flatMap((t) => memberIn(t, member, sf, depth) ?? []);
  if (typescript.isTypeLiteralNode(type)) return propertyType(type.members, member);
  if (!typescript.isTypeReferenceNode(type) || !typescript.isIdentifier(type.typeName) || depth >= ALIAS_DEPTH) return undefined;
  const name = type.typeName.text;
  for (const s of sf.statements) {
    if (typescript.isTypeAliasDeclaration(s) && s.name.text === name) return memberIn(s.type, member, sf, depth + 1);
    if (typescript.isInterfaceDeclaration(s) && s.name.text === name) return propertyType(s.members, member);
  }
  return undefined;
}

function propertyType(members: ts.NodeArray<ts.TypeElement>, member: string): ts.TypeNode[] | undefined {
  for (const m of members)
    if (typescript.isPropertySignature(m) && m.name && typescript.isIdentifier(m.name) && m.name.text === member) return m.type ? [m.type] : undefined;
  return undefined;
}
