import type { ts } from 'ts-morph';
import { assignableTo } from './assignable-tags.js';
import { conditionalBranches } from './conditional-types.js';
import type { Narrowing } from './tag-narrowing.js';
import { queriedType } from './type-queries.js';
import { innerTypeDeclaration } from './type-scope.js';
import { boundParameter, declarationFile, WALK_DEPTH } from './type-trail.js';
import { isNullishType } from './nullish-type.js';
import { typescript } from './typescript.js';
import type { TypeFile, WrittenType } from './written-type.js';
import { returnedType } from './written-returns.js';

/*
 * The shapes a written type holds the SDK's state in (issue 40, no silent break: the codemod must
 * see an app answer the SDK's approvals through `p.job.state`, `ps[0].state`, `r['a']`, whatever the
 * object's type is written as). The member reader (written-members.ts) walks, besides object types,
 * unions, aliases and interfaces: an intersection's parts; a global wrapper that keeps the members
 * (`Readonly<…>`, `Partial`, `Required`, `NonNullable`, `Pick`, `Omit`); a `Record`'s value; an
 * indexed access type (`Pending['job']`); and a generic's type arguments (or its defaults) put for
 * its type parameters (`Box<RunState>` of `interface Box<T> { state: T }`); `Extract`/`Exclude` of a
 * tagged union as the tag tests they amount to (assignable-tags.ts); `typeof` a value the file declares
 * with a written type (type-queries.ts); `ReturnType<typeof load>` (written-returns.ts); the branch a
 * conditional type takes (conditional-types.ts). The element reader here gives what `xs[i]` reads: an array's or a tuple's
 * element, a `Record`'s value, an index signature's; the map reader what `m.get(k)` reads.
 * Everything is read from what is written; nothing is inferred. A walk ends where it meets again a
 * reference it is reading (the trail, `followed`: type-trail.ts), not after a few steps: a layered app names its
 * state once per layer (`PendingDto = Pending = Readonly<PendingRecord>`, issue 40).
 */

/** The member reader these walk with (written-members.ts's), passed in: the shapes nest in each other. */
export type MemberReader = (type: ts.TypeNode, member: string, file: TypeFile, depth: number, narrow?: Narrowing) => WrittenType[] | undefined;

/** The global types that keep the members of their first type argument (a member read through them is its member). */
const MEMBER_WRAPPERS: ReadonlySet<string> = new Set(['Readonly', 'Partial', 'Required', 'NonNullable', 'Pick', 'Omit', 'Awaited']);

/** The type a wrapper keeps the members of: its first argument; of `Awaited<Promise<X>>`, `X` (what `await` gives). */
function wrapped(name: string, first: ts.TypeNode): ts.TypeNode {
  if (name !== 'Awaited' || !typescript.isTypeReferenceNode(first) || !typescript.isIdentifier(first.typeName)) return first;
  const inner = first.typeArguments?.[0];
  return (first.typeName.text === 'Promise' || first.typeName.text === 'PromiseLike') && inner ? inner : first;
}

/**
 * The type a global keeps the members of, read where `type` is: a wrapper's first argument (see
 * `wrapped`), the return type `ReturnType<typeof load>` gives (written-returns.ts); undefined for
 * any other global.
 */
function keptType(name: string, first: ts.TypeNode, file: TypeFile, read: MemberReader): WrittenType | undefined {
  if (name === 'ReturnType') return returnedType(first, file, read, 0, aliasBody);
  return MEMBER_WRAPPERS.has(name) ? written(wrapped(name, first), file) : undefined;
}

/** The global types that leave some alternatives of their first type argument (assignable-tags.ts). */
const FILTERS: ReadonlySet<string> = new Set(['Extract', 'Exclude']);

const written = (type: ts.TypeNode, file: TypeFile): WrittenType => ({ ...file, type });

/**
 * `member` of a type shape the member reader leaves to this module: an intersection (each part that
 * writes it), a bound type parameter, an indexed access type; `{}` when the shape writes no such
 * member, undefined when `type` is none of these shapes.
 */
