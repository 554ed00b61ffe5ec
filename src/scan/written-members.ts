import type { ts } from 'ts-morph';
import { declarationOf, unwrapValue } from './local-values.js';
import { type HeldType, mapGetType } from './map-values.js';
import { thisFieldType } from './this-fields.js';
import type { HoistedVars } from './scope.js';
import type { TypeFile, WrittenType } from './written-type.js';
import { declarationFile, elementTypes, globalMember, settle, shapeMember } from './type-shapes.js';
import { typescript } from './typescript.js';
import type { SdkTypeNames } from './written-sdk-type.js';

/*
 * A property's written type through the object's written type (issue 40: an approval handler's
 * `entry.state.approve(entry.item)` with `const entry = pending.get(id)!` over `const pending = new
 * Map<string, { state: RunState<…>; item: RunToolApprovalItem }>()`). The object is a name whose
 * declaration writes a type, or reads a `Map`'s value (`m.get(k)`) whose type arguments are
 * written, or `m.get(k)` itself, or a class field with a written type (`this.entry`); a type is an object literal type, a union of them, or an alias or interface the file
 * declares at its top, or one another file of the app exports (imported-types.ts, read with that
 * file's names). Nothing is inferred: what is not written is not followed. A union gives the
 * member's type in each alternative that writes it (a tagged union's `t.state` is every kind's
 * `state`: the narrowing is not read), and the reader asks that each be the SDK's.
 */

/** How many aliases are followed from one type (`type A = B; type B = {…}`). */
const ALIAS_DEPTH = 4;

export type { WrittenType } from './written-type.js';

/** The written types of `obj.member`, one an alternative of the object's type, or undefined when the object's type does not write it. */
export function writtenMemberType(
  obj: ts.Expression,
  member: string,
  ancestors: readonly ts.Node[],
  file: { sf: ts.SourceFile; names: SdkTypeNames },
  hoisted?: HoistedVars,
): WrittenType[] | undefined {
  return writtenMember(obj, member, ancestors, file, hoisted, 0);
}

/** How many members and elements deep an object is read (`p.job.state`, `ps[0].state`). */
const ACCESS_DEPTH = 6;

function writtenMember(
  obj: ts.Expression,
  member: string,
  ancestors: readonly ts.Node[],
  file: TypeFile,
  hoisted: HoistedVars | undefined,
  depth: number,
): WrittenType[] | undefined {
  const e = unwrapValue(obj);
  const held = writtenTypesOf(e, ancestors, file, hoisted, depth);
  const narrow = narrowing(e, ancestors, file.sf);
  const found = held?.flatMap((h) => memberIn(h.type, member, h, 0, narrow) ?? []).flatMap((t) => settle(t, memberIn));
  return found && found.length > 0 ? found : undefined;
}

/**
 * The written types of `xs[i]` (`ps[0]`, `r['a']`): each alternative's element, or, for a string
 * key, its member (a `Record`'s value, an index signature's type); undefined when none is written.
 */
export function writtenElementType(
  e: ts.ElementAccessExpression,
  ancestors: readonly ts.Node[],
  file: TypeFile,
  hoisted?: HoistedVars,
): WrittenType[] | undefined {
  return writtenElement(e, ancestors, file, hoisted, 0);
}

function writtenElement(
  e: ts.ElementAccessExpression,
  ancestors: readonly ts.Node[],
  file: TypeFile,
  hoisted: HoistedVars | undefined,
  depth: number,
): WrittenType[] | undefined {
  const key = unwrapValue(e.argumentExpression);
  const held = writtenTypesOf(unwrapValue(e.expression), ancestors, file, hoisted, depth);
  const read = (h: WrittenType): WrittenType[] =>
    (typescript.isStringLiteralLike(key) ? memberIn(h.type, key.text, h, 0) : undefined) ?? elementTypes(h, 0, memberIn) ?? [];
  const found = held?.flatMap(read).flatMap((t) => settle(t, memberIn));
  return found && found.length > 0 ? found : undefined;
}

