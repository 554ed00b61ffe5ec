import type { ts } from 'ts-morph';
import { boundTypes, castType } from './bound-types.js';
import { declarationOf, unwrapValue } from './local-values.js';
import { type HeldType, mapGetType } from './map-values.js';
import { thisFieldType } from './this-fields.js';
import type { HoistedVars } from './scope.js';
import { type Narrowing, narrowing } from './tag-narrowing.js';
import { comparable, writtenValue } from './tag-values.js';
import { type InnerTypeDeclaration, innerTypeDeclaration } from './type-scope.js';
import type { TypeFile, WrittenType } from './written-type.js';
import { declarationFile, elementTypes, globalMember, settle, shapeMember } from './type-shapes.js';
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

export type { WrittenType } from './written-type.js';

/** The written types of `obj.member`, one an alternative of the object's type, or undefined when the object's type does not write it. */
export function writtenMemberType(
  obj: ts.Expression,
  member: string,
  ancestors: readonly ts.Node[],
  file: { sf: ts.SourceFile; names: SdkTypeNames },
  hoisted?: HoistedVars,
): WrittenType[] | undefined {
  return writtenMember(obj, member, ancestors, file, hoisted, 0);
}

/** How many members and elements deep an object is read (`p.job.state`, `ps[0].state`). */
const ACCESS_DEPTH = 6;

function writtenMember(
  obj: ts.Expression,
  member: string,
  ancestors: readonly ts.Node[],
  file: TypeFile,
  hoisted: HoistedVars | undefined,
  depth: number,
): WrittenType[] | undefined {
  const e = unwrapValue(obj);
  // `(x as Pending).state`: the type the cast writes, else the value's own
  const cast = castType(obj);
  const held = cast ? [{ ...file, type: cast }] : writtenTypesOf(e, ancestors, file, hoisted, depth);
  const narrow = held && narrowing(e, ancestors, file.sf, hoisted);
  const found = held
    ?.flatMap((h) => memberIn(h.type, member, h, 0, narrow) ?? [])
    .flatMap((t) => settle(t, memberIn).map((s) => (t.unsure ? { ...s, unsure: true } : s)));
  if (!found || found.length === 0) return undefined;
  // a test of the object not read as certain (or the object assigned again): any alternative left may be the one
  return narrow?.unsure ? found.map((t) => ({ ...t, unsure: true })) : found;
}

/**
 * The written types of `xs[i]` (`ps[0]`, `r['a']`): each alternative's element, or, for a string
 * key, its member (a `Record`'s value, an index signature's type); undefined when none is written.
 */
export function writtenElementType(
  e: ts.ElementAccessExpression,
  ancestors: readonly ts.Node[],
  file: TypeFile,
  hoisted?: HoistedVars,
): WrittenType[] | undefined {
  return writtenElement(e, ancestors, file, hoisted, 0);
}

function writtenElement(
  e: ts.ElementAccessExpression,
  ancestors: readonly ts.Node[],
  file: TypeFile,
  hoisted: HoistedVars | undefined,
  depth: number,
): WrittenType[] | undefined {
  const key = unwrapValue(e.argumentExpression);
  const held = writtenTypesOf(unwrapValue(e.expression), ancestors, file, hoisted, depth);
  // `e[0]` of a tuple: the element in that place (type-shapes.ts)
  const place = typescript.isNumericLiteral(key) ? Number(key.text) : undefined;
  const read = (h: WrittenType): WrittenType[] =>
    (typescript.isStringLiteralLike(key) ? memberIn(h.type, key.text, h, 0) : undefined) ?? elementTypes(h, 0, memberIn, place) ?? [];
  const found = held?.flatMap(read).flatMap((t) => settle(t, memberIn));
  return found && found.length > 0 ? found : undefined;
}

/**
 * What a written type reads as for the SDK test (`s: Pending['state']` is `Pending`'s `state`):
 * its alternatives, settled (type-shapes.ts); the type itself when it is no such shape.
 */
export function settledType(type: ts.TypeNode, file: TypeFile): WrittenType[] {
  return settle({ ...file, type }, memberIn);
}