export function shapeMember(
  type: ts.TypeNode,
  member: string,
  file: TypeFile,
  depth: number,
  read: MemberReader,
  narrow?: Narrowing,
): { found?: WrittenType[] } | undefined {
  if (depth >= WALK_DEPTH) return undefined;
  // `{ id: string } & { state: RunState }`: the parts that write the member
  if (typescript.isIntersectionTypeNode(type)) return some(type.types.flatMap((t) => read(t, member, file, depth) ?? []));
  // `state: T` of `Box<RunState>`: the type argument, written where the reference is
  const bound = boundParameter(type, file);
  if (bound) return { found: read(bound.type, member, bound, depth + 1) };
  if (typescript.isIndexedAccessTypeNode(type)) return some(indexedTypes(type, file, depth, read).flatMap((t) => read(t.type, member, t, depth + 1) ?? []));
  // `K extends 'agent' ? Pending : Review` of `StateOf<'agent'>`: the branch it takes, or either, unsure (conditional-types.ts)
  if (typescript.isConditionalTypeNode(type)) {
    const { branches, unsure } = conditionalBranches(type, file);
    const found = branches.flatMap((b) => read(b.type, member, b, depth + 1, narrow) ?? []);
    return some(unsure ? found.map((f) => ({ ...f, unsure: true })) : found);
  }
  // `p: typeof last` of `declare const last: { state: RunState }`
  const queried = queriedType(type, file);
  if (queried) return { found: read(queried.type, member, queried, depth + 1, narrow) };
  return undefined;
}

const some = (found: WrittenType[]): { found?: WrittenType[] } => (found.length > 0 ? { found } : {});

/**
 * `member` of a global type the file neither declares nor imports: a wrapper's first argument's
 * member (`Readonly<{ state: RunState }>`), a `Record<K, V>`'s `V`, the member in the alternatives
 * `Extract`/`Exclude` leave (with the tests around the use, `narrow`, both holding); undefined for
 * any other.
 */
export function globalMember(
  type: ts.TypeReferenceNode,
  member: string,
  file: TypeFile,
  depth: number,
  read: MemberReader,
  narrow?: Narrowing,
): WrittenType[] | undefined {
  const name = globalName(type);
  const [first, second] = type.typeArguments ?? [];
  if (name === 'Record') return second && [written(second, file)];
  if (name !== undefined && FILTERS.has(name) && first) {
    const left = second ? assignableTo(second, name === 'Exclude') : { constraints: [], unsure: true };
    const found = read(first, member, file, depth + 1, { constraints: [...(narrow?.constraints ?? []), ...left.constraints] });
    // U not read: any alternative of T may be left (fail closed)
    return left.unsure ? found?.map((f) => ({ ...f, unsure: true })) : found;
  }
  // `Omit<Pending, 'state'>` writes no `state`, `Pick<Pending, 'id'>` only `id` (keys not written as literals: any)
  const keys = name === 'Omit' || name === 'Pick' ? literalKeys(second) : undefined;
  if (keys !== undefined && keys.includes(member) === (name === 'Omit')) return undefined;
  const kept = name !== undefined && first ? keptType(name, first, file, read) : undefined;
  return kept && read(kept.type, member, kept, depth + 1, narrow);
}

/** The keys a `Pick` or `Omit` names, when each is a string literal (`'state' | 'id'`); undefined otherwise. */
function literalKeys(t: ts.TypeNode | undefined): string[] | undefined {
  if (t === undefined) return undefined;
  if (typescript.isParenthesizedTypeNode(t)) return literalKeys(t.type);
  if (typescript.isUnionTypeNode(t)) {
    const parts = t.types.map(literalKeys);
    return parts.every((p) => p !== undefined) ? (parts.flat() as string[]) : undefined;
  }
  return typescript.isLiteralTypeNode(t) && typescript.isStringLiteral(t.literal) ? [t.literal.text] : undefined;
}

/**
 * The name of a global type a reference names (`Readonly`, `Record`, `Array`), asked once the file's
 * declarations, its imports of the app's files and the bound type parameters did not name it: a
 * name imported from a package not read is taken for the global, failing closed.
 */
function globalName(type: ts.TypeReferenceNode): string | undefined {
  return typescript.isIdentifier(type.typeName) ? type.typeName.text : undefined;
}

/**
 * A member's written type settled for the SDK test: a type parameter put back to its binding
 * (`T` to `RunState`), an indexed access type to what it reads (`Pending['state']`), a union with
 * either inside to its alternatives (the nullish ones left out, as the SDK test allows them); so the
 * SDK test reads each in the file that writes it.
 */
