import type { ts } from 'ts-morph';
import { heldFunctionType, isInstanceMethod, isStaticMember } from './method-types.js';
import { typescript } from './typescript.js';

/**
 * The type of `this` in an instance member of a class with no name of its own (`const Store = class
 * { … }`, `export default class { … }`, a class handed to a function), which no type reference can
 * name: its instance methods, typed fields and fields holding an arrow with a written return type,
 * as an object type, each member's types the nodes written in the file (where their names are read).
 * A base it extends by name (`class extends Base`) is read too, as an intersection. Undefined when
 * it writes none of them.
 */
export function unnamedClassType(cls: ts.ClassLikeDeclaration): ts.TypeNode | undefined {
  const f = typescript.factory;
  const members: ts.TypeElement[] = [];
  for (const m of cls.members) {
    if (isInstanceMethod(m) && m.type) members.push(f.createMethodSignature(undefined, m.name, m.questionToken, m.typeParameters, m.parameters, m.type));
    if (!typescript.isPropertyDeclaration(m) || isStaticMember(m)) continue;
    const type = m.type ?? heldFunctionType(m.initializer);
    if (type) members.push(f.createPropertySignature(undefined, m.name, m.questionToken, type));
  }
  const base = cls.heritageClauses?.find((h) => h.token === typescript.SyntaxKind.ExtendsKeyword)?.types[0];
  const named = base && typescript.isIdentifier(base.expression) ? f.createTypeReferenceNode(base.expression, base.typeArguments) : undefined;
  const own = members.length > 0 ? f.createTypeLiteralNode(members) : undefined;
  return own && named ? f.createIntersectionTypeNode([own, named]) : (own ?? named);
}
