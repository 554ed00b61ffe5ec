import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';

/**
 * The written type of a class field read as `this.name` (issue 40: a chat session kept in a class,
 * `private state?: RunState<…>`, `private pending: RunToolApprovalItem[]`, answered with
 * `this.state!.approve(item)`). The class is the one `this` names: the nearest enclosing class with
 * only arrow functions between (a `function` rebinds `this`). A field declared in the class body
 * (`#state` too), a getter's return type, a constructor parameter property, or any of these in a
 * base class the same file declares; undefined when none is declared with a type.
 */
export function thisFieldType(expr: ts.Expression, ancestors: readonly ts.Node[]): ts.TypeNode | undefined {
  return thisField(expr, ancestors)?.type;
}

/** What a class declares for one of its members: the written type, or a field's initializer when no type is written. */
export interface ClassField {
  type?: ts.TypeNode;
  initializer?: ts.Expression;
}

/** The member `this.name` reads (`this.#name` too), where the ancestors end; undefined when `expr` is not one or the class has none. */
export function thisField(expr: ts.Expression, ancestors: readonly ts.Node[]): ClassField | undefined {
  if (!typescript.isPropertyAccessExpression(expr) || expr.expression.kind !== typescript.SyntaxKind.ThisKeyword) return undefined;
  return thisFieldNamed(expr.name.text, ancestors);
}

/** The member `name` of the class `this` names where the ancestors end (`const { state } = this`). */
export function thisFieldNamed(name: string, ancestors: readonly ts.Node[]): ClassField | undefined {
  const at = thisClassAt(ancestors);
  return at && fieldIn(at.cls, name, ancestors.slice(0, at.index), 0);
}

/** How many base classes are followed (`class App extends Base`). */
const BASE_DEPTH = 4;

function fieldIn(cls: ts.ClassLikeDeclaration, name: string, outer: readonly ts.Node[], depth: number): ClassField | undefined {
  for (const member of cls.members) {
    if ((typescript.isPropertyDeclaration(member) || typescript.isGetAccessorDeclaration(member)) && memberName(member.name) === name)
      return {
        ...(member.type ? { type: member.type } : {}),
        ...(typescript.isPropertyDeclaration(member) && member.initializer ? { initializer: member.initializer } : {}),
      };
    if (!typescript.isConstructorDeclaration(member)) continue;
    for (const p of member.parameters) {
      // a parameter property: `constructor(private state: RunState)`
      const isProperty = (typescript.getModifiers(p)?.length ?? 0) > 0;
      if (isProperty && typescript.isIdentifier(p.name) && p.name.text === name) return p.type ? { type: p.type } : {};
    }
  }
  const base = depth < BASE_DEPTH ? baseClass(cls, outer) : undefined;
  return base && fieldIn(base.cls, name, outer.slice(0, base.index + 1), depth + 1);
}

/** An identifier's or a private name's text (`#state`); undefined for a computed name. */
function memberName(name: ts.PropertyName): string | undefined {
  return typescript.isIdentifier(name) || typescript.isPrivateIdentifier(name) ? name.text : undefined;
}

/**
 * The class `cls` extends by a plain name, when a scope around it (`outer`, outermost first)
 * declares that class; a base imported from another module is not read (one file, no checker).
 */
function baseClass(cls: ts.ClassLikeDeclaration, outer: readonly ts.Node[]): { cls: ts.ClassDeclaration; index: number } | undefined {
  const extended = cls.heritageClauses?.find((h) => h.token === typescript.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
  if (!extended || !typescript.isIdentifier(extended)) return undefined;
  for (let i = outer.length - 1; i >= 0; i--) {
    const statements = (outer[i] as { statements?: ts.NodeArray<ts.Statement> }).statements;
    const found = statements?.find((s): s is ts.ClassDeclaration => typescript.isClassDeclaration(s) && s.name?.text === extended.text);
    if (found) return found === cls ? undefined : { cls: found, index: i };
  }
  return undefined;
}

/**
 * The class instance `this` names where the ancestors end, with its index, or undefined: a plain
 * function's, an object literal's method's or accessor's (the object), a static member's or static
 * block's (the class itself, whose static fields are not read), or the module's `this`.
 */
function thisClassAt(ancestors: readonly ts.Node[]): { cls: ts.ClassLikeDeclaration; index: number } | undefined {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const n = ancestors[i]!;
    if (typescript.isClassDeclaration(n) || typescript.isClassExpression(n)) return { cls: n, index: i };
    if (typescript.isFunctionDeclaration(n) || typescript.isFunctionExpression(n)) return undefined;
    if (typescript.isClassStaticBlockDeclaration(n) || rebindsThis(n, ancestors[i - 1])) return undefined;
  }
  return undefined;
}

/** Whether `n` (in `parent`) is a method or accessor of an object literal, or a static member of a class. */
function rebindsThis(n: ts.Node, parent: ts.Node | undefined): boolean {
  const member =
    typescript.isMethodDeclaration(n) ||
    typescript.isGetAccessorDeclaration(n) ||
    typescript.isSetAccessorDeclaration(n) ||
    typescript.isPropertyDeclaration(n);
  if (!member) return false;
  if (parent !== undefined && typescript.isObjectLiteralExpression(parent)) return true;
  return typescript.getModifiers(n as ts.HasModifiers)?.some((m) => m.kind === typescript.SyntaxKind.StaticKeyword) === true;
}

/** Whether `this` where the ancestors end names a class that declares the method `name` (its own `approve`, not the SDK's). */
export function thisClassHasMethod(ancestors: readonly ts.Node[], name: string): boolean {
  const cls = thisClassAt(ancestors)?.cls;
  return cls?.members.some((m) => typescript.isMethodDeclaration(m) && typescript.isIdentifier(m.name) && m.name.text === name) === true;
}