/**
 * What a written type reads as for the SDK test (`s: Pending['state']` is `Pending`'s `state`):
 * its alternatives, settled (type-shapes.ts); the type itself when it is no such shape.
 */
export function settledType(type: ts.TypeNode, file: TypeFile): WrittenType[] {
  return settle({ ...file, type }, memberIn);
}

/** The written types (alternatives) of an object expression, each with the file it is written in. */
function writtenTypesOf(
  e: ts.Expression,
  ancestors: readonly ts.Node[],
  file: TypeFile,
  hoisted: HoistedVars | undefined,
  depth: number,
): WrittenType[] | undefined {
  // `p.job` of a typed `p`, `ps[0]` of a typed list: read one level further (`p.job.state`)
  const deeper = depth + 1 < ACCESS_DEPTH;
  if (deeper && typescript.isElementAccessExpression(e)) return writtenElement(e, ancestors, file, hoisted, depth + 1);
  const held = writtenTypeOf(e, ancestors, hoisted, file.names);
  if (held) return [{ ...(held.from ?? file), type: held.type }];
  return deeper && typescript.isPropertyAccessExpression(e) ? writtenMember(e.expression, e.name.text, ancestors, file, hoisted, depth + 1) : undefined;
}

function writtenTypeOf(e: ts.Expression, ancestors: readonly ts.Node[], hoisted: HoistedVars | undefined, names: SdkTypeNames): HeldType | undefined {
  // `this.entry` of a typed field, `pending.get(id)!` read in place
  const field = thisFieldType(e, ancestors);
  if (field) return { type: field };
  if (typescript.isCallExpression(e)) return mapGetType(e, ancestors, hoisted, names);
  if (!typescript.isIdentifier(e)) return undefined;
  const decl = declarationOf(e.text, ancestors, hoisted);
  if (!decl || !(typescript.isVariableDeclaration(decl) || typescript.isParameter(decl)) || !typescript.isIdentifier(decl.name)) return undefined;
  if (decl.type) return { type: decl.type };
  // `const entry = m.get(k)`: the value type of the map `m` names
  return decl.initializer && mapGetType(decl.initializer, ancestors, hoisted, names);
}

function memberIn(type: ts.TypeNode, member: string, file: TypeFile, depth: number, narrow?: Narrowing): WrittenType[] | undefined {
  if (typescript.isParenthesizedTypeNode(type)) return memberIn(type.type, member, file, depth, narrow);
  // an intersection, a type parameter bound to its argument, `Pending['job']` (type-shapes.ts)
  const shaped = shapeMember(type, member, file, depth, memberIn);
  if (shaped) return shaped.found;
  // every alternative that writes the member: the first alone would take a tagged union's app kind for its SDK kind;
  // in a branch that tests the tag (`if (t.kind === 'agent')`), only the alternatives it leaves
  if (typescript.isUnionTypeNode(type))
    return type.types.filter((t) => !narrow || keeps(t, narrow, file, depth)).flatMap((t) => memberIn(t, member, file, depth) ?? []);
  if (typescript.isTypeLiteralNode(type)) return propertyType(type.members, member, file);
  if (!typescript.isTypeReferenceNode(type) || depth >= ALIAS_DEPTH) return undefined;
  const ref = type.typeName;
  if (typescript.isQualifiedName(ref))
    // `t.Pending` of `import type * as t from './types.js'`
    return typescript.isIdentifier(ref.left)
      ? importedMember(file.names.imported?.(ref.right.text, ref.left.text), type, file, member, depth, narrow)
      : undefined;
  const name = ref.text;
  for (const s of file.sf.statements) {
    if (typescript.isTypeAliasDeclaration(s) && s.name.text === name) return memberIn(s.type, member, declarationFile(s, type, file, file), depth + 1, narrow);
    if (typescript.isInterfaceDeclaration(s) && s.name.text === name) return propertyType(s.members, member, declarationFile(s, type, file, file));
  }
  // a type another file of the app exports (`import type { Pending } from './types.js'`)
  const imported = file.names.imported?.(name);
  if (imported) return importedMember(imported, type, file, member, depth, narrow);
  // `Readonly<{ state: RunState }>`, `Record<string, RunState>` of the file's globals (type-shapes.ts)
  return globalMember(type, member, file, depth, memberIn);
}

