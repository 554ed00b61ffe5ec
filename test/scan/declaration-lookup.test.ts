import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ts } from 'ts-morph';
import { declarationDepth, declarationOf } from '../../src/scan/local-values.js';
import { parseSource } from '../../src/scan/parse.js';
import { firstDeclarations, scopeDeclarations, type HoistedVars } from '../../src/scan/scope.js';
import { collectAliasNames } from '../../src/scan/syntax.js';
import { typescript } from '../../src/scan/typescript.js';

// `declarationAt` reads each scope's declarations once (`firstDeclarations`, kept per file by its
// `hoisted` map) where it asked `scopeDeclarations` for one name at a time (issue 40, item 8). The
// answer must be the same for every name at every point of a file: checked here against the lookup
// by one name, on every codemod fixture and a file of every kind of scope, shadowing and pattern.

const SCOPES = `
import { tool as t, Agent } from '@openai/agents';
namespace ns { const tool = 1; let { a, b: [c, , d = 2], ...rest } = o; }
{ const tool = 2; function tool2() {} class K2 {} enum E { x } }
switch (x) { case 1: const tool = 3; case 2: { let tool = 4; } }
try { const tool = 5; } catch (tool) { const tool = 6; } catch ({ message: tool }) {}
for (let tool = 0, t2 = 1; ; ) { var hoistedInLoop = tool; }
for (const tool in o) {} for (const [tool, t3] of xs) {}
const c = class tool { m(tool) { var v = tool; { const v = 1; } } };
const f = function tool(a, { b, c: [d] }) { var a = 1; var x, y = a; return () => { var a = 2; }; };
const arrow = (tool, ...more) => tool;
function g(tool) { if (tool) { var late = 1; } const g2 = 1; }
function h() { var tool = 4; var tool = 5; declare const amb: number; }
class K { m(tool) {} static { const s = 1; } }
export default function () { const t = Agent; return t; }
`;

function fixtureFiles(): Array<{ file: string; text: string }> {
  const root = path.resolve(__dirname, '../../fixtures/codemod');
  const out: Array<{ file: string; text: string }> = [{ file: 'scopes.ts', text: SCOPES }];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else if (/\.[cm]?[jt]sx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push({ file: abs, text: readFileSync(abs, 'utf8') });
    }
  };
  walk(root);
  return out;
}

/** Every point of the file where an identifier is, with the ancestors the scan holds there (outermost first). */
function identifierPoints(sf: ts.SourceFile): Array<readonly ts.Node[]> {
  const points: Array<readonly ts.Node[]> = [];
  const ancestors: ts.Node[] = [];
  const visit = (n: ts.Node): void => {
    if (typescript.isIdentifier(n)) points.push([...ancestors]);
    ancestors.push(n);
    typescript.forEachChild(n, visit);
    ancestors.pop();
  };
  visit(sf);
  return points;
}

function namesOf(sf: ts.SourceFile): string[] {
  const names = new Set<string>(['notDeclaredAnywhere']);
  const visit = (n: ts.Node): void => {
    if (typescript.isIdentifier(n)) names.add(n.text);
    typescript.forEachChild(n, visit);
  };
  visit(sf);
  return [...names];
}

/** The lookup as it was: `scopeDeclarations` for the one name, innermost scope first. */
function byOneName(name: string, ancestors: readonly ts.Node[], hoisted: HoistedVars): { declaration: ts.Node; depth: number } | undefined {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const node = ancestors[i]!;
    if (typescript.isSourceFile(node)) {
      // the top level is read as before by both: the same function answers
      const declaration = declarationOf(name, [node], hoisted);
      return declaration ? { declaration, depth: i } : undefined;
    }
    const found = scopeDeclarations(node, new Set([name]), hoisted)[0];
    if (found) return { declaration: found.declaration, depth: i };
  }
  return undefined;
}

describe("a scope's declarations read once", () => {
  const files = fixtureFiles();

  it('reads enough files to mean something', () => {
    expect(files.length).toBeGreaterThan(40);
  });

  it('give, for every name, the first declaration the lookup by that name alone gives', () => {
    let scopes = 0;
    for (const { file, text } of files) {
      const { sf } = parseSource(file, text);
      const hoisted = new Map<ts.Node, ts.VariableDeclaration[]>();
      collectAliasNames(sf, new Set(), hoisted);
      const names = namesOf(sf);
      const visit = (n: ts.Node): void => {
        const first = firstDeclarations(n, hoisted);
        if (first.size > 0) scopes++;
        for (const name of names) expect(first.get(name), `${file}: ${name}`).toBe(scopeDeclarations(n, new Set([name]), hoisted)[0]?.declaration);
        // a name the scope declares is one of the file's names
        for (const name of first.keys()) expect(names).toContain(name);
        typescript.forEachChild(n, visit);
      };
      visit(sf);
    }
    expect(scopes).toBeGreaterThan(150);
  });

  it('find each name where the lookup by that name alone finds it, at every identifier, asked twice', () => {
    let found = 0;
    for (const { file, text } of files) {
      const { sf } = parseSource(file, text);
      const hoisted = new Map<ts.Node, ts.VariableDeclaration[]>();
      collectAliasNames(sf, new Set(), hoisted);
      const names = namesOf(sf);
      for (const ancestors of identifierPoints(sf)) {
        for (const name of names) {
          const want = byOneName(name, ancestors, hoisted);
          if (want && want.depth > 0) found++;
          // the second ask is answered from the scopes already read
          for (let ask = 0; ask < 2; ask++) {
            expect(declarationOf(name, ancestors, hoisted), `${file}: ${name}`).toBe(want?.declaration);
            expect(declarationDepth(name, ancestors, hoisted), `${file}: ${name}`).toBe(want?.depth);
          }
        }
      }
    }
    expect(found).toBeGreaterThan(1000);
  });
});
