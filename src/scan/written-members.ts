import type { ts } from 'ts-morph';
import { declarationOf, unwrapValue } from './local-values.js';
import { type HeldType, mapGetType } from './map-values.js';
import { thisFieldType } from './this-fields.js';
import type { HoistedVars } from './scope.js';
import { type Narrowing, narrowing } from './tag-narrowing.js';
import { type InnerTypeDeclaration, innerTypeDeclaration } from './type-scope.js';
import { typescript } from './typescript.js';
import type { MergedInterface, SdkTypeNames } from './written-sdk-type.js';

/*
 * A property's written type through the object's written type (issue 40: an approval handler's
 * `entry.state.approve(entry.item)` with `const entry = pending.get(id)!` over `const pending = new
 * Map<string, { state: RunState<…>; item: RunToolApprovalItem }>()`). The object is a name whose
 * declaration writes a type, or reads a `Map`'s value (`m.get(k)`) whose type arguments are
 * written, or `m.get(k)` itself, or a class field with a written type (`this.entry`); a type is an object literal type, a union of them, or an alias or interface the file
 * declares (at its top, or in the function, class or block around the use: type-scope.ts), or one
 * another file of the app exports (imported-types.ts, read with that file's names). Nothing is
 * inferred: what is not written is not followed. A union gives the member's type in each
 * alternative that writes it and the tag tests around the use leave (tag-narrowing.ts), and the
 * reader asks that each be the SDK's (any one, when the narrowing is unsure).
 */

/** How many aliases are followed from one type (`type A = B; type B = {…}`). */
const ALIAS_DEPTH = 4;

/** A written type and the file it is written in, whose imports say what its names are. */
export interface WrittenType {
  type: ts.TypeNode;
  sf: ts.SourceFile;
  names: SdkTypeNames;
  /** Set when the object is a union a test around the use may or may not narrow: any alternative that is the SDK's makes the answer the SDK's. */
  unsure?: boolean;
}

/** The written types of `obj.member`, one an alternative of the object's type, or undefined when the object's type does not write it. */
export function writtenMemberType(
  obj: ts.Expression,
  member: string,
  ancestors: readonly ts.Node[],
  file: { sf: ts.SourceFile; names: SdkTypeNames },
  hoisted?: HoistedVars,
): WrittenType[] | undefined {
  const e = unwrapValue(obj);
  const held = writtenTypeOf(e, ancestors, hoisted, file.names);
  const narrow = held && narrowing(e, ancestors, file.sf, hoisted);
  const found = held && memberIn(held.type, member, held.from ?? file, 0, narrow);
  if (!found || found.length === 0) return undefined;
  // a test of the object not read as certain (or the object assigned again): any alternative left may be the one
  return narrow?.unsure ? found.map((t) => ({ ...t, unsure: true })) : found;
}

function writtenTypeOf(e: ts.Expression, ancestors: readonly ts.Node[], hoisted: HoistedVars | undefined, names: SdkTypeNames): HeldType | undefined {
  // `this.entry` of a typed field, `pending.get(id)!` read in place
  const field = thisFieldType(e, ancestors);
  if (field) return { type: field };
  if (typescript.isCallExpression(e)) return mapGetType(e, ancestors, hoisted, names);
  if (!typescript.isIdentifier(e)) return undefined;
  const decl = declarationOf(e.text, ancestors, hoisted);
  if (!decl || !(typescript.isVariableDeclaration(decl) || typescript.isParameter(decl)) || !typescript.isIdentifier(decl.name)) return undefined;
  if (decl.type) return { type: decl.type };
  // `const entry = m.get(k)`: the value type of the map `m` names
  return decl.initializer && mapGetType(decl.initializer, ancestors, hoisted, names);
}

type TypeFile = { sf: ts.SourceFile; names: SdkTypeNames };

function memberIn(type: ts.TypeNode, member: string, file: TypeFile, depth: number, narrow?: Narrowing): WrittenType[] | undefined {
  if (typescript.isParenthesizedTypeNode(type)) return memberIn(type.type, member, file, depth, narrow);
  // every alternative that writes the member: the first alone would take a tagged union's app kind for its SDK kind;
  // in a branch that tests the tag (`if (t.kind === 'agent')`), only the alternatives it leaves
  if (typescript.isUnionTypeNode(type))
    return type.types.filter((t) => !narrow || keeps(t, narrow, file, depth)).flatMap((t) => memberIn(t, member, file, depth) ?? []);
  if (typescript.isTypeLiteralNode(type)) return propertyType(type.members, member, file);
  if (!typescript.isTypeReferenceNode(type) || depth >= ALIAS_DEPTH) return undefined;
  const ref = type.typeName;
  if (typescript.isQualifiedName(ref))
    // `t.Pending` of `import type * as t from './types.js'`
    return typescript.isIdentifier(ref.left) ? importedMember(file.names.imported?.(ref.right.text, ref.left.text), member, depth, narrow) : undefined;
  // a type the function, class or block declares hides the file's of the same name
  const inner = innerTypeDeclaration(ref.text, type, file.sf);
  if (inner !== undefined) return innerMember(inner, member, file, depth, narrow);
  return namedMember(ref.text, member, file, depth, narrow);
}

