import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';

/**
 * The arrow or function expression a value is (`const load = (): RunState => …`), through
 * parentheses and, with `casts`, `as` and `satisfies`; undefined for any other value. The one reader
 * of a function a variable, a field or a property holds, whose written return type the readers take.
 */
export function heldFunction(value: ts.Expression | undefined, casts = false): ts.ArrowFunction | ts.FunctionExpression | undefined {
  let e = value;
  while (e && (typescript.isParenthesizedExpression(e) || (casts && (typescript.isAsExpression(e) || typescript.isSatisfiesExpression(e))))) e = e.expression;
  return e && (typescript.isArrowFunction(e) || typescript.isFunctionExpression(e)) ? e : undefined;
}
