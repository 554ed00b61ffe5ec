import { describe, expect, it } from 'vitest';
import type { ts } from 'ts-morph';
import { parseSource } from '../../src/scan/parse.js';
import { scopeDeclarations } from '../../src/scan/scope.js';
import { typescript } from '../../src/scan/typescript.js';

// Every kind of scope that can shadow an SDK name, each declaring `tool` once. The scan asks
// `scopeDeclarations` of every node and answers most without reading them (issue 40, item 8):
// each kind must still be read.
const SOURCE = `
namespace ns { const tool = 1; }
{ const tool = 2; }
switch (x) { case 1: const tool = 3; }
try {} catch (tool) {}
for (let tool = 0; ; ) {}
for (const tool in o) {}
for (const tool of xs) {}
const c = class tool {};
const f = function tool() {};
const a = (tool) => tool;
function g(tool) {}
function h() { var tool = 4; }
class K { m(tool) {} }
`;

function declaringKinds(source: string): string[] {
  const { sf } = parseSource('scopes.ts', source);
  const kinds: string[] = [];
  const visit = (node: ts.Node): void => {
    if (node.kind !== typescript.SyntaxKind.SourceFile && scopeDeclarations(node, new Set(['tool'])).length > 0) kinds.push(typescript.SyntaxKind[node.kind]!);
    typescript.forEachChild(node, visit);
  };
  visit(sf);
  return kinds;
}

describe('the scopes that declare a name', () => {
  it('are found in every kind of scope, and nowhere else', () => {
    expect(declaringKinds(SOURCE)).toEqual([
      'ModuleBlock',
      'Block',
      'CaseBlock',
      'CatchClause',
      'ForStatement',
      'ForInStatement',
      'ForOfStatement',
      'ClassExpression',
      'FunctionExpression',
      'ArrowFunction',
      'FunctionDeclaration',
      'FunctionDeclaration',
      'MethodDeclaration',
    ]);
  });

  it('a name no scope declares is found nowhere', () => {
    expect(declaringKinds(SOURCE.replaceAll('tool', 'other'))).toEqual([]);
  });
});