/** `member` of the type the file names `name`: an alias or interface it declares at its top, else one another file of the app exports. */
function namedMember(name: string, member: string, file: TypeFile, depth: number, narrow?: Narrowing): WrittenType[] | undefined {
  for (const s of file.sf.statements) {
    if (typescript.isTypeAliasDeclaration(s) && s.name.text === name) return memberIn(s.type, member, file, depth + 1, narrow);
    if (typescript.isInterfaceDeclaration(s) && s.name.text === name) return interfaceMember(s, member, file, depth);
  }
  // a type another file of the app exports (`import type { Pending } from './types.js'`)
  return importedMember(file.names.imported?.(name), member, depth, narrow);
}

/**
 * `member` of an interface: its own property, else one a base it extends writes (`interface Pending
 * extends Base`, Base declared in the file or imported from another file of the app, read there
 * with that file's names). The first base that writes it answers (TypeScript refuses two bases
 * that write it differently); each hop is one of the bounded depth, so a cycle of bases ends.
 */
function interfaceMember(decl: ts.InterfaceDeclaration, member: string, file: TypeFile, depth: number): WrittenType[] | undefined {
  const own = propertyType(decl.members, member, file);
  if (own !== undefined || depth >= ALIAS_DEPTH) return own;
  for (const base of extendedTypes(decl)) {
    const e = base.expression;
    const found = typescript.isIdentifier(e)
      ? namedMember(e.text, member, file, depth + 1)
      : // `extends t.Base` of `import type * as t from './base.js'`
        typescript.isPropertyAccessExpression(e) && typescript.isIdentifier(e.expression)
        ? importedMember(file.names.imported?.(e.name.text, e.expression.text), member, depth + 1)
        : undefined;
    if (found !== undefined) return found;
  }
  return undefined;
}

/** `member` as an interface another file's `declare module` merges in writes it (module-augmentations.ts). */
function mergedMember(merged: readonly MergedInterface[] | undefined, member: string, depth: number): WrittenType[] | undefined {
  for (const m of merged ?? []) {
    const found = interfaceMember(m.decl, member, { sf: m.sf, names: m.names }, depth);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The types a declaration's `extends` clause names. */
function extendedTypes(decl: ts.InterfaceDeclaration | ts.ClassDeclaration): readonly ts.ExpressionWithTypeArguments[] {
  return decl.heritageClauses?.find((h) => h.token === typescript.SyntaxKind.ExtendsKeyword)?.types ?? [];
}

/** `member` of a type declared inside the file: a local alias, interface or class, or a type parameter's constraint; an enum writes none. */
function innerMember(inner: InnerTypeDeclaration, member: string, file: TypeFile, depth: number, narrow?: Narrowing): WrittenType[] | undefined {
  if (typescript.isTypeAliasDeclaration(inner)) return memberIn(inner.type, member, file, depth + 1, narrow);
  if (typescript.isTypeParameterDeclaration(inner)) return inner.constraint && memberIn(inner.constraint, member, file, depth + 1, narrow);
  if (typescript.isInterfaceDeclaration(inner)) return interfaceMember(inner, member, file, depth);
  const type = typescript.isClassDeclaration(inner) ? classPropertyType(inner, member) : undefined;
  return type && [{ type, ...file }];
}

function importedMember(
  found: ReturnType<NonNullable<SdkTypeNames['imported']>>,
  member: string,
  depth: number,
  narrow?: Narrowing,
): WrittenType[] | undefined {
  if (found?.kind !== 'declared') return undefined;
  const there = { sf: found.sf, names: found.names };
  const decl = found.decl;
  if (typescript.isTypeAliasDeclaration(decl)) return memberIn(decl.type, member, there, depth + 1, narrow);
  if (typescript.isInterfaceDeclaration(decl)) return interfaceMember(decl, member, there, depth) ?? mergedMember(found.merged, member, depth);
  const type = classPropertyType(decl, member);
  return type && [{ type, ...there }];
}

/** The written type of a class's property declared `name` (a field with no written type: undefined). */
export function classPropertyType(cls: ts.ClassDeclaration, name: string): ts.TypeNode | undefined {
  for (const m of cls.members) if (typescript.isPropertyDeclaration(m) && typescript.isIdentifier(m.name) && m.name.text === name) return m.type;
  return undefined;
}

function propertyType(members: ts.NodeArray<ts.TypeElement>, member: string, file: TypeFile): WrittenType[] | undefined {
  for (const m of members)
    if (typescript.isPropertySignature(m) && m.name && typescript.isIdentifier(m.name) && m.name.text === member)
      return m.type ? [{ type: m.type, sf: file.sf, names: file.names }] : undefined;
  return undefined;
}

/** Whether an alternative may hold the narrowed tags' values: one whose tag is written as another string literal only is left out. */
function keeps(alt: ts.TypeNode, narrow: Narrowing, file: TypeFile, depth: number): boolean {
  return narrow.constraints.every((test) => {
    const tags = memberIn(alt, test.key, file, depth);
    if (tags?.length !== 1) return true;
    const t = tags[0]!.type;
    if (!(typescript.isLiteralTypeNode(t) && typescript.isStringLiteral(t.literal))) return true;
    return test.values.includes(t.literal.text) !== (test.excluded === true);
  });
}