export function settle(t: WrittenType, read: MemberReader, depth = 0): WrittenType[] {
  if (depth >= WALK_DEPTH) return [t];
  let type = t.type;
  while (typescript.isParenthesizedTypeNode(type)) type = type.type;
  const bound = boundParameter(type, t);
  if (bound) return settle(bound, read, depth + 1);
  const queried = queriedType(type, t);
  if (queried) return settle(queried, read, depth + 1);
  // `NonNullable<Pending['state']>`: what the wrapper keeps the members of; of `Extract`/`Exclude`, any alternative
  const kept = keptArgument(type, t, read);
  if (kept) {
    const inner = settle(kept.kept, read, depth + 1);
    return kept.unsure ? inner.flatMap((u) => alternatives(u, depth + 1)).map((u) => ({ ...u, unsure: true })) : inner;
  }
  if (typescript.isIndexedAccessTypeNode(type)) {
    const types = indexedTypes(type, t, depth, read);
    return types.length > 0 ? types.flatMap((u) => settle(u, read, depth + 1)) : [t];
  }
  if (typescript.isConditionalTypeNode(type)) {
    const { branches, unsure } = conditionalBranches(type, t);
    const inner = branches.flatMap((b) => settle(b, read, depth + 1));
    return unsure ? inner.map((u) => ({ ...u, unsure: true })) : inner;
  }
  // `StateOf<'agent'>`: an alias's body read with the reference's arguments, when that settles to another type
  const body = aliasBody(type, t);
  const aliased = body && settle(body, read, depth + 1);
  if (aliased && changed(aliased, body.type)) return aliased;
  if (!typescript.isUnionTypeNode(type)) return [t];
  // a union is split only when an alternative settles to another type: kept whole, a tag test around the use still narrows it
  const rest = type.types.filter((u) => !isNullishType(u));
  const each = rest.map((u) => settle(written(u, t), read, depth + 1));
  return each.some((s, i) => changed(s, rest[i]!)) ? each.flat() : [t];
}

/** Whether settling `type` gave something else than the type itself. */
const changed = (settled: readonly WrittenType[], type: ts.TypeNode): boolean =>
  !(settled.length === 1 && settled[0]!.type === type && settled[0]!.unsure !== true);

/** A written type's alternatives, through parentheses and aliases (the nullish ones left out), so that any one may answer. */
function alternatives(t: WrittenType, depth: number): WrittenType[] {
  const { type } = t;
  if (depth >= WALK_DEPTH) return [t];
  if (typescript.isParenthesizedTypeNode(type)) return alternatives(written(type.type, t), depth + 1);
  if (typescript.isUnionTypeNode(type)) return type.types.filter((u) => !isNullishType(u)).flatMap((u) => alternatives(written(u, t), depth + 1));
  const declared = typescript.isTypeReferenceNode(type) ? declaredAs(type, t) : undefined;
  return declared && 'decl' in declared && typescript.isTypeAliasDeclaration(declared.decl)
    ? alternatives(written(declared.decl.type, declared.file), depth + 1)
    : [t];
}

/** The body of the alias a reference names, its type parameters bound to the reference's arguments; undefined for any other type. */
export function aliasBody(type: ts.TypeNode, file: TypeFile): WrittenType | undefined {
  const declared = typescript.isTypeReferenceNode(type) ? declaredAs(type, file) : undefined;
  return declared && 'decl' in declared && typescript.isTypeAliasDeclaration(declared.decl) ? written(declared.decl.type, declared.file) : undefined;
}

/**
 * The type argument a global wrapper keeps the members of (`NonNullable<X>`, `Readonly<X>`: `X`),
 * or filters (`Extract<X, U>`: `X`, unsure, as any of its alternatives may be left); undefined when
 * `type` is no such global (the file declaring or importing the name makes it the app's).
 */
function keptArgument(type: ts.TypeNode, file: TypeFile, read: MemberReader): { kept: WrittenType; unsure: boolean } | undefined {
  if (!typescript.isTypeReferenceNode(type)) return undefined;
  const name = globalName(type);
  const first = type.typeArguments?.[0];
  if (name === undefined || !first || declaredAs(type, file) !== undefined) return undefined;
  if (FILTERS.has(name)) return { kept: written(first, file), unsure: true };
  const kept = keptType(name, first, file, read);
  return kept && { kept, unsure: false };
}

