import type { ts } from 'ts-morph';
import { assignableTo } from './assignable-tags.js';
import type { Narrowing } from './tag-narrowing.js';
import { innerTypeDeclaration } from './type-scope.js';
import { typescript } from './typescript.js';
import type { TypeFile, WrittenType } from './written-type.js';

/*
 * The shapes a written type holds the SDK's state in (issue 40, no silent break: the codemod must
 * see an app answer the SDK's approvals through `p.job.state`, `ps[0].state`, `r['a']`, whatever the
 * object's type is written as). The member reader (written-members.ts) walks, besides object types,
 * unions, aliases and interfaces: an intersection's parts; a global wrapper that keeps the members
 * (`Readonly<…>`, `Partial`, `Required`, `NonNullable`, `Pick`, `Omit`); a `Record`'s value; an
 * indexed access type (`Pending['job']`); and a generic's type arguments (or its defaults) put for
 * its type parameters (`Box<RunState>` of `interface Box<T> { state: T }`); `Extract`/`Exclude` of a
 * tagged union as the tag tests they amount to (assignable-tags.ts); `typeof` a value the file declares
 * with a written type. The element reader here gives what `xs[i]` reads: an array's or a tuple's
 * element, a `Record`'s value, an index signature's; the map reader what `m.get(k)` reads.
 * Everything is read from what is written; nothing is inferred. A walk ends where it meets again a
 * reference it is reading (the trail, `followed`), not after a few steps: a layered app names its
 * state once per layer (`PendingDto = Pending = Readonly<PendingRecord>`, issue 40).
 */

/** The member reader these walk with (written-members.ts's), passed in: the shapes nest in each other. */
export type MemberReader = (type: ts.TypeNode, member: string, file: TypeFile, depth: number, narrow?: Narrowing) => WrittenType[] | undefined;

/**
 * A guard on how deep one walk nests (shapes, wrappers, parameters, references). Cycles end on the
 * trail of followed references; this only keeps finite a walk whose bindings grow at each step
 * (`type Deep<T> = Deep<[T]>`, which TypeScript itself refuses), so it sits far above what an app's
 * types nest (a three-layer app's DTO is some eight steps down) rather than at a depth apps reach.
 */
export const WALK_DEPTH = 64;

/** The global types that keep the members of their first type argument (a member read through them is its member). */
const MEMBER_WRAPPERS: ReadonlySet<string> = new Set(['Readonly', 'Partial', 'Required', 'NonNullable', 'Pick', 'Omit', 'Awaited']);

