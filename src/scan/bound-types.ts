import type { ts } from 'ts-morph';
import { contextualTypes } from './contextual-params.js';
import { declarationAt } from './local-values.js';
import type { HoistedVars } from './scope.js';
import { elementTypes, type MemberReader, settle } from './type-shapes.js';
import type { TypeFile, WrittenType } from './written-type.js';
import { typescript } from './typescript.js';

/*
 * The written types of a name the language binds from a written type rather than declares with one
 * (issue 40 item 4): a name of a destructuring pattern (`({ state }: Pending)`, `const [state] = e`,
 * `const { state } = entry`), the variable of a `for … of` over a typed list (`for (const p of
 * pending)`, `for (const { state } of pending)`), a local written as a cast (`const p = x as
 * Pending`). TypeScript types each by walking the written type down the pattern: a member for each
 * key, an element for each place, an element of the list for the loop. What is not written (a
 * computed key, an array's rest element, a list whose type is not written) is not followed.
 */

/** A step from a pattern's whole value down to a name it binds: a member (`{ state }`) or a place (`[state]`). */
type Step = { member: string } | { place: number };

/** What the walk reads with: the written types of a value expression, and a type's member (written-members.ts). */
export interface BindingReaders {
  valueTypes: (e: ts.Expression, ancestors: readonly ts.Node[]) => WrittenType[] | undefined;
  member: MemberReader;
}

/**
 * The type a cast writes (`x as Pending`, `<Pending>x`, through parentheses and `!`), or undefined:
 * `as any` and `as unknown` write none the readers can use (the value's own type stays; `as const`
 * names no type the readers find, and reads as nothing written).
 */
export function castType(e: ts.Expression): ts.TypeNode | undefined {
  let x = e;
  while (typescript.isParenthesizedExpression(x) || typescript.isNonNullExpression(x)) x = x.expression;
  if (!typescript.isAsExpression(x) && !typescript.isTypeAssertionExpression(x)) return undefined;
  const k = typescript.SyntaxKind;
  return x.type.kind === k.AnyKeyword || x.type.kind === k.UnknownKeyword ? undefined : x.type;
}

/**
 * The written types of `name` where `ancestors` end when a pattern or a `for … of` binds it (see
 * above), or undefined when it is a plain declared name (read by its declaration) or nothing written
 * reaches it.
 */
export function boundTypes(
  name: string,
  ancestors: readonly ts.Node[],
  file: TypeFile,
  hoisted: HoistedVars | undefined,
  read: BindingReaders,
): WrittenType[] | undefined {
  const at = declarationAt(name, ancestors, hoisted);
  const decl = at?.declaration;
  if (!at || !decl) return undefined;
  let pattern: ts.BindingName;
  let whole: WrittenType[] | undefined;
  if (typescript.isForOfStatement(decl)) {
    const list = decl.initializer;
    if (!typescript.isVariableDeclarationList(list) || list.declarations.length !== 1) return undefined;
    pattern = list.declarations[0]!.name;
    // the list is read outside the loop (its own variables are not yet bound there)
    const lists = read.valueTypes(decl.expression, ancestors.slice(0, at.depth));
    whole = lists?.flatMap((l) => elementTypes(l, 0, read.member) ?? []).flatMap((t) => settle(t, read.member));
  } else if (typescript.isForStatement(decl)) {
    // `for (let s: RunState = get(); …)`: the scope declares the loop, its list the variable
    const list = decl.initializer;
    const own = list && typescript.isVariableDeclarationList(list) ? list.declarations.find((d) => pathTo(d.name, name)) : undefined;
    if (!own) return undefined;
    pattern = own.name;
    whole = own.type ? [{ ...file, type: own.type }] : own.initializer && valueOrCast(own.initializer, ancestors.slice(0, at.depth + 1), file, read);
  } else if (typescript.isVariableDeclaration(decl) || typescript.isParameter(decl)) {
    pattern = decl.name;
    // a parameter typed by its context (`ps.forEach((p) => …)`), plain or a pattern
    const context = typescript.isParameter(decl) ? contextualTypes(decl, ancestors, at.depth, file, read) : undefined;
    // a plain name is read by its declaration; a pattern's names through what it destructures
    if (typescript.isIdentifier(pattern) && !context) return undefined;
    // the initializer's names are read in the scope that declares the pattern
    whole =
      context ?? (decl.type ? [{ ...file, type: decl.type }] : decl.initializer && valueOrCast(decl.initializer, ancestors.slice(0, at.depth + 1), file, read));
  } else return undefined;
  const steps = pathTo(pattern, name);
  if (!whole || !steps) return undefined;
  let found = whole;
  for (const step of steps) found = found.flatMap((h) => stepInto(h, step, read.member)).flatMap((t) => settle(t, read.member));
  return found.length > 0 ? found : undefined;
}

/** The written types of a value: the type a cast writes, else what the value reader finds. */
function valueOrCast(e: ts.Expression, ancestors: readonly ts.Node[], file: TypeFile, read: BindingReaders): WrittenType[] | undefined {
  const cast = castType(e);
  return cast ? [{ ...file, type: cast }] : read.valueTypes(e, ancestors);
}

function stepInto(h: WrittenType, step: Step, member: MemberReader): WrittenType[] {
  return ('member' in step ? member(h.type, step.member, h, 0) : elementTypes(h, 0, member, step.place)) ?? [];
}

/** The steps from a pattern down to `name`, or undefined when it does not bind `name` or binds it through an array's rest element or a computed key. */
function pathTo(pattern: ts.BindingName, name: string): Step[] | undefined {
  if (typescript.isIdentifier(pattern)) return pattern.text === name ? [] : undefined;
  for (const [place, el] of pattern.elements.entries()) {
    if (typescript.isOmittedExpression(el)) continue;
    const inner = pathTo(el.name, name);
    if (!inner) continue;
    // an object's rest holds the members the pattern does not name, each of the whole's type; an array's rest is a list of its own
    if (el.dotDotDotToken) return typescript.isObjectBindingPattern(pattern) ? inner : undefined;
    if (typescript.isArrayBindingPattern(pattern)) return [{ place }, ...inner];
    const key = el.propertyName ?? el.name;
    const member = typescript.isIdentifier(key) || typescript.isStringLiteral(key) || typescript.isNumericLiteral(key) ? key.text : undefined;
    return member === undefined ? undefined : [{ member }, ...inner];
  }
  return undefined;
}
