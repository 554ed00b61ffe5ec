import type { ts } from 'ts-morph';
import { signatureReturns } from './declared-returns.js';
import { queriedName, topValues } from './type-queries.js';
import { follow, WALK_DEPTH } from './type-trail.js';
import { isNullishType } from './nullish-type.js';
import { staticMemberTypes } from './method-types.js';
import { typescript } from './typescript.js';
import { heldFunction } from './held-function.js';
import type { TypeFile, WrittenType } from './written-type.js';

/*
 * What a call returns, read from the types written (issue 40 item 4): `p.current()` of an interface's
 * `current(): RunState` (or a type literal's, or a member written `current: () => RunState`), and
 * `ReturnType<typeof load>` of a function the file declares with a written return type. Nothing is
 * inferred: a function without a written return type gives nothing.
 */

const written = (type: ts.TypeNode, file: TypeFile): WrittenType => ({ ...file, type });

/** The body of the alias a reference names, read where it is declared (type-shapes.ts's, passed in: it imports this module). */
export type AliasBody = (type: ts.TypeNode, file: TypeFile) => WrittenType | undefined;

/**
 * What a call of a value written `t` returns: a function type's return type, through parentheses,
 * and in each alternative of a union but the nullish ones (`current: (() => RunState) | null`), and,
 * given `aliased`, through an alias of a function type (`load: Loader` of `type Loader = () =>
 * RunState`); undefined when `t` writes no function.
 */
export function calledTypes(t: WrittenType, aliased?: AliasBody, depth = 0): WrittenType[] | undefined {
  const { type } = t;
  if (depth >= WALK_DEPTH) return undefined;
  if (typescript.isParenthesizedTypeNode(type)) return calledTypes(written(type.type, t), aliased, depth + 1);
  if (typescript.isFunctionTypeNode(type)) return [written(type.type, t)];
  // `type Loader = () => RunState`: the alias's body, in the file it is written in
  const body = aliased && typescript.isTypeReferenceNode(type) ? aliased(type, t) : undefined;
  if (body) return calledTypes(body, aliased, depth + 1);
  if (!typescript.isUnionTypeNode(type)) return undefined;
  const found = type.types.filter((u) => !isNullishType(u)).flatMap((u) => calledTypes(written(u, t), aliased, depth + 1) ?? []);
  return found.length > 0 ? found : undefined;
}

/** The member reader (written-members.ts's), passed in: a member's written types, one an alternative. */
type Members = (type: ts.TypeNode, member: string, file: TypeFile, depth: number) => WrittenType[] | undefined;

/**
 * The type `ReturnType<F>` gives: of a function type, its return type; of `typeof load`, the return
 * type the file's top writes for `load`: a function's (of overloads, the last, as TypeScript takes
 * it), a variable's written function type's, or that of the arrow or function a `const` holds; of
 * `typeof api.load` and `Api['load']`, that of the member (see `memberReturn`); given `aliased`, of
 * an alias of any of these, its body's. Undefined for any other `F`, or when the query is met again
 * on the walk (a cycle).
 */
export function returnedType(f: ts.TypeNode, file: TypeFile, read: Members, depth = 0, aliased?: AliasBody): WrittenType | undefined {
  if (depth >= WALK_DEPTH) return undefined;
  if (typescript.isParenthesizedTypeNode(f)) return returnedType(f.type, file, read, depth + 1, aliased);
  if (typescript.isFunctionTypeNode(f)) return written(f.type, file);
  // `ReturnType<Loader>` of `type Loader = () => RunState`: the alias's body, where it is written
  const body = aliased && typescript.isTypeReferenceNode(f) ? aliased(f, file) : undefined;
  if (body) return returnedType(body.type, body, read, depth + 1, aliased);
  // `ReturnType<Api['load']>`: the member's function type
  if (typescript.isIndexedAccessTypeNode(f) && typescript.isLiteralTypeNode(f.indexType) && typescript.isStringLiteral(f.indexType.literal))
    return lastReturn(read(f.objectType, f.indexType.literal.text, file, depth + 1));
  if (typescript.isTypeQueryNode(f) && typescript.isQualifiedName(f.exprName)) return memberReturn(f, f.exprName, file, read, depth);
  const name = queriedName(f);
  const followed = name === undefined ? undefined : follow(f, file);
  if (name === undefined || !followed) return undefined;
  const there: TypeFile = { sf: file.sf, names: file.names, followed };
  // of overloads, the last (the implementation is not one TypeScript shows)
  const returns = signatureReturns(file.sf.statements, name, file.sf);
  if (returns.length > 0) {
    const last = returns.at(-1);
    return last && written(last, there);
  }
  const v = topValues(name, file.sf).find(typescript.isVariableDeclaration);
  if (v?.type) return returnedType(v.type, there, read, depth + 1, aliased);
  return functionReturn(v?.initializer, there);
}