/** `T['key']` (each alternative that writes it) or `T[number]` (the element), or none. */
function indexedTypes(type: ts.IndexedAccessTypeNode, file: TypeFile, depth: number, read: MemberReader): WrittenType[] {
  const index = type.indexType;
  if (typescript.isLiteralTypeNode(index) && typescript.isStringLiteral(index.literal)) return read(type.objectType, index.literal.text, file, depth + 1) ?? [];
  return elementTypes(written(type.objectType, file), depth + 1, read) ?? [];
}

/**
 * The declaration a name of the file stands for, as the member reader resolves it: one a function,
 * class or block around the name declares (type-scope.ts; a type parameter as its constraint, an
 * enum as no list), one the file declares at its top, or one another file of the app exports to it.
 */
type Declared =
  | { decl: ts.TypeAliasDeclaration | ts.InterfaceDeclaration | ts.ClassDeclaration; file: TypeFile }
  | { constraint: ts.TypeNode | undefined }
  | { opaque: true };

function declaredAs(type: ts.TypeReferenceNode, file: TypeFile): Declared | undefined {
  const ref = type.typeName;
  // a declaration the walk is reading already (a cycle) reads as none
  const into = (
    decl: ts.TypeAliasDeclaration | ts.InterfaceDeclaration | ts.ClassDeclaration,
    there: { sf: ts.SourceFile; names: TypeFile['names'] },
  ): Declared => {
    const inFile = declarationFile(decl, type, file, there);
    return inFile ? { decl, file: inFile } : { opaque: true };
  };
  if (typescript.isQualifiedName(ref)) {
    const found = typescript.isIdentifier(ref.left) ? file.names.imported?.(ref.right.text, ref.left.text) : undefined;
    return found?.kind === 'declared' ? into(found.decl, found) : undefined;
  }
  const inner = innerTypeDeclaration(ref.text, type, file.sf);
  if (inner !== undefined) {
    if (typescript.isTypeParameterDeclaration(inner)) return { constraint: inner.constraint };
    return typescript.isEnumDeclaration(inner) ? { opaque: true } : into(inner, file);
  }
  for (const s of file.sf.statements)
    if ((typescript.isTypeAliasDeclaration(s) || typescript.isInterfaceDeclaration(s) || typescript.isClassDeclaration(s)) && s.name?.text === ref.text)
      return into(s, file);
  const found = file.names.imported?.(ref.text);
  return found?.kind === 'declared' ? into(found.decl, found) : undefined;
}

/**
 * The written types `xs[i]` reads of a value written `t` (each alternative of a union that has
 * one): an array's element (`T[]`, `readonly T[]`, `Array<T>`, `ReadonlyArray<T>`), a tuple's
 * elements (the one in place `index`, when a numeric literal reads it: `e[0]` of `[RunState, Item]`),
 * a `Record<K, V>`'s `V`, an index signature's type; undefined when `t` writes none.
 */
export function elementTypes(t: WrittenType, depth: number, read: MemberReader, index?: number): WrittenType[] | undefined {
  if (depth >= WALK_DEPTH) return undefined;
  const { type } = t;
  const next = (u: ts.TypeNode, file: TypeFile = t) => elementTypes(written(u, file), depth + 1, read, index);
  if (typescript.isParenthesizedTypeNode(type) || (typescript.isTypeOperatorNode(type) && type.operator === typescript.SyntaxKind.ReadonlyKeyword))
    return next(type.type);
  if (typescript.isUnionTypeNode(type) || typescript.isIntersectionTypeNode(type)) return found(type.types.flatMap((u) => next(u) ?? []));
  if (typescript.isArrayTypeNode(type)) return [written(type.elementType, t)];
  if (typescript.isTupleTypeNode(type)) return found(tuplePlace(type, index).map((e) => written(tupleElement(e), t)));
  if (typescript.isTypeLiteralNode(type)) return indexSignatures(type.members, t);
  if (typescript.isIndexedAccessTypeNode(type)) return found(indexedTypes(type, t, depth, read).flatMap((u) => elementTypes(u, depth + 1, read, index) ?? []));
  const bound = boundParameter(type, t);
  if (bound) return elementTypes(bound, depth + 1, read, index);
  const queried = queriedType(type, t);
  if (queried) return elementTypes(queried, depth + 1, read, index);
  if (!typescript.isTypeReferenceNode(type)) return undefined;
  const declared = declaredAs(type, t);
  if (declared && 'opaque' in declared) return undefined;
  if (declared && 'constraint' in declared) return declared.constraint && next(declared.constraint);
  if (declared) {
    const { decl, file } = declared;
    if (typescript.isTypeAliasDeclaration(decl)) return next(decl.type, file);
    return typescript.isInterfaceDeclaration(decl) ? indexSignatures(decl.members, file) : undefined;
  }
  const name = globalName(type);
  const [first, second] = type.typeArguments ?? [];
  if (name !== undefined && (name === 'Array' || name === 'ReadonlyArray' || ITERABLES.has(name)) && first) return [written(first, t)];
  if (name === 'Record' && second) return [written(second, t)];
  const kept = name !== undefined && first ? keptType(name, first, t, read) : undefined;
  return kept && elementTypes(kept, depth + 1, read, index);
}

