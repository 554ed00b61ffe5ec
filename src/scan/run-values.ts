import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';
import { declarationOf, unwrapValue } from './local-values.js';
import type { HoistedVars } from './scope.js';

/**
 * What a run's arguments are when the code says it only in types (loop session 14, a server that keeps one Runner
 * per conversation): a Runner a method or function of the file returns (`const runner = this.getRunner(id)` with
 * `getRunner(id): Runner`), or a variable typed `Runner`; and a run input typed as either a RunState or a fresh input
 * (`let input: AgentInputItem[] | RunState`), which starts a run as often as it resumes one.
 */
export interface TypeLookup {
  sf: ts.SourceFile;
  ancestors: readonly ts.Node[];
  /** The `var`s each function of the file hoists, when the scan filed them (local-values.ts). */
  hoisted?: HoistedVars;
  /** The SDK export a name stands for (`Runner`), if any. */
  sdkMember: (expr: ts.Expression) => string | undefined;
}

/** A type annotation naming the SDK's Runner (`Runner`, `Promise<Runner>`). */
function namesRunner(type: ts.TypeNode | undefined, ctx: TypeLookup): boolean {
  if (!type || !typescript.isTypeReferenceNode(type) || !typescript.isIdentifier(type.typeName)) return false;
  if (type.typeName.text === 'Promise') return namesRunner(type.typeArguments?.[0], ctx);
  return ctx.sdkMember(type.typeName) === 'Runner';
}

/** A variable or parameter declared with the type Runner. */
export function typedRunner(name: string, ctx: TypeLookup): boolean {
  const decl = declarationOf(name, ctx.ancestors, ctx.hoisted);
  return !!decl && (typescript.isVariableDeclaration(decl) || typescript.isParameter(decl)) && namesRunner(decl.type, ctx);
}

/** A call of a method of the enclosing class (`this.getRunner()`) or of a function of the file declared to return a Runner. */
export function callReturnsRunner(call: ts.CallExpression, ctx: TypeLookup): boolean {
  const callee = unwrapValue(call.expression);
  if (typescript.isPropertyAccessExpression(callee) && callee.expression.kind === typescript.SyntaxKind.ThisKeyword) {
    const cls = [...ctx.ancestors].reverse().find((a) => typescript.isClassDeclaration(a) || typescript.isClassExpression(a)) as
      | ts.ClassLikeDeclaration
      | undefined;
    const method = cls?.members.find((m) => typescript.isMethodDeclaration(m) && m.name.getText(ctx.sf) === callee.name.text) as
      | ts.MethodDeclaration
      | undefined;
    return namesRunner(method?.type, ctx);
  }
  if (typescript.isIdentifier(callee)) {
    const fn = ctx.sf.statements.find((s) => typescript.isFunctionDeclaration(s) && s.name?.text === callee.text) as ts.FunctionDeclaration | undefined;
    return namesRunner(fn?.type, ctx);
  }
  return false;
}

/** An input variable typed as a union with a member that is not a RunState (nor undefined/null): it may start a run. */
export function mayStartRun(input: ts.Expression, ctx: TypeLookup): boolean {
  const e = unwrapValue(input);
  if (!typescript.isIdentifier(e)) return false;
  const decl = declarationOf(e.text, ctx.ancestors, ctx.hoisted);
  const type = decl && (typescript.isVariableDeclaration(decl) || typescript.isParameter(decl)) ? decl.type : undefined;
  if (!type || !typescript.isUnionTypeNode(type)) return false;
  return type.types.some((t) => !/\bRunState\b/.test(t.getText(ctx.sf)) && t.kind !== typescript.SyntaxKind.UndefinedKeyword && !isNullType(t));
}

function isNullType(t: ts.TypeNode): boolean {
  return typescript.isLiteralTypeNode(t) && t.literal.kind === typescript.SyntaxKind.NullKeyword;
}
