import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { constInitializer, declarationOf } from '../local-values.js';
import type { HoistedVars } from '../scope.js';
import { skipWrappers } from '../syntax.js';

/*
 * The SDK's answer by a computed key (issue 40 item 4, gap A of the session 27 red team):
 * `const verdict = yes ? 'approve' : 'reject'; result.state[verdict](item)`. The key's values are
 * read from what the file writes (a literal, a ternary of literals, a `const`, a parameter or
 * variable typed with a literal union or an alias of one); a key check cannot read may be any
 * method, so it counts as an answer (fail closed), and one whose values are all other literals
 * (`act[ok ? 'yes' : 'no']`) is not one.
 */

export type AnswerMethod = 'approve' | 'approveTool' | 'reject' | 'rejectTool';
const METHODS: readonly AnswerMethod[] = ['approve', 'reject', 'approveTool', 'rejectTool'];

/** What a computed key may name: an answer method for sure among its values, or `unread` (a key check cannot read). */
export type AnswerKey = { method: AnswerMethod; unread?: true };

/** The string a name or member holds that the file's own reading does not know (names.ts's `constStringOf`). */
type ConstString = (e: ts.Expression) => string | undefined;

/**
 * The answer a computed key may name, or undefined when every value it may be is another literal.
 * `constString` reads what the file's declarations do not say: an enum member (`Verdict.Approve`),
 * a `const` or enum a relative module exports (`APPROVE`).
 */
export function answerKey(
  key: ts.Expression,
  ancestors: readonly ts.Node[],
  sf: ts.SourceFile,
  hoisted: HoistedVars | undefined,
  constString?: ConstString,
): AnswerKey | undefined {
  const values = keyValues(key, { ancestors, sf, hoisted, constString }, 0);
  if (values === undefined) return { method: 'approve', unread: true };
  const method = METHODS.find((m) => values.has(m));
  return method && { method };
}

const MAX_DEPTH = 6;

interface KeyScope {
  ancestors: readonly ts.Node[];
  sf: ts.SourceFile;
  hoisted: HoistedVars | undefined;
  constString: ConstString | undefined;
}

/** The strings a key may be, or undefined when check cannot tell. */
function keyValues(key: ts.Expression, at: KeyScope, depth: number): Set<string> | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const e = skipWrappers(key);
  if (typescript.isStringLiteralLike(e)) return new Set([e.text]);
  const next = (x: ts.Expression) => keyValues(x, at, depth + 1);
  // `yes ? 'approve' : 'reject'`, `choice ?? 'reject'`: either side
  if (typescript.isConditionalExpression(e)) return union(next(e.whenTrue), next(e.whenFalse));
  const k = typescript.SyntaxKind;
  if (typescript.isBinaryExpression(e) && (e.operatorToken.kind === k.QuestionQuestionToken || e.operatorToken.kind === k.BarBarToken))
    return union(next(e.left), next(e.right));
  // `Verdict.Approve`, `KEYS.yes`: an enum's or a frozen object's member, of this file or imported
  if (typescript.isPropertyAccessExpression(e)) return known(at.constString?.(e));
  if (!typescript.isIdentifier(e)) return undefined;
  const decl = declarationOf(e.text, at.ancestors, at.hoisted);
  // not declared in the file: an import (`import { APPROVE } from './keys.js'`)
  if (decl === undefined) return known(at.constString?.(e));
  // a written type says what the name may hold, whatever it is given later (`decision: 'approve' | 'reject'`)
  const type = (typescript.isVariableDeclaration(decl) || typescript.isParameter(decl)) && typescript.isIdentifier(decl.name) ? decl.type : undefined;
  if (type !== undefined) return typeValues(type, at.sf, depth + 1);
  const init = constInitializer(e.text, at.ancestors, at.hoisted);
  return init === undefined ? undefined : next(init);
}

const known = (value: string | undefined): Set<string> | undefined => (value === undefined ? undefined : new Set([value]));

/** The string literals a written type allows (a literal, a union of them, an alias of the file), or undefined for any other type. */
function typeValues(type: ts.TypeNode, sf: ts.SourceFile, depth: number): Set<string> | undefined {
  if (depth > MAX_DEPTH) return undefined;
  if (typescript.isParenthesizedTypeNode(type)) return typeValues(type.type, sf, depth + 1);
  // `choice: 'approve' | undefined`: a nullish key names no method (`state[undefined]` is no answer)
  if (type.kind === typescript.SyntaxKind.UndefinedKeyword) return new Set();
  if (typescript.isLiteralTypeNode(type)) {
    if (type.literal.kind === typescript.SyntaxKind.NullKeyword) return new Set();
    return typescript.isStringLiteral(type.literal) ? new Set([type.literal.text]) : undefined;
  }
  if (typescript.isUnionTypeNode(type)) {
    let all: Set<string> | undefined = new Set();
    for (const t of type.types) all = union(all, typeValues(t, sf, depth + 1));
    return all;
  }
  // `type Verdict = 'approve' | 'reject'` declared at the top of the file
  if (typescript.isTypeReferenceNode(type) && typescript.isIdentifier(type.typeName) && !type.typeArguments) {
    const name = type.typeName.text;
    const alias = sf.statements.find((s): s is ts.TypeAliasDeclaration => typescript.isTypeAliasDeclaration(s) && s.name.text === name && !s.typeParameters);
    return alias && typeValues(alias.type, sf, depth + 1);
  }
  return undefined;
}

const union = (a: Set<string> | undefined, b: Set<string> | undefined): Set<string> | undefined => (a && b ? new Set([...a, ...b]) : undefined);