/** The written types (alternatives) of an object expression, each with the file it is written in. */
function writtenTypesOf(
  e: ts.Expression,
  ancestors: readonly ts.Node[],
  file: TypeFile,
  hoisted: HoistedVars | undefined,
  depth: number,
): WrittenType[] | undefined {
  // `p.job` of a typed `p`, `ps[0]` of a typed list: read one level further (`p.job.state`)
  const deeper = depth + 1 < ACCESS_DEPTH;
  if (deeper && typescript.isElementAccessExpression(e)) return writtenElement(e, ancestors, file, hoisted, depth + 1);
  const held = writtenTypeOf(e, ancestors, hoisted, file.names);
  if (held) return [{ ...(held.from ?? file), type: held.type }];
  // `p` of `const [p] = pairs[0]`: the element in its place
  const placed = deeper && typescript.isIdentifier(e) ? destructured(e.text, ancestors, file, hoisted, depth + 1) : undefined;
  if (placed) return placed;
  return deeper && typescript.isPropertyAccessExpression(e) ? writtenMember(e.expression, e.name.text, ancestors, file, hoisted, depth + 1) : undefined;
}

/**
 * The written types of a name a pattern or a `for … of` binds (`state` of `({ state }: Pending)`,
 * of `const [state] = e` over `e: [RunState, Item]`, of `for (const { state } of pending)`; `p` of
 * `for (const p of pending)`): bound-types.ts walks the written type down to the name; undefined
 * when the name is bound through a rest element or a computed key, or is no pattern's or loop's.
 */
export function writtenDestructuredType(name: string, ancestors: readonly ts.Node[], file: TypeFile, hoisted?: HoistedVars): WrittenType[] | undefined {
  return destructured(name, ancestors, file, hoisted, 0);
}

function destructured(name: string, ancestors: readonly ts.Node[], file: TypeFile, hoisted: HoistedVars | undefined, depth: number): WrittenType[] | undefined {
  const valueTypes = (e: ts.Expression, scope: readonly ts.Node[]) => writtenTypesOf(unwrapValue(e), scope, file, hoisted, depth);
  return boundTypes(name, ancestors, file, hoisted, { valueTypes, member: memberIn });
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
  // `const p = x as Pending`: the type the cast writes
  const cast = decl.initializer && castType(decl.initializer);
  if (cast) return { type: cast };
  // `const entry = m.get(k)`: the value type of the map `m` names
  return decl.initializer && mapGetType(decl.initializer, ancestors, hoisted, names);
}

function memberIn(type: ts.TypeNode, member: string, file: TypeFile, depth: number, narrow?: Narrowing): WrittenType[] | undefined {
  if (typescript.isParenthesizedTypeNode(type)) return memberIn(type.type, member, file, depth, narrow);
  // an intersection, a type parameter bound to its argument, `Pending['job']` (type-shapes.ts)
  const shaped = shapeMember(type, member, file, depth, memberIn);
  if (shaped) return shaped.found;
  // every alternative that writes the member: the first alone would take a tagged union's app kind for its SDK kind;
  // in a branch that tests the tag (`if (t.kind === 'agent')`), only the alternatives it leaves, in
  // a union inside the union too (`Task | undefined`, `type Work = Task | Note`): the test narrows both
  if (typescript.isUnionTypeNode(type))
    return type.types.flatMap((t) => {
      const keep = narrow ? kept(t, narrow, file, depth) : 'yes';
      if (keep === 'no') return [];
      const found = memberIn(t, member, file, depth, narrow) ?? [];
      return keep === 'unsure' ? found.map((f) => ({ ...f, unsure: true })) : found;
    });
  if (typescript.isTypeLiteralNode(type)) return propertyType(type.members, member, file);
  if (!typescript.isTypeReferenceNode(type) || depth >= ALIAS_DEPTH) return undefined;
  const ref = type.typeName;
  if (typescript.isQualifiedName(ref))
    // `t.Pending` of `import type * as t from './types.js'`
    return typescript.isIdentifier(ref.left)
      ? importedMember(file.names.imported?.(ref.right.text, ref.left.text), type, file, member, depth, narrow)
      : undefined;
  // a type the function, class or block declares hides the file's of the same name
  const inner = innerTypeDeclaration(ref.text, type, file.sf);
  if (inner !== undefined) return innerMember(inner, type, member, file, depth, narrow);
  return namedMember(ref.text, type, member, file, depth, narrow);
}

/**
 * `member` of the type the file names `name` (`ref` the reference, whose type arguments bind the
 * declaration's parameters): an alias or interface it declares at its top, else one another file
 * of the app exports, else a global shape (`Readonly<…>`, `Record<…>`).
 */
