import type { ts } from 'ts-morph';
import { boundTypes, castType } from './bound-types.js';
import { declaredReturnType } from './declared-returns.js';
import { declarationOf, unwrapValue } from './local-values.js';
import { type HeldType, mapGetType } from './map-values.js';
import { classInScope, thisClassAt, thisFieldType } from './this-fields.js';
import type { HoistedVars } from './scope.js';
import { type Narrowing, narrowing } from './tag-narrowing.js';
import { type InnerTypeDeclaration, innerTypeDeclaration } from './type-scope.js';
import type { TypeFile, WrittenType } from './written-type.js';
import { memberName } from './assignable-tags.js';
import { aliasBody, elementTypes, globalMember, heldTypes, settle, shapeMember } from './type-shapes.js';
import { declarationFile, unfollowed, WALK_DEPTH } from './type-trail.js';
import { calledTypes } from './written-returns.js';
import { heldFunctionType, isInstanceMethod, methodTypes, staticMemberTypes } from './method-types.js';
import { kept } from './kept-alternatives.js';
import { typescript } from './typescript.js';
import { valueBranches } from './value-branches.js';
import { importTypeName, type MergedInterface, type SdkTypeNames } from './written-sdk-type.js';
import { fileTypeDeclarations } from './file-type-declarations.js';
import { jsDocPropertyType, jsDocTypedefs, jsDocTypeOf } from './jsdoc-types.js';
import { unnamedClassType } from './unnamed-class-type.js';

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
 * reader asks that any one be the SDK's (an answer), or each one (a resume, unless the narrowing
 * is unsure).
 */

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
  // `Store.load` of a class, not of a value of it: the class's static member
  const statics = held ? undefined : staticMember(e, member, ancestors, file, hoisted);
  if (statics) return statics.flatMap((t) => settle(t, memberIn).map(unfollowed));
  const narrow = held && narrowing(e, ancestors, file.sf, hoisted);
  const found = held
    ?.flatMap((h) => memberIn(h.type, member, h, 0, narrow) ?? [])
    .flatMap((t) => settle(t, memberIn).map((s) => unfollowed(t.unsure ? { ...s, unsure: true } : s)));
  if (!found || found.length === 0) return undefined;
  // a test of the object not read as certain (or the object assigned again): any alternative left may be the one
  return narrow?.unsure ? found.map((t) => ({ ...t, unsure: true })) : found;
}

/** How many base classes a static member is looked for in (`class Store extends Base`). */
const STATIC_BASES = 4;

/**
 * The static member `member` of the class `e` names: `Store` of a class a scope around or the file's
 * top declares (no value of that name hiding it), or another file of the app exports to it, or
 * `this` in a static method; else of the bases it extends by a plain name declared around it.
 * Undefined when `e` names no such class or none writes it.
 */