/** The type a wrapper keeps the members of: its first argument; of `Awaited<Promise<X>>`, `X` (what `await` gives). */
function wrapped(name: string, first: ts.TypeNode): ts.TypeNode {
  if (name !== 'Awaited' || !typescript.isTypeReferenceNode(first) || !typescript.isIdentifier(first.typeName)) return first;
  const inner = first.typeArguments?.[0];
  return (first.typeName.text === 'Promise' || first.typeName.text === 'PromiseLike') && inner ? inner : first;
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
  return name !== undefined && MEMBER_WRAPPERS.has(name) && first ? read(wrapped(name, first), member, file, depth + 1, narrow) : undefined;
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

/** The binding of a type parameter a reference names (`T` of `Box<T>`, given `Box<RunState>`), or undefined. */
export function boundParameter(type: ts.TypeNode, file: TypeFile): WrittenType | undefined {
  if (!typescript.isTypeReferenceNode(type) || type.typeArguments || !typescript.isIdentifier(type.typeName)) return undefined;
  return file.params?.get(type.typeName.text);
}

/**
 * The file a generic declaration is read in, its type parameters bound: each to the reference's
 * type argument, read where the reference is written, else to its default, read where the
 * declaration is (with the parameters bound before it, as a default may name them). Undefined when
 * the walk is reading this reference already, with the same bindings: a cycle.
 */
export function declarationFile(
  decl: { typeParameters?: ts.NodeArray<ts.TypeParameterDeclaration> | undefined },
  ref: ts.TypeNode,
  at: TypeFile,
  there: { sf: ts.SourceFile; names: TypeFile['names'] },
): TypeFile | undefined {
  const followed = follow(ref, at);
  if (!followed) return undefined;
  const out: TypeFile = { sf: there.sf, names: there.names, followed };
  if (!decl.typeParameters?.length) return out;
  // a type reference (`Box<RunState>`), a base an interface extends (`extends Box<RunState>`), an import type (`Box<RunState>` imported in place from `./box.js`)
  const args =
    typescript.isTypeReferenceNode(ref) || typescript.isExpressionWithTypeArguments(ref) || typescript.isImportTypeNode(ref) ? (ref.typeArguments ?? []) : [];
  const params = new Map<string, WrittenType>();
  for (const [i, p] of decl.typeParameters.entries()) {
    const arg = args[i];
    if (arg) params.set(p.name.text, written(arg, at));
    else if (p.default) params.set(p.name.text, written(p.default, { ...out, params: new Map(params) }));
  }
  return { ...out, params };
}

/**
 * The trail once `ref`, read in `at`, is followed; undefined when it is on the trail already (`type A
 * = B; type B = A`, `interface A extends B`, `interface B extends A`): the walk would go round. A
 * type parameter read as its argument goes back to the trail where the argument is written, so
 * `Wrap<Wrap<X>>` reads `Wrap`'s body twice, each time on its own trail.
 */
function follow(ref: ts.Node, at: TypeFile): readonly ts.Node[] | undefined {
  const trail = at.followed ?? [];
  return trail.includes(ref) ? undefined : [ref, ...trail];
}

/** A written type without its trail: a new read of it (`p.parent.parent.state`, one access after another) starts afresh. */
export function unfollowed(t: WrittenType): WrittenType {
  const { followed: _, ...rest } = t;
  return rest;
}

/**
 * The written type of the value `typeof x` names: a variable the file declares at its top with a
 * written type (`declare const last: { state: RunState }`); undefined for any other.
 */
function queriedType(type: ts.TypeNode, file: TypeFile): WrittenType | undefined {
  if (!typescript.isTypeQueryNode(type) || !typescript.isIdentifier(type.exprName)) return undefined;
  const name = type.exprName.text;
  for (const s of file.sf.statements) {
    const decl = typescript.isVariableStatement(s)
      ? s.declarationList.declarations.find((d) => typescript.isIdentifier(d.name) && d.name.text === name)
      : undefined;
    if (!decl) continue;
    const followed = decl.type && follow(type, file);
    return decl.type && followed ? written(decl.type, { sf: file.sf, names: file.names, followed }) : undefined;
  }
  return undefined;
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
  const kept = keptArgument(type, t);
  if (kept) {
    const inner = settle(written(kept.type, t), read, depth + 1);
    return kept.unsure ? inner.flatMap((u) => alternatives(u, depth + 1)).map((u) => ({ ...u, unsure: true })) : inner;
  }
  if (typescript.isIndexedAccessTypeNode(type)) {
    const types = indexedTypes(type, t, depth, read);
    return types.length > 0 ? types.flatMap((u) => settle(u, read, depth + 1)) : [t];
  }
  if (!typescript.isUnionTypeNode(type) || !type.types.some(needsSettling(t))) return [t];
  const rest = type.types.filter((u) => !isNullish(u));
  return rest.flatMap((u) => settle(written(u, t), read, depth + 1));
}

/** A written type's alternatives, through parentheses and aliases (the nullish ones left out), so that any one may answer. */
function alternatives(t: WrittenType, depth: number): WrittenType[] {
  const { type } = t;
  if (depth >= WALK_DEPTH) return [t];
  if (typescript.isParenthesizedTypeNode(type)) return alternatives(written(type.type, t), depth + 1);
  if (typescript.isUnionTypeNode(type)) return type.types.filter((u) => !isNullish(u)).flatMap((u) => alternatives(written(u, t), depth + 1));
  const declared = typescript.isTypeReferenceNode(type) ? declaredAs(type, t) : undefined;
  return declared && 'decl' in declared && typescript.isTypeAliasDeclaration(declared.decl)
    ? alternatives(written(declared.decl.type, declared.file), depth + 1)
    : [t];
}

/** Whether a union's alternative is one `settle` changes: a bound type parameter, an indexed access type, `typeof`, a global wrapper. */
const needsSettling =
  (file: TypeFile) =>
  (u: ts.TypeNode): boolean =>
    boundParameter(u, file) !== undefined || typescript.isIndexedAccessTypeNode(u) || typescript.isTypeQueryNode(u) || keptArgument(u, file) !== undefined;

/**
 * The type argument a global wrapper keeps the members of (`NonNullable<X>`, `Readonly<X>`: `X`),
 * or filters (`Extract<X, U>`: `X`, unsure, as any of its alternatives may be left); undefined when
 * `type` is no such global (the file declaring or importing the name makes it the app's).
 */
function keptArgument(type: ts.TypeNode, file: TypeFile): { type: ts.TypeNode; unsure: boolean } | undefined {
  if (!typescript.isTypeReferenceNode(type)) return undefined;
  const name = globalName(type);
  const first = type.typeArguments?.[0];
  if (name === undefined || !first || !(MEMBER_WRAPPERS.has(name) || FILTERS.has(name)) || declaredAs(type, file) !== undefined) return undefined;
  return { type: wrapped(name, first), unsure: FILTERS.has(name) };
}

function isNullish(t: ts.TypeNode): boolean {
  if (t.kind === typescript.SyntaxKind.UndefinedKeyword) return true;
  return typescript.isLiteralTypeNode(t) && t.literal.kind === typescript.SyntaxKind.NullKeyword;
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
  return name !== undefined && MEMBER_WRAPPERS.has(name) && first ? next(wrapped(name, first)) : undefined;
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
