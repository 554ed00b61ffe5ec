import type { ts } from 'ts-morph';
import { memberName } from './assignable-tags.js';
import { typescript } from './typescript.js';
import { heldFunction } from './held-function.js';
import type { TypeFile, WrittenType } from './written-type.js';

/*
 * The function types a class's or an interface's methods read as (issue 40 item 4), shared by the
 * member reader (a call of `store.load()`, `Store.load()`) and `ReturnType` of a member
 * (`typeof Api.load`): one place decides which signatures a caller sees.
 */

/**
 * A method signature as the function type a read of the member gives (`current(): RunState` as
 * `() => RunState`), so that a call of it reads its written return type; undefined when none is
 * written. The return type stays the node written in the file, where its names are resolved.
 */
export function methodAsFunction(m: ts.MethodSignature | ts.MethodDeclaration): ts.FunctionTypeNode | undefined {
  return m.type && typescript.factory.createFunctionTypeNode(m.typeParameters, m.parameters, m.type);
}

/**
 * The function types the methods named `member` read as, one a signature that writes its return
 * type (of a class's overloads, those without a body: the implementation's is not one a caller
 * sees); undefined when none writes one.
 */
export function methodTypes(methods: readonly (ts.MethodSignature | ts.MethodDeclaration)[], member: string, file: TypeFile): WrittenType[] | undefined {
  const found = callerSignatures(methods.filter((m) => memberName(m.name) === member)).flatMap((m) => {
    const type = methodAsFunction(m);
    return type ? [{ ...file, type }] : [];
  });
  return found.length > 0 ? found : undefined;
}

/**
 * The signatures a caller of a function or method sees, of its declarations: the overloads (without
 * a body) beside one with a body, whose own signature is not one a caller sees; else each
 * declaration (an interface's method signatures, a function declared once or only `declare`d).
 */
export function callerSignatures<T extends ts.SignatureDeclaration>(declarations: readonly T[]): readonly T[] {
  // a method signature of an interface has no body either: all of them are the caller's
  const overloads = declarations.filter((d) => (d as Partial<ts.FunctionLikeDeclarationBase>).body === undefined);
  return overloads.length > 0 && overloads.length < declarations.length ? overloads : declarations;
}

/** Whether a class member is the class's own (`static`), not a value's of the class. */
export const isStaticMember = (m: ts.ClassElement): boolean =>
  typescript.getModifiers(m as ts.HasModifiers)?.some((x) => x.kind === typescript.SyntaxKind.StaticKeyword) === true;

/** A class's method a value of the class has (`load(): RunState`), not a static one (the class's own). */
export const isInstanceMethod = (m: ts.ClassElement): m is ts.MethodDeclaration => typescript.isMethodDeclaration(m) && !isStaticMember(m);

/** A class's static method (`static load(): RunState`), read as `Store.load`. */
export const isStaticMethod = (m: ts.ClassElement): m is ts.MethodDeclaration => typescript.isMethodDeclaration(m) && isStaticMember(m);

/**
 * The written types of the class's own (static) member `member`: a static field's written type (or
 * the function type of the arrow it holds), or its static methods' function types; undefined when
 * the class writes neither.
 */
export function staticMemberTypes(cls: ts.ClassLikeDeclaration, member: string, file: TypeFile): WrittenType[] | undefined {
  for (const m of cls.members)
    if (typescript.isPropertyDeclaration(m) && isStaticMember(m) && memberName(m.name) === member) {
      const type = m.type ?? heldFunctionType(m.initializer);
      return type ? [{ ...file, type }] : undefined;
    }
  return methodTypes(cls.members.filter(isStaticMethod), member, file);
}

/**
 * The function type a class field holds when none is written but its value is an arrow or a
 * function expression with a written return type (`load = (): RunState => …`), so that a call of
 * the field reads that return type; undefined for any other value.
 */
export function heldFunctionType(init: ts.Expression | undefined): ts.FunctionTypeNode | undefined {
  const e = heldFunction(init, true);
  return e?.type && typescript.factory.createFunctionTypeNode(e.typeParameters, e.parameters, e.type);
}
