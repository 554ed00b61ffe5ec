import type { ts } from 'ts-morph';
import type { Narrowing, TagTest } from './tag-narrowing.js';
import { writtenValue } from './tag-values.js';
import { typescript } from './typescript.js';

/*
 * What `Extract<T, U>` and `Exclude<T, U>` leave of a tagged union T (issue 40 item 4: `Extract<Task,
 * { kind: 'agent' }>` is the usual way to name one kind of it), read as the tag tests that would
 * leave the same alternatives: `Extract` keeps those whose tags are U's, `Exclude` drops them. U is
 * read only when written as object literal types of tags (`{ kind: 'agent' }`, a union of such with
 * one same tag); any other U, or an `Exclude` of a U with several tags (an alternative is dropped
 * only when all match, which tag tests do not say), is unsure: every alternative may be left, and
 * the answer is the SDK's when any one is (fail closed).
 */

/** Nothing certain of what is left. */
const UNSURE: Narrowing = { constraints: [], unsure: true };

/** The tag tests `Extract<T, u>` (or, with `exclude`, `Exclude<T, u>`) amounts to. */
export function assignableTo(u: ts.TypeNode, exclude: boolean): Narrowing {
  const parts = unionParts(u).map(literalTags);
  if (parts.some((p) => p === undefined)) return UNSURE;
  const tests = parts as TagTest[][];
  // `Exclude` drops what is assignable to any part: each part one tag, each an excluded test
  if (exclude) return tests.every((t) => t.length === 1) ? { constraints: tests.map(([t]) => ({ ...t!, excluded: true })) } : UNSURE;
  // `Extract` of one object type: each of its tags holds
  if (tests.length === 1) return { constraints: tests[0]! };
  // of a union of them: certain only when each part tests the one same tag (`{ kind: 'a' } | { kind: 'b' }`)
  const key = tests[0]?.length === 1 ? tests[0][0]!.key : undefined;
  if (key === undefined || !tests.every((t) => t.length === 1 && t[0]!.key === key)) return UNSURE;
  return { constraints: [{ key, values: tests.flatMap((t) => t[0]!.values), assignable: true }] };
}

function unionParts(t: ts.TypeNode): ts.TypeNode[] {
  if (typescript.isParenthesizedTypeNode(t)) return unionParts(t.type);
  return typescript.isUnionTypeNode(t) ? t.types.flatMap(unionParts) : [t];
}

/**
 * An object literal type's tags, each a test of assignability (an alternative whose tag is not
 * written as a value may or may not be assignable); undefined when a member is no required tag
 * written as values (`kind: 'agent'`, `kind: 'a' | 'b'`, `kind: Kind.Agent`).
 */
function literalTags(t: ts.TypeNode): TagTest[] | undefined {
  if (!typescript.isTypeLiteralNode(t)) return undefined;
  const tests: TagTest[] = [];
  for (const m of t.members) {
    const prop = typescript.isPropertySignature(m) && !m.questionToken ? m : undefined;
    const key = memberName(prop?.name);
    const values = key !== undefined && prop?.type ? unionParts(prop.type).map(writtenValue) : [];
    if (key === undefined || values.length === 0 || values.some((v) => v === undefined)) return undefined;
    tests.push({ key, values: values as string[], assignable: true });
  }
  return tests;
}

/** A member's name written as an identifier or a string literal (`kind`, `'kind'`), else undefined. */
export function memberName(name: ts.PropertyName | ts.BindingName | undefined): string | undefined {
  if (name === undefined) return undefined;
  // `['state']: RunState`: a computed key of a literal is that member
  const key = typescript.isComputedPropertyName(name) ? name.expression : name;
  return typescript.isIdentifier(key) || typescript.isStringLiteralLike(key) || typescript.isNumericLiteral(key) ? key.text : undefined;
}