/** The written return type of an arrow or a function expression (through parentheses), or undefined. */
function functionReturn(init: ts.Expression | undefined, file: TypeFile): WrittenType | undefined {
  const type = heldFunction(init)?.type;
  return type && written(type, file);
}

/**
 * What `ReturnType<typeof api.load>` gives, `api` a value the file's top declares: its written type's
 * member `load`, the class's of `const api = new Api()`, or the method (or function) of `load` an
 * object literal `const api = { load(): RunState { … } }` writes. Undefined for anything else.
 */
function memberReturn(f: ts.TypeQueryNode, q: ts.QualifiedName, file: TypeFile, read: Members, depth: number): WrittenType | undefined {
  const followed = typescript.isIdentifier(q.left) ? follow(f, file) : undefined;
  if (!followed || !typescript.isIdentifier(q.left)) return undefined;
  let there: TypeFile = { sf: file.sf, names: file.names, followed };
  const member = q.right.text;
  const owner = q.left.text;
  let v = topValues(owner, file.sf).find(typescript.isVariableDeclaration);
  if (v?.type) return lastReturn(read(v.type, member, there, depth + 1));
  // `typeof Api.load` of a class the file's top declares, or another file of the app exports to it: its static method
  const cls = v ? undefined : file.sf.statements.find((s): s is ts.ClassDeclaration => typescript.isClassDeclaration(s) && s.name?.text === owner);
  if (cls) return lastReturn(staticMemberTypes(cls, member, there));
  const imported = v ? undefined : file.names.imported?.(owner);
  if (imported?.kind === 'declared' && typescript.isClassDeclaration(imported.decl))
    return lastReturn(staticMemberTypes(imported.decl, member, { sf: imported.sf, names: imported.names }));
  // `api` a value another file of the app exports (`export const api = { load(): RunState {…} }`): read there, with its names
  const value = v || cls || imported ? undefined : file.names.importedValue?.(owner);
  if (value) {
    v = value.decl;
    there = { sf: value.sf, names: value.names, followed };
    if (v?.type) return lastReturn(read(v.type, member, there, depth + 1));
  }
  // a default import of `export default { load(): RunState { … } }`: the object there
  let init = v?.initializer ?? value?.value;
  while (init && (typescript.isParenthesizedExpression(init) || typescript.isAsExpression(init) || typescript.isSatisfiesExpression(init)))
    init = init.expression;
  // `const api = new Api()`: the class's method, read as the member reader reads a value of the class
  if (init && typescript.isNewExpression(init) && typescript.isIdentifier(init.expression))
    return lastReturn(read(typescript.factory.createTypeReferenceNode(init.expression, init.typeArguments), member, there, depth + 1));
  if (!init || !typescript.isObjectLiteralExpression(init)) return undefined;
  for (const p of init.properties) {
    if (!p.name || !typescript.isIdentifier(p.name) || p.name.text !== member) continue;
    if (typescript.isMethodDeclaration(p)) return p.type && written(p.type, there);
    return typescript.isPropertyAssignment(p) ? functionReturn(p.initializer, there) : undefined;
  }
  return undefined;
}

/**
 * The return type `ReturnType` takes of a member's written types: of overloads, the last (as
 * TypeScript takes it); of a union of function types, each one's, as a union (it distributes).
 */
function lastReturn(types: WrittenType[] | undefined): WrittenType | undefined {
  const last = types?.at(-1);
  const returns = last && calledTypes(last);
  if (!returns || returns.length === 0) return undefined;
  return returns.length === 1 ? returns[0] : written(typescript.factory.createUnionTypeNode(returns.map((r) => r.type)), returns[0]!);
}
