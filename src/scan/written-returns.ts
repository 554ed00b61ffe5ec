import type { ts } from 'ts-morph';
import { queriedName, topValues } from './type-queries.js';
import { follow, WALK_DEPTH } from './type-trail.js';
import { isNullishType } from './nullish-type.js';
import { typescript } from './typescript.js';
import type { TypeFile, WrittenType } from './written-type.js';

/*
 * What a call returns, read from the types written (issue 40 item 4): `p.current()` of an interface's
 * `current(): RunState` (or a type literal's, or a member written `current: () => RunState`), and
 * `ReturnType<typeof load>` of a function the file declares with a written return type. Nothing is
 * inferred: a function without a written return type gives nothing.
 */

const written = (type: ts.TypeNode, file: TypeFile): WrittenType => ({ ...file, type });

/**
 * A method signature as the function type a read of the member gives (`current(): RunState` as
 * `() => RunState`), so that a call of it reads its written return type; undefined when none is
 * written. The return type stays the node written in the file, where its names are resolved.
 */
export function methodAsFunction(m: ts.MethodSignature): ts.FunctionTypeNode | undefined {
  return m.type && typescript.factory.createFunctionTypeNode(m.typeParameters, m.parameters, m.type);
}

/**
 * What a call of a value written `t` returns: a function type's return type, through parentheses,
 * and in each alternative of a union but the nullish ones (`current: (() => RunState) | null`);
 * undefined when `t` writes no function.
 */
export function calledTypes(t: WrittenType, depth = 0): WrittenType[] | undefined {
  const { type } = t;
  if (depth >= WALK_DEPTH) return undefined;
  if (typescript.isParenthesizedTypeNode(type)) return calledTypes(written(type.type, t), depth + 1);
  if (typescript.isFunctionTypeNode(type)) return [written(type.type, t)];
  if (!typescript.isUnionTypeNode(type)) return undefined;
  const found = type.types.filter((u) => !isNullishType(u)).flatMap((u) => calledTypes(written(u, t), depth + 1) ?? []);
  return found.length > 0 ? found : undefined;
}

/**
 * The type `ReturnType<F>` gives: of a function type, its return type; of `typeof load`, the return
 * type the file's top writes for `load`: a function's (of overloads, the last, as TypeScript takes
 * it), a variable's written function type's, or that of the arrow or function a `const` holds.
 * Undefined for any other `F`, or when the query is met again on the walk (a cycle).
 */
export function returnedType(f: ts.TypeNode, file: TypeFile, depth = 0): WrittenType | undefined {
  if (depth >= WALK_DEPTH) return undefined;
  if (typescript.isParenthesizedTypeNode(f)) return returnedType(f.type, file, depth + 1);
  if (typescript.isFunctionTypeNode(f)) return written(f.type, file);
  const name = queriedName(f);
  const followed = name === undefined ? undefined : follow(f, file);
  if (name === undefined || !followed) return undefined;
  const there: TypeFile = { sf: file.sf, names: file.names, followed };
  const values = topValues(name, file.sf);
  const functions = values.filter(typescript.isFunctionDeclaration);
  // overloads have no body; the implementation after them is not one TypeScript shows
  const fn = functions.filter((d) => d.body === undefined).at(-1) ?? functions.at(-1);
  if (fn) return fn.type && written(fn.type, there);
  const v = values.find(typescript.isVariableDeclaration);
  if (v?.type) return returnedType(v.type, there, depth + 1);
  let init = v?.initializer;
  while (init && typescript.isParenthesizedExpression(init)) init = init.expression;
  return init && (typescript.isArrowFunction(init) || typescript.isFunctionExpression(init)) && init.type ? written(init.type, there) : undefined;
}