function importedMember(
  found: ReturnType<NonNullable<SdkTypeNames['imported']>>,
  ref: ts.TypeNode,
  at: TypeFile,
  member: string,
  depth: number,
  narrow?: Narrowing,
): WrittenType[] | undefined {
  if (found?.kind !== 'declared') return undefined;
  const decl = found.decl;
  const there = declarationFile(decl, ref, at, found);
  if (typescript.isTypeAliasDeclaration(decl)) return memberIn(decl.type, member, there, depth + 1, narrow);
  if (typescript.isInterfaceDeclaration(decl)) return propertyType(decl.members, member, there);
  const type = classPropertyType(decl, member);
  return type && [{ type, ...there }];
}

/** The written type of a class's property declared `name` (a field with no written type: undefined). */
export function classPropertyType(cls: ts.ClassDeclaration, name: string): ts.TypeNode | undefined {
  for (const m of cls.members) if (typescript.isPropertyDeclaration(m) && typescript.isIdentifier(m.name) && m.name.text === name) return m.type;
  return undefined;
}

function propertyType(members: ts.NodeArray<ts.TypeElement>, member: string, file: TypeFile): WrittenType[] | undefined {
  for (const m of members)
    if (typescript.isPropertySignature(m) && m.name && typescript.isIdentifier(m.name) && m.name.text === member)
      return m.type ? [{ ...file, type: m.type }] : undefined;
  return undefined;
}

/** A tag's values a branch leaves: `t.kind` is one of `values` there. */
interface Narrowing {
  key: string;
  values: readonly string[];
  /** The tag is NOT one of `values` there (the else of `===`, `!==`'s then, a `default`): TypeScript narrows by exclusion. */
  excluded?: boolean;
}

/**
 * The tag test the innermost branch around the use makes of `obj` (`if (t.kind === 'agent')`, the
 * else of `!==`, a `switch (t.kind)`'s case and the empty cases falling into it), or undefined. The
 * other side (the else of `===`, `!==`'s then, a `default`, either side of `?:`) excludes the values,
 * as TypeScript narrows: the SDK kind left alone there is the SDK's answer (issue 40).
 */
function narrowing(obj: ts.Expression, ancestors: readonly ts.Node[], sf: ts.SourceFile): Narrowing | undefined {
  const name = obj.getText(sf);
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const node = ancestors[i]!;
    // the node on the way to the use (undefined when the use is `node`'s own child: never an if's branch)
    const child = ancestors[i + 1];
    // a callback inside the branch keeps the narrowing (TypeScript's, for a name not assigned again); a function whose own parameter is the name does not
    if (typescript.isFunctionLike(node) && declaresParameter(node, name)) return undefined;
    const branch =
      typescript.isIfStatement(node) && child !== undefined && child !== node.expression
        ? { test: node.expression, inThen: child === node.thenStatement }
        : typescript.isConditionalExpression(node) && !within(obj, node.condition)
          ? // the use may be the conditional's own child (the call is not among the ancestors): by position
            { test: node.condition, inThen: within(obj, node.whenTrue) }
          : undefined;
    if (branch) {
      const test = tagTest(branch.test, name, sf);
      if (test) return { key: test.key, values: [test.value], ...(branch.inThen === test.equal ? {} : { excluded: true }) };
    }
    if (typescript.isCaseClause(node) || typescript.isDefaultClause(node)) {
      const sw = ancestors[i - 2];
      const tag = sw && typescript.isSwitchStatement(sw) ? tagOf(sw.expression, name, sf) : undefined;
      const block = ancestors[i - 1] as ts.CaseBlock;
      const values = tag === undefined ? undefined : typescript.isCaseClause(node) ? caseValues(node, block) : otherCaseValues(node, block);
      if (tag !== undefined && values) return { key: tag, values, ...(typescript.isDefaultClause(node) ? { excluded: true } : {}) };
    }
  }
  return undefined;
}

