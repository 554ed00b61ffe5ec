import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';
import type { ScopedInitializer } from './local-values.js';
import { skipParens } from './syntax.js';

// A top-level `let` or `var` given several values (`let e = module.exports; e = {}; e.x = …`): in
// straight-line top-level code the value it holds where it is read is the last one given before,
// so the others need not be read there (issue 40 item 3: no false alarm).

/**
 * Of `values` (every value the local `name` may hold, `valuesInScope`), the one it holds where
 * `read` is: the last given before `read`'s top-level statement. Only when the top level gives
 * every value in a statement of its own (`let e = a;`, `e = b;`) and `read` is in top-level code
 * (no function or class between): undefined otherwise (a value given in a function, a branch, by
 * `??=`, in `read`'s own statement), and the caller keeps every value. Empty: none given yet.
 */
export function heldAtTop(sf: ts.SourceFile, name: string, read: ts.Node, values: readonly ScopedInitializer[]): ScopedInitializer[] | undefined {
  const at = statementIndex(sf, read);
  if (at === undefined || inFunction(sf.statements[at]!, read)) return undefined;
  let last: ScopedInitializer | undefined;
  let lastAt = -1;
  for (const v of values) {
    const i = statementIndex(sf, v.init);
    if (i === undefined || i === at || !givenAlone(sf.statements[i]!, name, v.init)) return undefined;
    if (i < at && i > lastAt) {
      last = v;
      lastAt = i;
    }
  }
  return last === undefined ? [] : [last];
}

/** The index of the top-level statement holding `node`. */
function statementIndex(sf: ts.SourceFile, node: ts.Node): number | undefined {
  const list = sf.statements;
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const st = list[mid]!;
    if (node.end <= st.pos) hi = mid - 1;
    else if (node.pos >= st.end) lo = mid + 1;
    else return st.pos <= node.pos && node.end <= st.end ? mid : undefined;
  }
  return undefined;
}

/** Whether a function or a class lies between `from` (itself included) and `node`: code there runs when called, not in order. */
function inFunction(from: ts.Node, node: ts.Node): boolean {
  let at: ts.Node | undefined = from;
  while (at !== undefined && at !== node) {
    if (typescript.isFunctionLike(at) || typescript.isClassLike(at)) return true;
    at = typescript.forEachChild(at, (c) => (c.pos <= node.pos && node.end <= c.end ? c : undefined));
  }
  // not found under `from`: not known to be in order
  return at === undefined;
}

/** `let|var name = value;` or `name = value;`: the statement gives the local `value` whenever it runs. */
function givenAlone(st: ts.Statement, name: string, value: ts.Expression): boolean {
  if (typescript.isVariableStatement(st))
    return st.declarationList.declarations.some((d) => d.initializer === value && typescript.isIdentifier(d.name) && d.name.text === name);
  if (!typescript.isExpressionStatement(st)) return false;
  const e = skipParens(st.expression);
  return (
    typescript.isBinaryExpression(e) &&
    e.operatorToken.kind === typescript.SyntaxKind.EqualsToken &&
    e.right === value &&
    typescript.isIdentifier(skipParens(e.left)) &&
    (skipParens(e.left) as ts.Identifier).text === name
  );
}
