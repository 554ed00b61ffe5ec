import type { ts } from 'ts-morph';
import { jsDocCallbackParameters, jsDocTypedefs, jsDocTypeOf } from './jsdoc-types.js';
import { elementTypes, type MemberReader, settle } from './type-shapes.js';
import type { TypeFile, WrittenType } from './written-type.js';
import { typescript } from './typescript.js';

/*
 * A parameter with no written type of its own that TypeScript types by its context (issue 40 item
 * 4): a callback handed to a typed list's element method (`ps.forEach((p) => …)`, `map`, `filter`,
 * …: its first parameter is an element), or an arrow held by a `const` written with a function type
 * (`const ok: (p: Pending) => void = (p) => …`, or a function type alias the file declares; in a
 * JavaScript file, the same type in the `@type` over the `const`). What gives no written type
 * (another call, an untyped holder) is not followed.
 */

/** The list methods whose callback's first parameter is the list's element. */
const ELEMENT_CALLBACKS = new Set(['forEach', 'map', 'filter', 'find', 'findIndex', 'findLast', 'findLastIndex', 'some', 'every', 'flatMap']);

/** What the context is read with: the written types of a value expression, and a type's member. */
export interface ContextReaders {
  valueTypes: (e: ts.Expression, ancestors: readonly ts.Node[]) => WrittenType[] | undefined;
  member: MemberReader;
}

/**
 * The written types the context gives `param`, declared by the function at `ancestors[depth]`;
 * undefined when the parameter writes its own type or no context writes one.
 */
export function contextualTypes(
  param: ts.ParameterDeclaration,
  ancestors: readonly ts.Node[],
  depth: number,
  file: TypeFile,
  read: ContextReaders,
): WrittenType[] | undefined {
  const fn = ancestors[depth];
  if (param.type || !fn || !(typescript.isArrowFunction(fn) || typescript.isFunctionExpression(fn))) return undefined;
  const index = fn.parameters.indexOf(param);
  if (index < 0) return undefined;
  // the node the function is handed to, past parentheses
  let at: ts.Node = fn;
  let j = depth - 1;
  while (j >= 0 && typescript.isParenthesizedExpression(ancestors[j]!)) at = ancestors[j--]!;
  const holder = ancestors[j];
  if (holder && typescript.isCallExpression(holder)) return index === 0 ? elementOfCallee(holder, at, ancestors.slice(0, j), read) : undefined;
  // the holder's type as written, or a JavaScript file's `/** @type {(p: Pending) => void} */` on its statement
  const held =
    holder && typescript.isVariableDeclaration(holder) && holder.initializer === at
      ? (holder.type ?? jsDocTypeOf(holder, ancestors.slice(0, j), file.sf))
      : undefined;
  if (held) {
    const written = parameterTypes(held, file.sf)?.[index];
    return written && [{ ...file, type: written }];
  }
  return undefined;
}

/** The element types of `list.forEach(fn)`'s list when `fn` is its first argument. */
function elementOfCallee(call: ts.CallExpression, fn: ts.Node, ancestors: readonly ts.Node[], read: ContextReaders): WrittenType[] | undefined {
  const callee = call.expression;
  if (!typescript.isPropertyAccessExpression(callee) || !ELEMENT_CALLBACKS.has(callee.name.text) || call.arguments[0] !== fn) return undefined;
  const lists = read.valueTypes(callee.expression, ancestors);
  const found = lists?.flatMap((l) => elementTypes(l, 0, read.member) ?? []).flatMap((t) => settle(t, read.member));
  return found && found.length > 0 ? found : undefined;
}

/**
 * The written types of a function type's parameters, in order: the type as written (`(p: Pending)
 * => void`, or JSDoc's `function(Pending)`), or through a type alias the file declares at its top
 * (`type Handler = (p: Pending) => void`, a JavaScript `/** @typedef {(p: Pending) => void} Handler
 * *\/`, or a `@callback Handler` whose `@param` tags write them).
 */
function parameterTypes(type: ts.TypeNode, sf: ts.SourceFile): ReadonlyArray<ts.TypeNode | undefined> | undefined {
  if (isFunctionType(type)) return type.parameters.map((p) => p.type);
  if (!typescript.isTypeReferenceNode(type) || !typescript.isIdentifier(type.typeName) || type.typeArguments) return undefined;
  const name = type.typeName.text;
  const alias = sf.statements.find((s): s is ts.TypeAliasDeclaration => typescript.isTypeAliasDeclaration(s) && s.name.text === name && !s.typeParameters);
  const written = alias ? alias.type : jsDocTypedefs(sf, name)[0];
  if (written) return isFunctionType(written) ? written.parameters.map((p) => p.type) : undefined;
  return jsDocCallbackParameters(sf, name);
}

const isFunctionType = (type: ts.TypeNode): type is ts.FunctionTypeNode | ts.JSDocFunctionType =>
  typescript.isFunctionTypeNode(type) || typescript.isJSDocFunctionType(type);
