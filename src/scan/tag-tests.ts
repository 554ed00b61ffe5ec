import type { ts } from 'ts-morph';
import { declarationAt, initializerInScope, isConstDeclaration, unwrapValue } from './local-values.js';
import type { HoistedVars } from './scope.js';
import { destructuredKey } from './this-fields.js';
import { TRUTHY, testedValue } from './tag-values.js';
import { typescript } from './typescript.js';

/*
 * What one test expression says of a tagged union's object where it is true or false (issue 40
 * item 4), as TypeScript reads it: `===`/`!==` of `t.kind` to a value (tag-values.ts), `!`, a
 * truthiness test of a tag, `&&`/`||`; and, since TypeScript 4.4 and 4.6, a `const` that holds such
 * a test (`const isAgent = t.kind === 'agent'; if (isAgent)`) or a tag a `const` pattern took from
 * the object (`const { kind } = t; if (kind === 'agent')`). TypeScript narrows through those only
 * while the object is never assigned: a reading through one is marked `aliased` for the walk to check.
 */

/**
 * A tag's values a branch leaves: `t.kind` is one of `values` there, or none of them when
 * `excluded` (values as tag-values.ts writes them); `truthy` for a truthiness test (`if (t.sdk)`).
 */
export interface TagTest {
  key: string;
  values: readonly string[];
  excluded?: boolean;
  truthy?: boolean;
  /** Of `Extract`/`Exclude` (assignable-tags.ts): an alternative whose tag is not written as a value may or may not be left. */
  assignable?: boolean;
  /** Of `'key' in t` (no values): the alternatives that declare `key` are left, or (`excluded`) those that do not require it. */
  presence?: boolean;
}

/** What holds at a use: every constraint certainly; `unsure` when a test of the object was not read as certain, or the object is assigned again. */
export interface Narrowing {
  constraints: readonly TagTest[];
  unsure?: boolean;
  /** Read through a `const` holding the test or a destructured tag: holds only while the object is never assigned. */
  aliased?: boolean;
}

/** The object a test is read of (`name`, as written), and where the test is: the scope chain its names are read in. */
export interface Subject {
  name: string;
  sf: ts.SourceFile;
  ancestors: readonly ts.Node[];
  hoisted: HoistedVars | undefined;
}

/** How many `const`s deep a test is followed (TypeScript follows five). */
const ALIAS_DEPTH = 5;

/** What `e` being `holds` says of the subject's tags, or undefined when `e` does not mention it. */
export function readTest(e: ts.Expression, holds: boolean, s: Subject, depth = 0): Narrowing | undefined {
  const x = unwrapValue(e);
  if (typescript.isPrefixUnaryExpression(x) && x.operator === typescript.SyntaxKind.ExclamationToken) return readTest(x.operand, !holds, s, depth);
  const test = tagTest(x, s);
  if (test) return aliased({ constraints: [{ key: test.tag.key, values: [test.value], ...(holds === test.equal ? {} : { excluded: true }) }] }, test.tag);
  // `if (t.sdk)`, `!t.sdk`: the tag is truthy (or not) there
  const truthy = tagOf(x, s);
  if (truthy !== undefined)
    return aliased({ constraints: [{ key: truthy.key, values: [TRUTHY], truthy: true, ...(holds ? {} : { excluded: true }) }] }, truthy);
  // `'reviewer' in t`: the alternatives that declare the member (kept-alternatives.ts)
  const key = inTest(x, s);
  if (key !== undefined) return { constraints: [{ key, values: [], presence: true, ...(holds ? {} : { excluded: true }) }] };
  if (typescript.isBinaryExpression(x)) {
    const op = x.operatorToken.kind;
    const k = typescript.SyntaxKind;
    if (op === k.AmpersandAmpersandToken || op === k.BarBarToken) {
      const a = readTest(x.left, holds, s, depth);
      const b = readTest(x.right, holds, s, depth);
      // `A && B` true, `A || B` false: both sides hold
      const both = (op === k.AmpersandAmpersandToken) === holds;
      return both ? conjunction(a, b) : disjunction(a, b);
    }
  }
  if (typescript.isIdentifier(x) && x.text !== s.name) return heldTest(x.text, holds, s, depth);
  return mentions(x, s.name, s.sf) ? { constraints: [], unsure: true } : undefined;
}

