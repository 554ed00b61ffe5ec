import { describe, expect, it } from 'vitest';
import type { ts } from 'ts-morph';
import { parseSource } from '../../src/scan/parse.js';
import { scopeDeclarations } from '../../src/scan/scope.js';
import { collectAliasNames } from '../../src/scan/syntax.js';
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

// The scan files each \`var\` under its function in the walk that finds alias names (issue 40,
// item 8), instead of walking each function's body again: the same declarations, in the same order.
const HOISTING = `
var top = 0;
{ var inBlock = 1; }
function f(p) {
  var a = 1, { b, c: [d] } = o;
  if (x) { var e = 2; for (var i = 0; ; ) {} for (var k in o) {} for (var v of xs) {} }
  try {} catch (err) { var caught = 3; }
  switch (x) { case 1: var inCase = 4; }
  let notHoisted = 5;
  const g = function inner() { var g1 = 6; (() => { var g2 = 7; })(); };
  class C { m() { var m1 = 8; } static { var st = 9; } p = (() => { var pv = 10; })(); }
  const h = () => expr;
  var a = 11;
}
const arrow = (q = function () { var inDefault = 12; }) => { var af = 13; };
class K { constructor() { var ctor = 14; } get x() { var getter = 15; return 1; } }
namespace ns { var inNamespace = 16; }
`;

function scopesBy(hoisted: boolean): string[] {
  const { sf } = parseSource('hoisting.ts', HOISTING);
  const names = new Set<string>();
  const found = new Map<ts.Node, ts.VariableDeclaration[]>();
  collectAliasNames(sf, names, found);
  const every = new Set(HOISTING.match(/[A-Za-z_]\w*/g));
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (node.kind !== typescript.SyntaxKind.SourceFile) {
      const declared = scopeDeclarations(node, every, hoisted ? found : undefined);
      for (const d of declared) out.push(`${typescript.SyntaxKind[node.kind]}@${node.pos}: ${d.name} <- ${d.declaration.pos}`);
    }
    typescript.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

describe('var declarations hoisted to their function', () => {
  it('found in the alias walk, are the ones a walk of each body finds, in its order', () => {
    const walked = scopesBy(false);
    const byFunctions = walked.filter((s) => /^(?:FunctionDeclaration|FunctionExpression|ArrowFunction|MethodDeclaration|Constructor|GetAccessor)@/.test(s));
    // parameters and a function expression's name, then its \`var\`s: none of a class, a static block, a namespace or the file
    expect(byFunctions.map((s) => s.split(': ')[1]!.split(' ')[0])).toEqual([
      'p',
      'a',
      'b',
      'd',
      'e',
      'i',
      'k',
      'v',
      'caught',
      'inCase',
      'a',
      'inner',
      'g1',
      'g2',
      'm1',
      'pv',
      'q',
      'af',
      'inDefault',
      'ctor',
      'getter',
    ]);
    expect(scopesBy(true)).toEqual(walked);
  });
});