const within = (inner: ts.Node, outer: ts.Node): boolean => inner.pos >= outer.pos && inner.end <= outer.end;

/** `obj.key === 'v'` (either side, `==` too; `!==`/`!=` as not equal), or undefined. */
function tagTest(e: ts.Expression, name: string, sf: ts.SourceFile): { key: string; value: string; equal: boolean } | undefined {
  const x = unwrapValue(e);
  if (!typescript.isBinaryExpression(x)) return undefined;
  const op = x.operatorToken.kind;
  const k = typescript.SyntaxKind;
  const equal = op === k.EqualsEqualsEqualsToken || op === k.EqualsEqualsToken;
  if (!equal && op !== k.ExclamationEqualsEqualsToken && op !== k.ExclamationEqualsToken) return undefined;
  for (const [a, b] of [
    [x.left, x.right],
    [x.right, x.left],
  ] as const) {
    const key = tagOf(a, name, sf);
    const lit = unwrapValue(b);
    if (key !== undefined && typescript.isStringLiteralLike(lit)) return { key, value: lit.text, equal };
  }
  return undefined;
}

/** `key` of `obj.key` where `obj` is written `name`, or undefined. */
function tagOf(e: ts.Expression, name: string, sf: ts.SourceFile): string | undefined {
  const x = unwrapValue(e);
  return typescript.isPropertyAccessExpression(x) && x.expression.getText(sf) === name ? x.name.text : undefined;
}

/** The string cases that lead into `clause` (it and the empty cases just before it), or undefined when `default` or another value is among them. */
function caseValues(clause: ts.CaseClause, block: ts.CaseBlock): string[] | undefined {
  const at = block.clauses.indexOf(clause);
  const values: string[] = [];
  for (let j = at; j >= 0; j--) {
    const c = block.clauses[j]!;
    if (j < at && c.statements.length > 0) break;
    if (!typescript.isCaseClause(c) || !typescript.isStringLiteralLike(unwrapValue(c.expression))) return undefined;
    values.push((unwrapValue(c.expression) as ts.StringLiteralLike).text);
  }
  return values;
}

/** The string cases of a switch that do not fall into its `default` (the tag is none of them there), or undefined when a case is no string. */
function otherCaseValues(clause: ts.DefaultClause, block: ts.CaseBlock): string[] | undefined {
  const at = block.clauses.indexOf(clause);
  // the empty cases just before `default` fall into it: their values are not excluded
  let first = at;
  while (first > 0 && block.clauses[first - 1]!.statements.length === 0) first--;
  const values: string[] = [];
  for (const [j, c] of block.clauses.entries()) {
    if (j >= first && j <= at) continue;
    if (!typescript.isCaseClause(c) || !typescript.isStringLiteralLike(unwrapValue(c.expression))) return undefined;
    values.push((unwrapValue(c.expression) as ts.StringLiteralLike).text);
  }
  return values;
}

/** Whether an alternative may hold one of the narrowed tag's values: its tag written as another string literal only is left out. */
function keeps(alt: ts.TypeNode, narrow: Narrowing, file: TypeFile, depth: number): boolean {
  const tags = memberIn(alt, narrow.key, file, depth);
  if (tags?.length !== 1) return true;
  const t = tags[0]!.type;
  if (!(typescript.isLiteralTypeNode(t) && typescript.isStringLiteral(t.literal))) return true;
  return narrow.values.includes(t.literal.text) !== (narrow.excluded === true);
}

function declaresParameter(fn: ts.SignatureDeclaration, name: string): boolean {
  return fn.parameters.some((p) => typescript.isIdentifier(p.name) && p.name.text === name);
}
