import { describe, expect, it } from 'vitest';
import type { ts } from 'ts-morph';
import { parseSource } from '../../src/scan/parse.js';
import { innerTypeDeclaration } from '../../src/scan/type-scope.js';
import { typescript } from '../../src/scan/typescript.js';

/**
 * Session 24 (issue 40 item 4): which declaration a type name written inside the file stands for,
 * as TypeScript's scopes resolve it. Each source writes the name `T` once as a type reference (in
 * `use: T`); the answer is the kind of the declaration that hides the file's own `T`, or none.
 */
function declaringKind(source: string): string | undefined {
  const { sf } = parseSource('types.ts', source);
  let ref: ts.TypeReferenceNode | undefined;
  const visit = (node: ts.Node): void => {
    if (typescript.isTypeReferenceNode(node) && typescript.isIdentifier(node.typeName) && node.typeName.text === 'T') ref ??= node;
    typescript.forEachChild(node, visit);
  };
  visit(sf);
  const found = innerTypeDeclaration('T', ref!, sf);
  return found && typescript.SyntaxKind[found.kind];
}

describe('the type a scope inside the file declares', () => {
  const declared: Record<string, [string, string]> = {
    "a function body's alias": ['function f() { type T = number; let use: T; }', 'TypeAliasDeclaration'],
    "a block's interface": ['{ interface T { a: 1 } let use: T; }', 'InterfaceDeclaration'],
    "a case's class": ['switch (x) { case 1: class T {} let use: T; }', 'ClassDeclaration'],
    "a namespace's enum": ['namespace n { enum T { A } let use: T; }', 'EnumDeclaration'],
    "a function's type parameter": ['function f<T>(use: T) {}', 'TypeParameter'],
    "a method's type parameter": ['class C { m<T>(use: T) {} }', 'TypeParameter'],
    "an arrow function's type parameter": ['const f = <T,>(use: T) => use;', 'TypeParameter'],
    "a class's type parameter": ['class C<T> { use?: T }', 'TypeParameter'],
    "an interface's type parameter": ['interface I<T> { use: T }', 'TypeParameter'],
    "an alias's type parameter": ['type A<T> = { use: T };', 'TypeParameter'],
    "a mapped type's parameter": ['type M = { [T in "a"]: { use: T } };', 'TypeParameter'],
    'the innermost of two': ['function f<T>() { type T = number; let use: T; }', 'TypeAliasDeclaration'],
  };
  for (const [name, [source, kind]] of Object.entries(declared)) it(`${name}: hides the file's`, () => expect(declaringKind(source)).toBe(kind));

  const none: Record<string, string> = {
    "the file's own top level (left to the readers)": 'type T = number; let use: T;',
    "a sibling function's alias": 'function g() { type T = number; } function f() { let use: T; }',
    "a function body's alias, for its parameters": 'function f(use: T) { type T = number; }',
    "a block's alias, outside the block": '{ type T = number; } let use: T;',
  };
  for (const [name, source] of Object.entries(none)) it(`${name}: none`, () => expect(declaringKind(source)).toBeUndefined());

  it('a node of another file: none', () => {
    const { sf } = parseSource('types.ts', 'function f() { type T = number; }');
    const other = parseSource('other.ts', 'let use: T;').sf;
    const ref = (other.statements[0] as ts.VariableStatement).declarationList.declarations[0]!.type!;
    expect(innerTypeDeclaration('T', ref, sf)).toBeUndefined();
  });
});
