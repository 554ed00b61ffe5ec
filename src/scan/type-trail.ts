import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';
import type { TypeFile, WrittenType } from './written-type.js';

/*
 * Where a written type is read (issue 40): the type parameters bound there and the trail of
 * references followed to get there. The shape, query and conditional readers all take a type's
 * file from here, so that a walk ends where it meets again a reference it is reading (`type A = B;
 * type B = A`), whatever reader met it.
 */

const written = (type: ts.TypeNode, file: TypeFile): WrittenType => ({ ...file, type });

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
export function follow(ref: ts.Node, at: TypeFile): readonly ts.Node[] | undefined {
  const trail = at.followed ?? [];
  return trail.includes(ref) ? undefined : [ref, ...trail];
}

/** A written type without its trail: a new read of it (`p.parent.parent.state`, one access after another) starts afresh. */
export function unfollowed(t: WrittenType): WrittenType {
  const { followed: _, ...rest } = t;
  return rest;
}

/**
 * A guard on how deep one walk nests (shapes, wrappers, parameters, references). Cycles end on the
 * trail of followed references; this only keeps finite a walk whose bindings grow at each step
 * (`type Deep<T> = Deep<[T]>`, which TypeScript itself refuses), so it sits far above what an app's
 * types nest (a three-layer app's DTO is some eight steps down) rather than at a depth apps reach.
 */
export const WALK_DEPTH = 64;
