import type { ts } from 'ts-morph';
import { declarationAt, unwrapValue } from './local-values.js';
import type { HoistedVars } from './scope.js';
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

/**
 * The member `this.name` reads (`this.#name` too), or `Desk.name` of a static field of a class
 * declared in a scope around (`static state?: RunState`), where the ancestors end; undefined when
 * `expr` is not one or the class has none.
 */
export function thisField(expr: ts.Expression, ancestors: readonly ts.Node[]): ClassField | undefined {
  if (!typescript.isPropertyAccessExpression(expr)) return undefined;
  if (expr.expression.kind === typescript.SyntaxKind.ThisKeyword) return thisFieldNamed(expr.name.text, ancestors);
  if (!typescript.isIdentifier(expr.expression)) return undefined;
  // a static field read by its class's name (an instance field is not the class's: no answer there)
  const cls = classInScope(expr.expression.text, ancestors);
  return cls && fieldIn(cls.cls, expr.name.text, ancestors.slice(0, cls.index + 1), 0, true);
}

/**
 * The field a name takes from `this` (`const { state } = this`), read as `this` is where the
 * declaration is; undefined when the declaration does not destructure `this`.
 */
export function fieldFromThis(name: string, ancestors: readonly ts.Node[], hoisted: HoistedVars | undefined): ClassField | undefined {
  const at = declarationAt(name, ancestors, hoisted);
  const decl = at?.declaration;
  if (!at || !decl || !typescript.isVariableDeclaration(decl) || !decl.initializer) return undefined;
  if (unwrapValue(decl.initializer).kind !== typescript.SyntaxKind.ThisKeyword) return undefined;
  const key = destructuredKey(decl, name);
  return key === undefined ? undefined : thisFieldNamed(key, ancestors.slice(0, at.depth + 1));
}

/**
 * The property a name takes from an object pattern of a declaration (`state` of `const { state } =
 * r`, `state` of `const { state: s } = r` for `s`); undefined when the declaration is not one.
 */
export function destructuredKey(decl: ts.VariableDeclaration, name: string): string | undefined {
  if (!typescript.isObjectBindingPattern(decl.name)) return undefined;
  for (const el of decl.name.elements) {
    if (el.dotDotDotToken || !typescript.isIdentifier(el.name) || el.name.text !== name) continue;
    if (!el.propertyName) return name;
    return typescript.isIdentifier(el.propertyName) || typescript.isStringLiteral(el.propertyName) ? el.propertyName.text : undefined;
  }
  return undefined;
}

/** The member `name` of the class `this` names where the ancestors end (`const { state } = this`). */
export function thisFieldNamed(name: string, ancestors: readonly ts.Node[]): ClassField | undefined {
  const at = thisClassAt(ancestors);
  return at && fieldIn(at.cls, name, ancestors.slice(0, at.index), 0, at.statics);
}

/** How many base classes are followed (`class App extends Base`). */
const BASE_DEPTH = 4;

function fieldIn(cls: ts.ClassLikeDeclaration, name: string, outer: readonly ts.Node[], depth: number, staticOnly = false): ClassField | undefined {
  for (const member of cls.members) {
    if (staticOnly && !isStatic(member)) continue;
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
  return base && fieldIn(base.cls, name, outer.slice(0, base.index + 1), depth + 1, staticOnly);
}

const isStatic = (member: ts.ClassElement): boolean =>
  typescript.getModifiers(member as ts.HasModifiers)?.some((m) => m.kind === typescript.SyntaxKind.StaticKeyword) === true;

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
  const found = classInScope(extended.text, outer);
  return found?.cls === cls ? undefined : found;
}

/**
 * The name of the base class that `this` (where the ancestors end) extends when no scope of the file
 * declares it (`class Desk extends BaseDesk` of `import { BaseDesk } from './base.js'`), through
 * the bases the file declares; undefined when there is none, or `this` is no instance.
 */
export function outsideBaseName(ancestors: readonly ts.Node[]): string | undefined {
  const at = thisClassAt(ancestors);
  if (!at || at.statics) return undefined;
  let cls: ts.ClassLikeDeclaration = at.cls;
  let outer = ancestors.slice(0, at.index);
  for (let depth = 0; depth < BASE_DEPTH; depth++) {
    const extended = cls.heritageClauses?.find((h) => h.token === typescript.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
    if (!extended || !typescript.isIdentifier(extended)) return undefined;
    const found = classInScope(extended.text, outer);
    if (!found) return extended.text;
    if (found.cls === cls) return undefined;
    cls = found.cls;
    outer = outer.slice(0, found.index + 1);
  }
  return undefined;
}

/** The class declaration named `name` in the nearest scope around (`outer`, outermost first) that declares one, with that scope's index. */
export function classInScope(name: string, outer: readonly ts.Node[]): { cls: ts.ClassDeclaration; index: number } | undefined {
  for (let i = outer.length - 1; i >= 0; i--) {
    const statements = (outer[i] as { statements?: ts.NodeArray<ts.Statement> }).statements;
    const found = statements?.find((s): s is ts.ClassDeclaration => typescript.isClassDeclaration(s) && s.name?.text === name);
    if (found) return { cls: found, index: i };
  }
  return undefined;
}

/**
 * The class `this` names where the ancestors end, with its index, or undefined: a plain function's
 * or an object literal's method's or accessor's `this` (the object), or the module's. In a static
 * member or static block `this` is the class itself: `statics` says so, and only static fields are
 * read there.
 */
export function thisClassAt(ancestors: readonly ts.Node[]): { cls: ts.ClassLikeDeclaration; index: number; statics: boolean } | undefined {
  let statics = false;
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const n = ancestors[i]!;
    if (typescript.isClassDeclaration(n) || typescript.isClassExpression(n)) return { cls: n, index: i, statics };
    if (typescript.isFunctionDeclaration(n) || typescript.isFunctionExpression(n)) return undefined;
    if (isMember(n) && ancestors[i - 1] !== undefined && typescript.isObjectLiteralExpression(ancestors[i - 1]!)) return undefined;
    if (typescript.isClassStaticBlockDeclaration(n) || (isMember(n) && isStatic(n as ts.ClassElement))) statics = true;
  }
  return undefined;
}

/** Whether `n` is a method, accessor or property declaration (of a class or an object literal). */
function isMember(n: ts.Node): boolean {
  return (
    typescript.isMethodDeclaration(n) || typescript.isGetAccessorDeclaration(n) || typescript.isSetAccessorDeclaration(n) || typescript.isPropertyDeclaration(n)
  );
}

/** Whether `this` where the ancestors end names a class that declares the method `name` (its own `approve`, not the SDK's). */
export function thisClassHasMethod(ancestors: readonly ts.Node[], name: string): boolean {
  const cls = thisClassAt(ancestors)?.cls;
  return cls?.members.some((m) => typescript.isMethodDeclaration(m) && typescript.isIdentifier(m.name) && m.name.text === name) === true;
}
