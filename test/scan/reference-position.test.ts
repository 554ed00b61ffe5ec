import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ts } from 'ts-morph';
import { parseSource } from '../../src/scan/parse.js';
import { isReferencePosition } from '../../src/scan/syntax.js';
import { typescript } from '../../src/scan/typescript.js';

// `isReferencePosition` reads the parent's kind in a table (issue 40, item 8) where it tested the
// kinds one by one. The tests one by one are kept here as the oracle: the answers must be the same
// for every syntax kind with every shape of parent, and for every identifier of every codemod fixture.

function oneByOne(id: ts.Identifier, parent: ts.Node): boolean {
  const t = typescript;
  if (t.isPropertyAccessExpression(parent)) return parent.expression === id;
  if (t.isQualifiedName(parent)) return parent.left === id;
  if (
    t.isPropertyAssignment(parent) ||
    t.isPropertyDeclaration(parent) ||
    t.isPropertySignature(parent) ||
    t.isMethodDeclaration(parent) ||
    t.isMethodSignature(parent) ||
    t.isGetAccessorDeclaration(parent) ||
    t.isSetAccessorDeclaration(parent) ||
    t.isEnumMember(parent)
  )
    return parent.name !== id;
  if (t.isBindingElement(parent)) return parent.initializer === id;
  if (t.isVariableDeclaration(parent) || t.isParameter(parent)) return parent.initializer === id;
  if (t.isFunctionDeclaration(parent) || t.isFunctionExpression(parent) || t.isClassDeclaration(parent) || t.isClassExpression(parent))
    return parent.name !== id;
  if (t.isInterfaceDeclaration(parent) || t.isTypeAliasDeclaration(parent) || t.isEnumDeclaration(parent) || t.isModuleDeclaration(parent))
    return parent.name !== id;
  if (t.isLabeledStatement(parent) || t.isBreakOrContinueStatement(parent)) return false;
  if (t.isJsxAttribute(parent)) return parent.name !== id;
  if (t.isExportSpecifier(parent)) return (parent.propertyName ?? parent.name) === id;
  if (t.isImportSpecifier(parent) || t.isImportClause(parent) || t.isNamespaceImport(parent)) return false;
  return true;
}

describe('isReferencePosition by table', () => {
  it('answers as the tests one by one for every kind and every shape of parent', () => {
    const id = { kind: typescript.SyntaxKind.Identifier, text: 'x' } as ts.Identifier;
    const other = { kind: typescript.SyntaxKind.Identifier, text: 'y' } as ts.Identifier;
    const choices = [id, other, undefined];
    const fields = ['expression', 'left', 'name', 'initializer', 'propertyName'] as const;
    let asked = 0;
    for (let kind = 0; kind < typescript.SyntaxKind.Count; kind++) {
      for (let shape = 0; shape < 3 ** fields.length; shape++) {
        const parent: Record<string, unknown> = { kind };
        fields.forEach((f, i) => {
          parent[f] = choices[Math.floor(shape / 3 ** i) % 3];
        });
        expect(isReferencePosition(id, parent as unknown as ts.Node), `kind ${kind}, shape ${shape}`).toBe(oneByOne(id, parent as unknown as ts.Node));
        asked++;
      }
    }
    expect(asked).toBeGreaterThan(50_000);
  });

  it('answers as the tests one by one at every identifier of every codemod fixture', () => {
    const root = path.resolve(__dirname, '../../fixtures/codemod');
    let identifiers = 0;
    let reads = 0;
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const abs = path.join(dir, e.name);
        if (e.isDirectory()) walk(abs);
        else if (/\.[cm]?[jt]sx?$/.test(e.name)) {
          const { sf } = parseSource(abs, readFileSync(abs, 'utf8'));
          const visit = (n: ts.Node, parent: ts.Node): void => {
            if (typescript.isIdentifier(n)) {
              identifiers++;
              const answer = oneByOne(n, parent);
              if (answer) reads++;
              expect(isReferencePosition(n, parent), `${abs}:${n.pos} ${n.text}`).toBe(answer);
            }
            typescript.forEachChild(n, (c) => visit(c, n));
          };
          typescript.forEachChild(sf, (c) => visit(c, sf));
        }
      }
    };
    walk(root);
    // both answers are met many times
    expect(reads).toBeGreaterThan(1000);
    expect(identifiers - reads).toBeGreaterThan(1000);
  });
});
