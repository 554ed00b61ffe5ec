import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';
import { scopeDeclarations } from './scope.js';
import { isWrapper } from './syntax.js';

/**
 * Where a name read at the current point of the walk is declared: the innermost scope of
 * `ancestors` (outermost first) that declares it. A variable declaration, a parameter, or the
 * `for...of` statement whose loop variable it is; undefined for a global or an import.
 */
export function declarationOf(name: string, ancestors: readonly ts.Node[]): ts.Node | undefined {
  const wanted = new Set([name]);
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const node = ancestors[i]!;
    if (typescript.isSourceFile(node)) return topLevelDeclaration(node, name);
    const found = scopeDeclarations(node, wanted)[0];
    if (found) return found.declaration;
  }
  return undefined;
}

/** A top-level `const|let|var` of the file declaring `name` (scopeDeclarations skips the file itself). */
function topLevelDeclaration(sf: ts.SourceFile, name: string): ts.Node | undefined {
  for (const st of sf.statements) {
    if (!typescript.isVariableStatement(st)) continue;
    for (const d of st.declarationList.declarations) if (bindsName(d.name, name)) return d;
  }
  return undefined;
}

function bindsName(b: ts.BindingName, name: string): boolean {
  if (typescript.isIdentifier(b)) return b.text === name;
  return b.elements.some((el) => !typescript.isOmittedExpression(el) && bindsName(el.name, name));
}

/** Parentheses, casts, `await` and non-null assertions around a value. */
export function unwrapValue(expr: ts.Expression): ts.Expression {
  for (;;) {
    if (isWrapper(expr) || typescript.isAwaitExpression(expr)) {
      expr = expr.expression;
    } else return expr;
  }
}

/** The written type of a declaration (`state: RunState<...>`), as text; undefined when none is written. */
export function declaredTypeText(decl: ts.Node, sf: ts.SourceFile): string | undefined {
  if ((typescript.isVariableDeclaration(decl) || typescript.isParameter(decl)) && decl.type) return decl.type.getText(sf);
  return undefined;
}