function staticMember(
  e: ts.Expression,
  member: string,
  ancestors: readonly ts.Node[],
  file: TypeFile,
  hoisted: HoistedVars | undefined,
): WrittenType[] | undefined {
  let at = classValue(e, ancestors, file, hoisted);
  for (let depth = 0; at && depth < STATIC_BASES; depth++) {
    const found = staticMemberTypes(at.cls, member, at.file);
    if (found) return found;
    const base = at.cls.heritageClauses?.find((h) => h.token === typescript.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
    const there = base && typescript.isIdentifier(base) ? classInScope(base.text, at.outer) : undefined;
    at = there && { cls: there.cls, outer: at.outer.slice(0, there.index + 1), file: at.file };
  }
  return undefined;
}

/** A class read as a value: its declaration, the scopes around it (outermost first) and the file it is written in. */
interface ClassValue {
  cls: ts.ClassLikeDeclaration;
  outer: readonly ts.Node[];
  file: TypeFile;
}

/** The class an expression is as a value (`Store`, or `this` in a static member), or undefined. */
function classValue(e: ts.Expression, ancestors: readonly ts.Node[], file: TypeFile, hoisted: HoistedVars | undefined, depth = 0): ClassValue | undefined {
  if (e.kind === typescript.SyntaxKind.ThisKeyword) {
    const at = thisClassAt(ancestors);
    return at?.statics ? { cls: at.cls, outer: ancestors.slice(0, at.index), file } : undefined;
  }
  if (!typescript.isIdentifier(e)) return undefined;
  const decl = declarationOf(e.text, ancestors, hoisted);
  // `const S = Store`, `const Store = class { … }`: the class a variable with no written type is given
  const init = decl && typescript.isVariableDeclaration(decl) && !decl.type && decl.initializer ? unwrapValue(decl.initializer) : undefined;
  if (init && typescript.isClassExpression(init)) return { cls: init, outer: ancestors, file };
  if (init && typescript.isIdentifier(init) && depth < STATIC_BASES) return classValue(init, ancestors, file, hoisted, depth + 1);
  // any other variable or parameter of the name hides the class
  if (decl !== undefined && !typescript.isClassDeclaration(decl)) return undefined;
  const around = classInScope(e.text, ancestors);
  if (around) return { cls: around.cls, outer: ancestors.slice(0, around.index + 1), file };
  // `import { Store } from './store.js'`: the class that file exports, read there
  const imported = file.names.imported?.(e.text);
  return imported?.kind === 'declared' && typescript.isClassDeclaration(imported.decl)
    ? { cls: imported.decl, outer: [imported.sf], file: { sf: imported.sf, names: imported.names } }
    : undefined;
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
  const found = held?.flatMap(read).flatMap((t) => settle(t, memberIn).map(unfollowed));
  return found && found.length > 0 ? found : undefined;
}

/**
 * The written types of `m.get(k)` where the map is read through a member or an element
 * (`p.states.get(id)` of `states: Map<string, RunState>`): its value (type-shapes.ts); undefined
 * when `e` is no such read or the map's type writes none.
 */
export function writtenHeldType(e: ts.Expression, ancestors: readonly ts.Node[], file: TypeFile, hoisted?: HoistedVars): WrittenType[] | undefined {
  return writtenHeld(e, ancestors, file, hoisted, 0);
}

function writtenHeld(
  e: ts.Expression,
  ancestors: readonly ts.Node[],
  file: TypeFile,
  hoisted: HoistedVars | undefined,
  depth: number,
): WrittenType[] | undefined {
  const call = unwrapValue(e);
  if (!typescript.isCallExpression(call) || !typescript.isPropertyAccessExpression(call.expression) || call.expression.name.text !== 'get') return undefined;
  const map = unwrapValue(call.expression.expression);
  if (!typescript.isPropertyAccessExpression(map) && !typescript.isElementAccessExpression(map)) return undefined;
  const found = writtenTypesOf(map, ancestors, file, hoisted, depth)
    ?.flatMap((h) => heldTypes(h) ?? [])
    .flatMap((t) => settle(t, memberIn).map(unfollowed));
  return found && found.length > 0 ? found : undefined;
}

/**
 * The written types `obj.m()` returns: each alternative's method's (`current(): RunState`) or
 * function-typed member's (`current: () => RunState`, or an alias of one) written return type,
 * settled; of `load()`, the return type of the function type the variable or parameter `load` is
 * written with (`load: Loader`); undefined when `e` calls no member or none writes a return type.
 */
export function writtenCallType(e: ts.CallExpression, ancestors: readonly ts.Node[], file: TypeFile, hoisted?: HoistedVars): WrittenType[] | undefined {
  return writtenCalled(e, ancestors, file, hoisted, 0);
}

function writtenCalled(
  e: ts.CallExpression,
  ancestors: readonly ts.Node[],
  file: TypeFile,
  hoisted: HoistedVars | undefined,
  depth: number,
): WrittenType[] | undefined {
  const callee = unwrapValue(e.expression);
  // `load()` of `load: Loader`: the type the variable or parameter is written with
  const held = typescript.isIdentifier(callee) ? writtenTypesOf(callee, ancestors, file, hoisted, depth) : undefined;
  const member = typescript.isPropertyAccessExpression(callee) ? writtenMember(callee.expression, callee.name.text, ancestors, file, hoisted, depth) : held;
  // a return type keeps its member's `unsure` (an alternative a test may have left): it is read in the member's file
  const found = member?.flatMap((m) => (calledTypes(m, aliasBody) ?? []).flatMap((r) => settle(r, memberIn).map(unfollowed)));
  return found && found.length > 0 ? found : undefined;
}

/**
 * What a written type reads as for the SDK test (`s: Pending['state']` is `Pending`'s `state`):
 * its alternatives, settled (type-shapes.ts); the type itself when it is no such shape.
 */
export function settledType(type: ts.TypeNode, file: TypeFile): WrittenType[] {
  return settle({ ...file, type }, memberIn).map(unfollowed);
}

/** The written types of the values `a ?? b`, `a || b`, `c ? a : b` or `ok && a` may be (value-branches.ts; an empty literal, `[]`, writes none). */
function eitherSide(
  pair: readonly ts.Expression[],
  ancestors: readonly ts.Node[],
  file: TypeFile,
  hoisted: HoistedVars | undefined,
  depth: number,
): WrittenType[] | undefined {
  const sides = pair.flatMap((x) => writtenTypesOf(unwrapValue(x), ancestors, file, hoisted, depth) ?? []);
  return sides.length > 0 ? sides : undefined;
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
  // `ps ?? []`, `a || b`, `c ? a : b`: either side's value; `ok && p`: the right side's
  const pair = deeper ? valueBranches(e) : undefined;
  if (pair) return eitherSide(pair, ancestors, file, hoisted, depth + 1);
  const held = writtenTypeOf(e, ancestors, hoisted, file);
  if (held) return [{ ...(held.from ?? file), type: held.type }];
  // `p.states.get(id)` of a member written `Map<string, Entry>`
  const inMember = deeper && typescript.isCallExpression(e) ? writtenHeld(e, ancestors, file, hoisted, depth + 1) : undefined;
  if (inMember) return inMember;
  // `p.current()` of a member written `current(): Entry` (written-returns.ts)
  const called = deeper && typescript.isCallExpression(e) ? writtenCalled(e, ancestors, file, hoisted, depth + 1) : undefined;
  if (called) return called;
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
  // each bound type read afresh from here on (type-shapes.ts `unfollowed`)
  return boundTypes(name, ancestors, file, hoisted, { valueTypes, member: memberIn })?.map(unfollowed);
}

function writtenTypeOf(e: ts.Expression, ancestors: readonly ts.Node[], hoisted: HoistedVars | undefined, file: TypeFile): HeldType | undefined {
  const { names } = file;
  // `this.entry` of a typed field, `pending.get(id)!` read in place
  const field = thisFieldType(e, ancestors);
  if (field) return { type: field };
  if (typescript.isCallExpression(e)) return mapGetType(e, ancestors, hoisted, names);
  // `new Store().load()`: a value of the class `new` names
  if (typescript.isNewExpression(e)) return constructedType(e);
  // `this.load()` in a method: a value of the class `this` names
  if (e.kind === typescript.SyntaxKind.ThisKeyword) return thisInstanceType(ancestors);
  if (!typescript.isIdentifier(e)) return undefined;
  const decl = declarationOf(e.text, ancestors, hoisted);
  if (!decl || !(typescript.isVariableDeclaration(decl) || typescript.isParameter(decl)) || !typescript.isIdentifier(decl.name)) return undefined;
  if (decl.type) return { type: decl.type };
  // a JavaScript file's `/** @param {Pending} p */`, `/** @type {Pending} */`
  const doc = jsDocTypeOf(decl, ancestors, file.sf);
  if (doc) return { type: doc };
  // `const p = x as Pending`: the type the cast writes
  const cast = decl.initializer && castType(decl.initializer);
  if (cast) return { type: cast };
  // `const p = load()` of a function the file declares with a written return type
  const returned = decl.initializer && declaredReturnType(decl.initializer, ancestors, hoisted, file.sf);
  if (returned) return { type: returned };
  // `const entry = m.get(k)`: the value type of the map `m` names
  const held = decl.initializer && mapGetType(decl.initializer, ancestors, hoisted, names);
  if (held) return held;
  // `const store = new Store()`: a value of the class
  const made = decl.initializer && unwrapValue(decl.initializer);
  return made && typescript.isNewExpression(made) ? constructedType(made) : undefined;
}

/** The type of `this` in a class's instance member, as a reference to the class (by its name, read where it is declared); undefined elsewhere. */
function thisInstanceType(ancestors: readonly ts.Node[]): HeldType | undefined {
  const at = thisClassAt(ancestors);
  if (!at || at.statics) return undefined;
  if (!at.cls.name) {
    const type = unnamedClassType(at.cls);
    return type && { type };
  }
  return { type: typescript.factory.createTypeReferenceNode(at.cls.name) };
}

/**
 * The type of the value `new Store(…)` makes, as a reference to the class it names (`Store`, with the
 * type arguments written), so the member reader reads the class the file declares or imports, or
 * one a function or block around declares (found from the name `new` is given, which is in the file).
 */
function constructedType(e: ts.NewExpression): HeldType | undefined {
  const callee = unwrapValue(e.expression);
  return typescript.isIdentifier(callee) ? { type: typescript.factory.createTypeReferenceNode(callee, e.typeArguments) } : undefined;
}

function memberIn(type: ts.TypeNode, member: string, file: TypeFile, depth: number, narrow?: Narrowing): WrittenType[] | undefined {
  if (typescript.isParenthesizedTypeNode(type)) return memberIn(type.type, member, file, depth, narrow);
  // an intersection, a type parameter bound to its argument, `Pending['job']` (type-shapes.ts)
  const shaped = shapeMember(type, member, file, depth, memberIn, narrow);
  if (shaped) return shaped.found;
  // every alternative that writes the member: the first alone would take a tagged union's app kind for its SDK kind;
  // in a branch that tests the tag (`if (t.kind === 'agent')`), only the alternatives it leaves, in
  // a union inside the union too (`Task | undefined`, `type Work = Task | Note`): the test narrows both
  if (typescript.isUnionTypeNode(type))
    return type.types.flatMap((t) => {
      const keep = narrow ? kept(t, type.types, narrow, file, depth, memberIn) : 'yes';
      if (keep === 'no') return [];
      const found = memberIn(t, member, file, depth, narrow) ?? [];
      return keep === 'unsure' ? found.map((f) => ({ ...f, unsure: true })) : found;
    });
  if (typescript.isTypeLiteralNode(type)) return propertyType(type.members, member, file) ?? indexSignatureType(type.members, file);
  // a JavaScript `@typedef`'s `@property {RunState} state`
  if (typescript.isJSDocTypeLiteral(type)) return written(jsDocPropertyType(type, member), file);
  // an import type, `import(…).Pending` of `./types.js`: what that file exports under the name, read there
  const at = typescript.isImportTypeNode(type) && depth < WALK_DEPTH ? importTypeName(type) : undefined;
  if (at) return importedMember(file.names.importType?.(at.specifier, at.name), type, file, member, depth, narrow);
  if (!typescript.isTypeReferenceNode(type) || depth >= WALK_DEPTH) return undefined;
  const ref = type.typeName;
  if (typescript.isQualifiedName(ref)) {
    if (!typescript.isIdentifier(ref.left)) return undefined;
    // `App.Pending` of a `namespace App` the file declares: its declaration there
    const local = namespaceDeclaration(file.sf, ref.left.text, ref.right.text);
    const there = local && declarationFile(local, type, file, file);
    if (local)
      return (
        there &&
        (typescript.isTypeAliasDeclaration(local) ? memberIn(local.type, member, there, depth + 1, narrow) : declarationMember(local, member, there, depth))
      );
    // `t.Pending` of `import type * as t from './types.js'`
    return importedMember(file.names.imported?.(ref.right.text, ref.left.text), type, file, member, depth, narrow);
  }
  // a type the function, class or block declares hides the file's of the same name; looked for from the
  // name, which is in the file where a reference made for a value (`new Store()`, `this`) is not
  const inner = innerTypeDeclaration(ref.text, ref, file.sf);
  if (inner !== undefined) return innerMember(inner, type, member, file, depth, narrow);
  return namedMember(ref.text, type, member, file, depth, narrow);
}

/**
 * `member` of the type the file names `name` (`ref` the reference, whose type arguments bind the
 * declaration's parameters): an alias or interface it declares at its top, else one another file
 * of the app exports, else a global shape (`Readonly<…>`, `Record<…>`).
 */
function namedMember(name: string, ref: ts.TypeNode, member: string, file: TypeFile, depth: number, narrow?: Narrowing): WrittenType[] | undefined {
  // an interface declared twice, or a class and an interface of one name, merge: each may write the member
  const decls = fileTypeDeclarations(file.sf, name);
  const theres: Array<[ts.InterfaceDeclaration | ts.ClassDeclaration, TypeFile]> = [];
  for (const s of decls) {
    // a declaration the walk is reading already (a cycle) writes nothing more
    const there = declarationFile(s, ref, file, file);
    if (!there) return undefined;
    if (typescript.isTypeAliasDeclaration(s)) return memberIn(s.type, member, there, depth + 1, narrow);
    const found = ownOrBaseMember(s, member, there, depth);
    if (found !== undefined) return found;
    theres.push([s, there]);
  }
  // a property any of the merged declarations writes comes before an index signature of one of them
  for (const [s, there] of theres) {
    const indexed = typescript.isInterfaceDeclaration(s) ? indexSignatureType(s.members, there) : undefined;
    if (indexed !== undefined) return indexed;
  }
  if (decls.length > 0) return undefined;
  // a JavaScript file's `/** @typedef {{ state: RunState }} Pending */`
  const typedef = jsDocTypedefs(file.sf, name)[0];
  if (typedef) return memberIn(typedef, member, file, depth + 1, narrow);
  // a type another file of the app exports (`import type { Pending } from './types.js'`)
  const imported = file.names.imported?.(name);
  if (imported) return importedMember(imported, ref, file, member, depth, narrow);
  // `Readonly<{ state: RunState }>`, `Record<string, RunState>` of the file's globals (type-shapes.ts)
  const global = asTypeReference(ref);
  return global ? globalMember(global, member, file, depth, memberIn, narrow) : undefined;
}

/**
 * A reference to a global type, as the shape reader takes it: the reference itself, or a base an
 * interface extends (`extends Omit<Job, 'id'>`) made a reference of the same name and arguments.
 */
function asTypeReference(ref: ts.TypeNode): ts.TypeReferenceNode | undefined {
  if (typescript.isTypeReferenceNode(ref)) return ref;
  return typescript.isExpressionWithTypeArguments(ref) && typescript.isIdentifier(ref.expression)
    ? typescript.factory.createTypeReferenceNode(ref.expression, ref.typeArguments)
    : undefined;
}

const written = (type: ts.TypeNode | undefined, file: TypeFile): WrittenType[] | undefined => type && [{ ...file, type }];

/**
 * `member` of an interface or a class: its own property (a class's field or getter), else one a
 * base it extends writes, else (an interface) its own index signature's. See `ownOrBaseMember`.
 */
function declarationMember(decl: ts.InterfaceDeclaration | ts.ClassDeclaration, member: string, file: TypeFile, depth: number): WrittenType[] | undefined {
  return ownOrBaseMember(decl, member, file, depth) ?? (typescript.isInterfaceDeclaration(decl) ? indexSignatureType(decl.members, file) : undefined);
}

/**
 * `member` of an interface or a class: its own property, else one a base it extends writes
 * (`interface Pending extends Base`, Base declared in the file or imported from another file of the
 * app, read there with that file's names). The first base that writes it answers (TypeScript
 * refuses two bases that write it differently); a cycle of bases ends on the trail of followed
 * references (type-shapes.ts).
 */
function ownOrBaseMember(decl: ts.InterfaceDeclaration | ts.ClassDeclaration, member: string, file: TypeFile, depth: number): WrittenType[] | undefined {
  const own = typescript.isInterfaceDeclaration(decl)
    ? propertyType(decl.members, member, file)
    : (written(classPropertyType(decl, member), file) ?? methodTypes(decl.members.filter(isInstanceMethod), member, file));
  if (own !== undefined || depth >= WALK_DEPTH) return own;
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

/**
 * The type `name` a `namespace` (or `module`) of the file's top declares and exports, or undefined;
 * its first declaration that names it (merged namespaces each asked in turn).
 */
function namespaceDeclaration(
  sf: ts.SourceFile,
  space: string,
  name: string,
): ts.InterfaceDeclaration | ts.ClassDeclaration | ts.TypeAliasDeclaration | undefined {
  for (const st of sf.statements) {
    if (!typescript.isModuleDeclaration(st) || !typescript.isIdentifier(st.name) || st.name.text !== space || !st.body || !typescript.isModuleBlock(st.body))
      continue;
    for (const d of st.body.statements)
      if ((typescript.isInterfaceDeclaration(d) || typescript.isClassDeclaration(d) || typescript.isTypeAliasDeclaration(d)) && d.name?.text === name) return d;
  }
  return undefined;
}

/** `member` as an interface another file's `declare module` merges in writes it (module-augmentations.ts). */
function mergedMember(merged: readonly MergedInterface[] | undefined, member: string, depth: number): WrittenType[] | undefined {
  for (const m of merged ?? []) {
    const found = declarationMember(m.decl, member, { sf: m.sf, names: m.names }, depth);
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
  if (typescript.isTypeParameterDeclaration(inner)) return inner.constraint && memberIn(inner.constraint, member, file, depth + 1, narrow);
  const there =
    typescript.isTypeAliasDeclaration(inner) || typescript.isInterfaceDeclaration(inner) || typescript.isClassDeclaration(inner)
      ? declarationFile(inner, ref, file, file)
      : undefined;
  if (typescript.isTypeAliasDeclaration(inner)) return there && memberIn(inner.type, member, there, depth + 1, narrow);
  return typescript.isInterfaceDeclaration(inner) || typescript.isClassDeclaration(inner) ? there && declarationMember(inner, member, there, depth) : undefined;
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
  if (!there) return undefined;
  if (typescript.isTypeAliasDeclaration(decl)) return memberIn(decl.type, member, there, depth + 1, narrow);
  return declarationMember(decl, member, there, depth) ?? mergedMember(found.merged, member, depth);
}

/** The written type of a class's property declared `name`: a field's (or its arrow's function type), or a getter's return type (none written: undefined). */
export function classPropertyType(cls: ts.ClassDeclaration, name: string): ts.TypeNode | undefined {
  for (const m of cls.members) {
    // a field holding an arrow with a written return type (`load = (): RunState => …`) reads as its function type
    if ((typescript.isPropertyDeclaration(m) || typescript.isGetAccessorDeclaration(m)) && memberName(m.name) === name)
      return m.type ?? (typescript.isPropertyDeclaration(m) ? heldFunctionType(m.initializer) : undefined);
    // `constructor(public state: RunState)`: a parameter property is a field of the class
    if (typescript.isConstructorDeclaration(m))
      for (const p of m.parameters) if (typescript.getModifiers(p)?.length && memberName(p.name) === name) return p.type;
  }
  return undefined;
}

/**
 * The written type of the property `member` (named `state` or `'state'`), or undefined; of a method
 * (`current(): RunState`), the function type it reads as, so that a call gives its return type.
 */
function propertyType(members: ts.NodeArray<ts.TypeElement>, member: string, file: TypeFile): WrittenType[] | undefined {
  for (const m of members) {
    if ((typescript.isPropertySignature(m) || typescript.isGetAccessorDeclaration(m)) && memberName(m.name) === member)
      return m.type ? [{ ...file, type: m.type }] : undefined;
    // an overloaded method (`load(k: 'a'): Review; load(k: 'b'): RunState`): a call may take any signature
    if (typescript.isMethodSignature(m) && memberName(m.name) === member) return methodTypes(members.filter(typescript.isMethodSignature), member, file);
  }
  return undefined;
}

/**
 * The written types of the index signatures a read by name goes through (`r.a` of `{ [id: string]:
 * RunState }`): a string's or a template literal's; a number's or a symbol's never (`r[0]` is read
 * as an element). Undefined when none.
 */
function indexSignatureType(members: ts.NodeArray<ts.TypeElement>, file: TypeFile): WrittenType[] | undefined {
  const k = typescript.SyntaxKind;
  const found = members.filter(typescript.isIndexSignatureDeclaration).flatMap((m) => {
    const key = m.parameters[0]?.type?.kind;
    return key === k.StringKeyword || key === k.TemplateLiteralType ? [{ ...file, type: m.type }] : [];
  });
  return found.length > 0 ? found : undefined;
}