/** A reading through a tag a pattern took: aliased; unsure (nothing of it certain) when TypeScript does not narrow through that pattern. */
export const aliased = (n: Narrowing, tag: Tag): Narrowing => (tag.unsure ? { constraints: [], unsure: true } : tag.aliased ? { ...n, aliased: true } : n);

/** A tag a test reads of the subject: `aliased` when read through a pattern (`const { kind } = t`), `unsure` when a `let` one (`let { kind } = t`). */
export interface Tag {
  key: string;
  aliased: boolean;
  unsure?: boolean;
}

/**
 * `isAgent` of `const isAgent = t.kind === 'agent'`: the test it holds, read where it is declared;
 * undefined when it holds no test of the subject. A `let` (TypeScript does not narrow through one),
 * a test of another binding of the name, or one too deep is unsure when it mentions the subject.
 */
function heldTest(alias: string, holds: boolean, s: Subject, depth: number): Narrowing | undefined {
  const held = initializerInScope(alias, s.ancestors, s.hoisted);
  if (!held) return undefined;
  const there = { ...s, ancestors: held.ancestors };
  if (held.constant && depth < ALIAS_DEPTH && sameBinding(s, held.ancestors)) {
    const read = readTest(held.init, holds, there, depth + 1);
    return read && { ...read, aliased: true };
  }
  return mentionsHeld(held.init, there) ? { constraints: [], unsure: true } : undefined;
}

/**
 * Whether `e` reads the subject, itself or through the values of the names it reads (`const b = a`
 * of `const a = t.kind === …`), however deep: each initializer is read once (`seen`), so a chain
 * whose locals each read the last several times stays linear, and a cycle of names ends.
 */
function mentionsHeld(e: ts.Node, s: Subject, seen: Set<ts.Node> = new Set()): boolean {
  if (mentions(e, s.name, s.sf)) return true;
  const visit = (n: ts.Node): boolean => {
    if (typescript.isIdentifier(n)) {
      const held = initializerInScope(n.text, s.ancestors, s.hoisted);
      if (held === undefined || seen.has(held.init)) return false;
      seen.add(held.init);
      return mentionsHeld(held.init, { ...s, ancestors: held.ancestors }, seen);
    }
    return typescript.forEachChild(n, (c) => visit(c) || undefined) ?? false;
  };
  return visit(e);
}

/** Whether the subject's name (its root) is the same declaration where `there` ends as where the subject is read. */
function sameBinding(s: Subject, there: readonly ts.Node[]): boolean {
  if (!/^[\w$]+$/.test(s.name)) return false;
  return declarationAt(s.name, there, s.hoisted)?.declaration === declarationAt(s.name, s.ancestors, s.hoisted)?.declaration;
}

function conjunction(a: Narrowing | undefined, b: Narrowing | undefined): Narrowing | undefined {
  if (!a || !b) return a ?? b;
  return { constraints: [...a.constraints, ...b.constraints], ...flags(a, b) };
}

/** The unsure and aliased marks of either side. */
const flags = (a: Narrowing | undefined, b: Narrowing | undefined) => ({
  ...(a?.unsure || b?.unsure ? { unsure: true } : {}),
  ...(a?.aliased || b?.aliased ? { aliased: true } : {}),
});

/** Either side holds: certain only when each side tests the one same tag (`t.kind === 'a' || t.kind === 'b'`). */
export function disjunction(a: Narrowing | undefined, b: Narrowing | undefined): Narrowing | undefined {
  if (!a && !b) return undefined;
  // a side that tests nothing of the object leaves it any kind
  const x = a?.constraints.length === 1 ? a.constraints[0]! : undefined;
  const y = b?.constraints.length === 1 ? b.constraints[0]! : undefined;
  // two `in` tests, or one beside a tag's: no one test says which alternatives either leaves
  if (!x || !y || x.key !== y.key || x.presence || y.presence) return { constraints: [], unsure: true, ...flags(a, b) };
  return { constraints: [eitherOf(x, y)], ...flags(a, b) };
}