const found = (types: WrittenType[]): WrittenType[] | undefined => (types.length > 0 ? types : undefined);

/** The global types a `for … of` (or `for await`) takes its first type argument from, as from an array's element. */
const ITERABLES = new Set(['Set', 'ReadonlySet', 'Iterable', 'IterableIterator', 'AsyncIterable', 'AsyncIterableIterator', 'Generator', 'AsyncGenerator']);

/**
 * The elements of a tuple a read in place `index` may give: that place's alone before any rest
 * element (`[A, B?]`, `[name: A, B]`); from a rest element on, it and every element after it
 * (`[A, ...B[], C]`'s place 1 or 5 may be a `B` or the `C`); with no place known, or one past the
 * end, every element; at a place not whole (`e[0.5]`), none (an array holds nothing there).
 */
function tuplePlace(type: ts.TupleTypeNode, index: number | undefined): readonly ts.TypeNode[] {
  const { elements } = type;
  if (index !== undefined && !Number.isInteger(index)) return [];
  if (index === undefined || index < 0) return elements;
  const rest = elements.findIndex(isRest);
  if (rest >= 0 && index >= rest) return elements.slice(rest);
  return index < elements.length ? [elements[index]!] : elements;
}

const isRest = (e: ts.TypeNode): boolean => typescript.isRestTypeNode(e) || (typescript.isNamedTupleMember(e) && e.dotDotDotToken !== undefined);

function tupleElement(e: ts.TypeNode): ts.TypeNode {
  // `...RunState[]` of a rest element (named or not): its element
  const rest = isRest(e);
  let x = typescript.isNamedTupleMember(e) || typescript.isRestTypeNode(e) ? e.type : e;
  if (typescript.isOptionalTypeNode(x)) x = x.type;
  return rest && typescript.isArrayTypeNode(x) ? x.elementType : x;
}

function indexSignatures(members: ts.NodeArray<ts.TypeElement>, file: TypeFile): WrittenType[] | undefined {
  return found(members.filter(typescript.isIndexSignatureDeclaration).map((m) => written(m.type, file)));
}

/** The map types whose second type argument is the value `get` reads. */
const MAP_NAME = /^(?:Readonly|Weak)?Map$/;

/**
 * The written types `m.get(k)` reads of a map written `t` (each alternative that is one): a
 * `Map<K, V>`'s, `ReadonlyMap`'s or `WeakMap`'s `V`, through aliases, bound parameters and `typeof`;
 * undefined when `t` writes none.
 */
export function heldTypes(t: WrittenType, depth = 0): WrittenType[] | undefined {
  if (depth >= WALK_DEPTH) return undefined;
  const { type } = t;
  const next = (u: ts.TypeNode, file: TypeFile = t) => heldTypes(written(u, file), depth + 1);
  if (typescript.isParenthesizedTypeNode(type)) return next(type.type);
  if (typescript.isUnionTypeNode(type)) return found(type.types.flatMap((u) => next(u) ?? []));
  const bound = boundParameter(type, t) ?? queriedType(type, t);
  if (bound) return heldTypes(bound, depth + 1);
  if (!typescript.isTypeReferenceNode(type)) return undefined;
  const declared = declaredAs(type, t);
  if (declared && 'constraint' in declared) return declared.constraint && next(declared.constraint);
  if (declared) return 'decl' in declared && typescript.isTypeAliasDeclaration(declared.decl) ? next(declared.decl.type, declared.file) : undefined;
  const name = globalName(type);
  const value = type.typeArguments?.[1];
  return name !== undefined && MAP_NAME.test(name) && value ? [written(value, t)] : undefined;
}