function namedMember(name: string, ref: ts.TypeNode, member: string, file: TypeFile, depth: number, narrow?: Narrowing): WrittenType[] | undefined {
  for (const s of file.sf.statements) {
    if (typescript.isTypeAliasDeclaration(s) && s.name.text === name) return memberIn(s.type, member, declarationFile(s, ref, file, file), depth + 1, narrow);
    if (typescript.isInterfaceDeclaration(s) && s.name.text === name) return interfaceMember(s, member, declarationFile(s, ref, file, file), depth);
  }
  // a type another file of the app exports (`import type { Pending } from './types.js'`)
  const imported = file.names.imported?.(name);
  if (imported) return importedMember(imported, ref, file, member, depth, narrow);
  // `Readonly<{ state: RunState }>`, `Record<string, RunState>` of the file's globals (type-shapes.ts)
  return typescript.isTypeReferenceNode(ref) ? globalMember(ref, member, file, depth, memberIn) : undefined;
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
      ? namedMember(e.text, base, member, file, depth + 1)
      : // `extends t.Base` of `import type * as t from './base.js'`
        typescript.isPropertyAccessExpression(e) && typescript.isIdentifier(e.expression)
        ? importedMember(file.names.imported?.(e.name.text, e.expression.text), base, file, member, depth + 1)
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
function innerMember(
  inner: InnerTypeDeclaration,
  ref: ts.TypeNode,
  member: string,
  file: TypeFile,
  depth: number,
  narrow?: Narrowing,
): WrittenType[] | undefined {
  if (typescript.isTypeAliasDeclaration(inner)) return memberIn(inner.type, member, declarationFile(inner, ref, file, file), depth + 1, narrow);
  if (typescript.isTypeParameterDeclaration(inner)) return inner.constraint && memberIn(inner.constraint, member, file, depth + 1, narrow);
  if (typescript.isInterfaceDeclaration(inner)) return interfaceMember(inner, member, declarationFile(inner, ref, file, file), depth);
  const type = typescript.isClassDeclaration(inner) ? classPropertyType(inner, member) : undefined;
  return type && [{ ...file, type }];
}

function importedMember(
  found: ReturnType<NonNullable<SdkTypeNames['imported']>>,
  ref: ts.TypeNode,
  at: TypeFile,
  member: string,
  depth: number,
  narrow?: Narrowing,
): WrittenType[] | undefined {
  if (found?.kind !== 'declared') return undefined;
  const decl = found.decl;
  const there = declarationFile(decl, ref, at, found);
  if (typescript.isTypeAliasDeclaration(decl)) return memberIn(decl.type, member, there, depth + 1, narrow);
  if (typescript.isInterfaceDeclaration(decl)) return interfaceMember(decl, member, there, depth) ?? mergedMember(found.merged, member, depth);
  const type = classPropertyType(decl, member);
  return type && [{ ...there, type }];
}

/** The written type of a class's property declared `name` (a field with no written type: undefined). */
export function classPropertyType(cls: ts.ClassDeclaration, name: string): ts.TypeNode | undefined {
  for (const m of cls.members) if (typescript.isPropertyDeclaration(m) && typescript.isIdentifier(m.name) && m.name.text === name) return m.type;
  return undefined;
}

function propertyType(members: ts.NodeArray<ts.TypeElement>, member: string, file: TypeFile): WrittenType[] | undefined {
  for (const m of members)
    if (typescript.isPropertySignature(m) && m.name && typescript.isIdentifier(m.name) && m.name.text === member)
      return m.type ? [{ ...file, type: m.type }] : undefined;
  return undefined;
}

/**
 * Whether an alternative may hold the narrowed tags' values: one whose tag is written as a value
 * (tag-values.ts) the tests certainly leave out is not; one whose tag may or may not equal a
 * tested value (`'review'` beside `Kind.Review`), or is no boolean under a truthiness test, only
 * unsurely.
 */
function kept(alt: ts.TypeNode, narrow: Narrowing, file: TypeFile, depth: number): 'yes' | 'unsure' | 'no' {
  let unsure = false;
  for (const test of narrow.constraints) {
    const tags = memberIn(alt, test.key, file, depth);
    const value = tags?.length === 1 ? writtenValue(tags[0]!.type) : undefined;
    if (value === undefined) unsure ||= test.truthy === true;
    else if (test.values.includes(value)) {
      if (test.excluded) return 'no';
    } else if (test.values.every((v) => comparable(v, value))) {
      if (!test.excluded) return 'no';
    } else unsure = true;
  }
  return unsure ? 'unsure' : 'yes';
}
