import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';

/**
 * The values `c ? a : b`, `a ?? b`, `a || b` and `a && b` may be, or undefined for any other
 * expression. Of `a && b` only the right side unless `andLeft`: an object (a state, an item, a
 * record holding one) is never falsy, so `(s && review)` is the review; where a falsy value matters
 * (`ok && s` as a run's input may be `false`), both.
 */
export function valueBranches(e: ts.Expression, andLeft = false): readonly ts.Expression[] | undefined {
  if (typescript.isConditionalExpression(e)) return [e.whenTrue, e.whenFalse];
  if (!typescript.isBinaryExpression(e)) return undefined;
  const k = typescript.SyntaxKind;
  const op = e.operatorToken.kind;
  if (op === k.AmpersandAmpersandToken) return andLeft ? [e.left, e.right] : [e.right];
  return op === k.QuestionQuestionToken || op === k.BarBarToken ? [e.left, e.right] : undefined;
}
