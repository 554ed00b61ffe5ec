import type { ts } from 'ts-morph';
import { jsDocReturnType } from './jsdoc-types.js';
import { declarationOf } from './local-values.js';
import type { HoistedVars } from './scope.js';
import { typescript } from './typescript.js';
import { heldFunction } from './held-function.js';
import { callerSignatures } from './method-types.js';

/*
 * The type a call's value has when the function it calls writes its return type (issue 40 item 4):
 * `const p = load()` with `function load(): Pending` (or `declare function load(): Pending`), and
 * `const p = await load()` with `load(): Promise<Pending>`, or a JavaScript file's `/** @returns
 * {Pending} *\/ function load()`, or a variable holding an arrow or a function with a written return
 * type. A method or an import is not followed here.
 */

/** The written return type of the function `e` calls (through `await`, a `Promise`'s argument), or undefined. */
export function declaredReturnType(
  e: ts.Expression,
  ancestors: readonly ts.Node[],
  hoisted: HoistedVars | undefined,
  sf: ts.SourceFile,
): ts.TypeNode | undefined {
  let x = bare(e);
  const awaited = typescript.isAwaitExpression(x);
  if (typescript.isAwaitExpression(x)) x = bare(x.expression);
  if (!typescript.isCallExpression(x) || !typescript.isIdentifier(x.expression)) return undefined;
  const name = x.expression.text;
  // a name the scopes declare (a function of a block, or a variable hiding the file's function) first
  const scoped = declarationOf(name, ancestors, hoisted);
  const fns = scoped ? (typescript.isFunctionDeclaration(scoped) ? siblingsOf(scoped, ancestors) : []) : sf.statements;
  // `const load = (): RunState => …`, `const load: () => RunState = …`: the function the variable holds
  const held = scoped && typescript.isVariableDeclaration(scoped) ? [heldReturn(scoped)] : [];
  const types = [...held, ...signatureReturns(fns, name, sf)].filter((t) => t !== undefined).map((t) => (awaited ? promised(t) : t));
  // overloads (issue 40): the call may take any one, so what it returns is read as their union (fail closed for an answer)
  return types.length > 1 ? typescript.factory.createUnionTypeNode(types) : types[0];
}

/** The return type a variable's written function type writes, else that of the arrow or function expression it is given. */
function heldReturn(v: ts.VariableDeclaration): ts.TypeNode | undefined {
  let type = v.type;
  while (type && typescript.isParenthesizedTypeNode(type)) type = type.type;
  if (type) return typescript.isFunctionTypeNode(type) ? type.type : undefined;
  return heldFunction(v.initializer)?.type;
}

/** The statements around a function a block or the file declares (its overloads are among them). */
function siblingsOf(fn: ts.FunctionDeclaration, ancestors: readonly ts.Node[]): readonly ts.Statement[] {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const a = ancestors[i]!;
    const statements = typescript.isSourceFile(a) || typescript.isBlock(a) || typescript.isModuleBlock(a) ? a.statements : undefined;
    if (statements?.includes(fn)) return statements;
  }
  return [fn];
}

/**
 * The return types written for the signatures a call of the function `name` the statements declare
 * may take, in the order written (undefined where one writes none): its overloads (declarations
 * without a body, beside one with a body: the implementation's is not one a caller sees), else each
 * declaration. Empty when the statements declare no such function. The one reader of a function's
 * written return: a call reads them all (any may be taken), `ReturnType` the last (written-returns.ts).
 */
export function signatureReturns(statements: readonly ts.Statement[], name: string, sf: ts.SourceFile): (ts.TypeNode | undefined)[] {
  const fns = statements.filter((s): s is ts.FunctionDeclaration => typescript.isFunctionDeclaration(s) && s.name?.text === name);
  return callerSignatures(fns).map((fn) => returnType(fn, sf));
}

/** A function's return type as written: in its signature, or a JavaScript file's `@returns {Pending}`. */
const returnType = (fn: ts.FunctionDeclaration, sf: ts.SourceFile): ts.TypeNode | undefined => fn.type ?? jsDocReturnType(fn, sf);

/** Whether a value is awaited (`await load()`, through parentheses and non-null assertions). */
export const isAwaited = (e: ts.Expression): boolean => typescript.isAwaitExpression(bare(e));

/** A value without its parentheses and non-null assertions (`await` kept: it changes the type). */
function bare(e: ts.Expression): ts.Expression {
  let x = e;
  while (typescript.isParenthesizedExpression(x) || typescript.isNonNullExpression(x)) x = x.expression;
  return x;
}

/** `T` of `Promise<T>` (what `await` gives); any other type as it is. */
export function promised(type: ts.TypeNode): ts.TypeNode {
  const name = typescript.isTypeReferenceNode(type) && typescript.isIdentifier(type.typeName) ? type.typeName.text : undefined;
  const [first] = typescript.isTypeReferenceNode(type) ? (type.typeArguments ?? []) : [];
  return (name === 'Promise' || name === 'PromiseLike') && first ? first : type;
}