/** The tag's values either test leaves, as one test. */
function eitherOf(x: TagTest, y: TagTest): TagTest {
  const [inX, inY] = [!x.excluded, !y.excluded];
  const truthy = x.truthy || y.truthy ? { truthy: true } : {};
  if (inX && inY) return { key: x.key, values: [...new Set([...x.values, ...y.values])], ...truthy };
  if (!inX && !inY) return { key: x.key, values: x.values.filter((v) => y.values.includes(v)), excluded: true, ...truthy };
  // one in a set, the other out of one: out of what the second excludes and the first does not name
  const [kept, out] = inX ? [x, y] : [y, x];
  return { key: x.key, values: out.values.filter((v) => !kept.values.includes(v)), excluded: true, ...truthy };
}

/** Whether `e` reads `name` (the object or a member of it) anywhere. */
export function mentions(e: ts.Node, name: string, sf: ts.SourceFile): boolean {
  if ((typescript.isIdentifier(e) || typescript.isPropertyAccessExpression(e) || e.kind === typescript.SyntaxKind.ThisKeyword) && e.getText(sf) === name)
    return true;
  return typescript.forEachChild(e, (c) => mentions(c, name, sf) || undefined) ?? false;
}

/** The member `'key' in obj` tests of the subject itself: a string literal, or a `const` holding one (TypeScript narrows by its literal type); else undefined. */
function inTest(x: ts.Expression, s: Subject): string | undefined {
  if (!typescript.isBinaryExpression(x) || x.operatorToken.kind !== typescript.SyntaxKind.InKeyword) return undefined;
  let obj = x.right;
  while (typescript.isParenthesizedExpression(obj)) obj = obj.expression;
  const key = obj.getText(s.sf) === s.name ? comparedValue(x.left, s) : undefined;
  return key?.startsWith('s:') ? key.slice(2) : undefined;
}

/** `obj.key === 'v'` (either side, `==` too; `!==`/`!=` as not equal; `v` a literal or an enum member), or undefined. */
function tagTest(x: ts.Expression, s: Subject): { tag: Tag; value: string; equal: boolean } | undefined {
  if (!typescript.isBinaryExpression(x)) return undefined;
  const op = x.operatorToken.kind;
  const k = typescript.SyntaxKind;
  const equal = op === k.EqualsEqualsEqualsToken || op === k.EqualsEqualsToken;
  if (!equal && op !== k.ExclamationEqualsEqualsToken && op !== k.ExclamationEqualsToken) return undefined;
  for (const [a, b] of [
    [x.left, x.right],
    [x.right, x.left],
  ] as const) {
    const tag = tagOf(a, s);
    const value = comparedValue(b, s);
    if (tag !== undefined && value !== undefined) return { tag, value, equal };
  }
  return undefined;
}

/**
 * The value a test compares a tag with: a literal or enum member as written, or one a `const` of
 * the scope holds (`const REVIEW = 'review'`; TypeScript narrows by its literal type). A `let`, or
 * a `const` holding anything else, is no value.
 */
export function comparedValue(e: ts.Expression, s: Subject): string | undefined {
  const x = unwrapValue(e);
  const written = testedValue(x);
  if (written !== undefined || !typescript.isIdentifier(x)) return written;
  const held = initializerInScope(x.text, s.ancestors, s.hoisted);
  return held?.constant ? testedValue(unwrapValue(held.init)) : undefined;
}

/**
 * The tag `e` reads of the subject: `key` of `obj.key`, or of a name a pattern `const { key } =
 * obj` binds (aliased; unsure for a `let` or another binding of the object's name, which TypeScript
 * does not narrow through though the value may be the tested one); undefined otherwise.
 */
export function tagOf(e: ts.Expression, s: Subject): Tag | undefined {
  const x = unwrapValue(e);
  if (typescript.isPropertyAccessExpression(x)) return x.expression.getText(s.sf) === s.name ? { key: x.name.text, aliased: false } : undefined;
  if (!typescript.isIdentifier(x)) return undefined;
  const at = declarationAt(x.text, s.ancestors, s.hoisted);
  const decl = at?.declaration;
  if (!at || !decl || !typescript.isVariableDeclaration(decl) || !decl.initializer) return undefined;
  const scope = s.ancestors.slice(0, at.depth + 1);
  const key = unwrapValue(decl.initializer).getText(s.sf) === s.name ? destructuredKey(decl, x.text) : undefined;
  if (key === undefined) return undefined;
  return { key, aliased: true, ...(isConstDeclaration(decl, scope) && sameBinding(s, scope) ? {} : { unsure: true }) };
}
