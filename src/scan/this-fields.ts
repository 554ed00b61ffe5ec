import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';

/**
 * The written type of a class field read as `this.name` (issue 40: a chat session kept in a class,
 * `private state?: RunState<…>`, `private pending: RunToolApprovalItem[]`, answered with
 * `this.state!.approve(item)`). The class is the one `this` names: the nearest enclosing class with
 * only arrow functions between (a `function` rebinds `this`). A field declared in the class body or
 * as a constructor parameter property; undefined when none is declared with a type.
 */
export function thisFieldType(expr: ts.Expression, ancestors: readonly ts.Node[]): ts.TypeNode | undefined {
  if (!typescript.isPropertyAccessExpression(expr) || expr.expression.kind !== typescript.SyntaxKind.ThisKeyword) return undefined;
  const cls = thisClass(ancestors);
  if (!cls) return undefined;
  const name = expr.name.text;
  for (const member of cls.members) {
    if (typescript.isPropertyDeclaration(member) && typescript.isIdentifier(member.name) && member.name.text === name) return member.type;
    if (!typescript.isConstructorDeclaration(member)) continue;
    for (const p of member.parameters) {
      // a parameter property: `constructor(private state: RunState)`
      const isProperty = (typescript.getModifiers(p)?.length ?? 0) > 0;
      if (isProperty && typescript.isIdentifier(p.name) && p.name.text === name) return p.type;
    }
  }
  return undefined;
}

/** The class `this` names where the ancestors end, or undefined (a plain function's or the module's `this`). */
function thisClass(ancestors: readonly ts.Node[]): ts.ClassLikeDeclaration | undefined {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const n = ancestors[i]!;
    if (typescript.isClassDeclaration(n) || typescript.isClassExpression(n)) return n;
    if (typescript.isFunctionDeclaration(n) || typescript.isFunctionExpression(n)) return undefined;
  }
  return undefined;
}

/** Whether `this` where the ancestors end names a class that declares the method `name` (its own `approve`, not the SDK's). */
export function thisClassHasMethod(ancestors: readonly ts.Node[], name: string): boolean {
  const cls = thisClass(ancestors);
  return cls?.members.some((m) => typescript.isMethodDeclaration(m) && typescript.isIdentifier(m.name) && m.name.text === name) === true;
}
