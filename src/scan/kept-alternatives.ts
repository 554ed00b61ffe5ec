import type { ts } from 'ts-morph';
import { memberName } from './assignable-tags.js';
import type { TagTest } from './tag-tests.js';
import type { Narrowing } from './tag-narrowing.js';
import { comparable, writtenValue } from './tag-values.js';
import type { MemberReader } from './type-shapes.js';
import { WALK_DEPTH } from './type-trail.js';
import { type FileTypeDeclaration, fileTypeDeclarations } from './file-type-declarations.js';
import { innerTypeDeclaration } from './type-scope.js';
import type { TypeFile } from './written-type.js';
import { typescript } from './typescript.js';

/*
 * Which alternatives of a union the tests around a use leave (issue 40 item 4), as TypeScript
 * narrows: a tag compared with a value, a truthiness test, `Extract`/`Exclude` (assignable-tags.ts),
 * and an `in` test (`'reviewer' in t`, TypeScript 4.9). An alternative is left out only when the
 * test certainly leaves it out; one the reader cannot tell about is kept unsurely (fail closed).
 */

/** How an alternative declares a member: required or optional (a type literal), declared as the reader finds it (another shape), or certainly absent. */
type Presence = 'required' | 'optional' | 'declared' | 'absent';

/**
 * Whether an alternative may hold the narrowed tags' values: one whose tag is written as a value
 * (tag-values.ts) the tests certainly leave out is not; one whose tag may or may not equal a
 * tested value (`'review'` beside `Kind.Review`), or is no boolean under a truthiness test, only
 * unsurely. `union` is the union the alternative is one of (an `in` test filters by its siblings).
 */
export function kept(
  alt: ts.TypeNode,
  union: readonly ts.TypeNode[],
  narrow: Narrowing,
  file: TypeFile,
  depth: number,
  read: MemberReader,
): 'yes' | 'unsure' | 'no' {
  let unsure = false;
  for (const test of narrow.constraints) {
    if (test.presence) {
      const keep = keptByPresence(alt, union, test, file, depth, read);
      if (keep === 'no') return 'no';
      unsure ||= keep === 'unsure';
      continue;
    }
    const tags = read(alt, test.key, file, depth);
    const value = tags?.length === 1 ? writtenValue(tags[0]!.type) : undefined;
    if (value === undefined) {
      // `Extract<T, { kind: 'review' }>`: an object type with no `kind` at all is never assignable to it
      if (test.assignable && !test.excluded && presence(alt, test.key, file, depth, read) === 'absent') return 'no';
      // a tag not written as a value: a truthiness test, or `Extract`'s assignability, may or may not leave it
      unsure ||= test.truthy === true || test.assignable === true;
    } else if (test.values.includes(value)) {
      if (test.excluded) return 'no';
    } else if (test.values.every((v) => comparable(v, value))) {
      if (!test.excluded) return 'no';
    } else unsure = true;
  }
  return unsure ? 'unsure' : 'yes';
}

/**
 * An `in` test's reading of one alternative, as TypeScript's: where `'k' in t` holds, an
 * alternative that declares `k` is left, and one without it is left out only when another
 * alternative of the union declares `k` (else TypeScript filters nothing); where it does not hold,
 * one that requires `k` is left out.
 */
function keptByPresence(
  alt: ts.TypeNode,
  union: readonly ts.TypeNode[],
  test: TagTest,
  file: TypeFile,
  depth: number,
  read: MemberReader,
): 'yes' | 'unsure' | 'no' {
  const has = presence(alt, test.key, file, depth, read);
  if (has === undefined) return 'unsure';
  if (test.excluded) return has === 'required' ? 'no' : has === 'declared' ? 'unsure' : 'yes';
  if (has !== 'absent') return 'yes';
  const others = union.filter((u) => u !== alt).map((u) => presence(u, test.key, file, depth, read));
  if (others.some((p) => p !== undefined && p !== 'absent')) return 'no';
  return others.some((p) => p === undefined) ? 'unsure' : 'yes';
}

/** How `alt` declares `key`; undefined when the reader cannot tell (an index signature, a shape it does not read). */
function presence(alt: ts.TypeNode, key: string, file: TypeFile, depth: number, read: MemberReader): Presence | undefined {
  const members = writtenMembers(alt, file, depth);
  if (members !== undefined) {
    const m = members.find((x) => !typescript.isIndexSignatureDeclaration(x) && memberName(x.name) === key);
    if (m !== undefined) return (typescript.isPropertySignature(m) || typescript.isMethodSignature(m)) && m.questionToken ? 'optional' : 'required';
    // an index signature may hold any member
    return members.some(typescript.isIndexSignatureDeclaration) ? undefined : 'absent';
  }
  return read(alt, key, file, depth) !== undefined ? 'declared' : undefined;
}

/**
 * Every member a type writes, when all are written in one place the reader sees: a type literal, or
 * the file's own alias of one or interface that extends nothing (merged declarations together);
 * undefined for any other (a base, another file's, a generic, a type the block declares).
 */
function writtenMembers(type: ts.TypeNode, file: TypeFile, depth: number): readonly ts.TypeElement[] | undefined {
  let t = type;
  while (typescript.isParenthesizedTypeNode(t)) t = t.type;
  if (typescript.isTypeLiteralNode(t)) return t.members;
  if (depth >= WALK_DEPTH || !typescript.isTypeReferenceNode(t) || !typescript.isIdentifier(t.typeName) || t.typeArguments) return undefined;
  if (innerTypeDeclaration(t.typeName.text, t, file.sf) !== undefined) return undefined;
  const decls = fileTypeDeclarations(file.sf, t.typeName.text);
  const [first] = decls;
  if (decls.length === 1 && first && typescript.isTypeAliasDeclaration(first) && !first.typeParameters) return writtenMembers(first.type, file, depth + 1);
  const plain = (d: FileTypeDeclaration) => typescript.isInterfaceDeclaration(d) && !d.heritageClauses && !d.typeParameters;
  return decls.length > 0 && decls.every(plain) ? decls.flatMap((d) => [...(d as ts.InterfaceDeclaration).members]) : undefined;
}
