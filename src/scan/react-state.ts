import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';

/*
 * React state's written types (issue 40: a realtime page keeping the approval item for a dialog,
 * `const [pending, setPending] = useState<RunToolApprovalItem | null>(null)`, and the session in
 * `useRef<RealtimeSession | null>(null)`, answered with `session.current?.approve(pending)`). The
 * type argument is what TypeScript gives the value; without one the value is not followed.
 */

/** The type argument of `useState<T>(…)` / `React.useState<T>(…)` when `decl` names its state (`const [s] = …`). */
export function useStateType(decl: ts.Node, name: string): ts.TypeNode | undefined {
  if (!typescript.isVariableDeclaration(decl) || !typescript.isArrayBindingPattern(decl.name)) return undefined;
  const first = decl.name.elements[0];
  if (!first || !typescript.isBindingElement(first) || !typescript.isIdentifier(first.name) || first.name.text !== name) return undefined;
  return hookTypeArgument(decl.initializer, 'useState');
}

/** The type argument of `useRef<T>(…)` when `decl` is `const ref = useRef<T>(…)`: `ref.current`'s type. */
export function useRefType(decl: ts.Node): ts.TypeNode | undefined {
  if (!typescript.isVariableDeclaration(decl) || !typescript.isIdentifier(decl.name)) return undefined;
  return hookTypeArgument(decl.initializer, 'useRef');
}

function hookTypeArgument(init: ts.Expression | undefined, hook: string): ts.TypeNode | undefined {
  if (!init || !typescript.isCallExpression(init)) return undefined;
  const callee = init.expression;
  const name = typescript.isIdentifier(callee) ? callee.text : typescript.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
  if (name !== hook || init.typeArguments?.length !== 1) return undefined;
  return init.typeArguments[0];
}
