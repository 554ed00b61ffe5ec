import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { DEPTH_PER_CHAR, DEPTH_SLACK, MAX_TREE_DEPTH, nodeTooDeep } from '../../src/scan/parse.js';
import { typescript } from '../../src/scan/typescript.js';

/**
 * parse.ts's depth guard enters only the nodes long enough to reach past MAX_TREE_DEPTH, on the
 * bound that a node's subtree is at most DEPTH_PER_CHAR levels per character it spans, plus
 * DEPTH_SLACK. These tests check the bound on every node of real and hostile files, and the pruned
 * walk's verdict against a full walk around the limit.
 */

/** Each node's subtree depth (a leaf is 1), computed without recursion. */
function subtreeDepths(sf: ts.SourceFile): Map<ts.Node, number> {
  const depths = new Map<ts.Node, number>();
  const stack: Array<{ node: ts.Node; children?: ts.Node[] }> = [{ node: sf }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.children === undefined) {
      const children: ts.Node[] = [];
      typescript.forEachChild(top.node, (c) => {
        children.push(c);
      });
      top.children = children;
      for (const c of children) stack.push({ node: c });
      continue;
    }
    stack.pop();
    depths.set(top.node, 1 + Math.max(0, ...top.children.map((c) => depths.get(c)!)));
  }
  return depths;
}

/** The nodes whose subtree is deeper than the bound allows (none, if the bound holds). */
function overBound(sf: ts.SourceFile): string[] {
  const out: string[] = [];
  for (const [node, depth] of subtreeDepths(sf)) {
    if (depth > DEPTH_PER_CHAR * (node.end - node.pos) + DEPTH_SLACK)
      out.push(`${typescript.SyntaxKind[node.kind]} depth ${depth} width ${node.end - node.pos}`);
  }
  return out;
}

const KINDS = [typescript.ScriptKind.TS, typescript.ScriptKind.TSX, typescript.ScriptKind.JS];
const parse = (text: string, kind: ts.ScriptKind) => typescript.createSourceFile('s.ts', text, typescript.ScriptTarget.Latest, false, kind);

/** Chains of one construct, n links long: well-formed ones and the broken files error recovery reads. */
const CHAINS: Record<string, (n: number) => string> = {
  bang: (n) => `x = ${'!'.repeat(n)}a`,
  tilde: (n) => `${'~'.repeat(n)}a`,
  nonNull: (n) => `a${'!'.repeat(n)}`,
  members: (n) => `a${'.a'.repeat(n)}`,
  elements: (n) => `a${'[0]'.repeat(n)}`,
  calls: (n) => `f${'()'.repeat(n)}`,
  arrows: (n) => `x = ${'a=>'.repeat(n)}1`,
  conditional: (n) => `x = ${'a?b:'.repeat(n)}c`,
  assignments: (n) => `${'a='.repeat(n)}1`,
  plus: (n) => `x = a${'+a'.repeat(n)}`,
  parens: (n) => `x = ${'('.repeat(n)}a${')'.repeat(n)}`,
  objects: (n) => `x = ${'{a:'.repeat(n)}1${'}'.repeat(n)}`,
  generics: (n) => `let x: ${'A<'.repeat(n)}B${'>'.repeat(n)}`,
  functionTypes: (n) => `let x: ${'()=>'.repeat(n)}A`,
  jsx: (n) => `x = ${'<a>'.repeat(n)}${'</a>'.repeat(n)}`,
  fragments: (n) => `x = ${'<>'.repeat(n)}${'</>'.repeat(n)}`,
  templates: (n) => `x = \`${'${`'.repeat(n)}${'`}'.repeat(n)}\``,
  elseIf: (n) => `if (a) {}${' else if (a) {}'.repeat(n)}`,
  typeofs: (n) => `x = ${'typeof '.repeat(n)}a`,
  news: (n) => `x = ${'new '.repeat(n)}A`,
  decoratorsBroken: (n) => '@'.repeat(n),
  parensUnclosed: (n) => `x = ${'('.repeat(n)}`,
  bracketsUnclosed: (n) => `x = ${'['.repeat(n)}`,
  bracesUnclosed: (n) => `x = ${'{'.repeat(n)}`,
  jsxUnclosed: (n) => `x = ${'<a>'.repeat(n)}`,
  dotsMissing: (n) => `a${'.'.repeat(n)}`,
  plusMissing: (n) => `x = ${'+ '.repeat(n)}`,
  arrowsMissing: (n) => `x = ${'=>'.repeat(n)}`,
  typesUnclosed: (n) => `let x: ${'['.repeat(n)}`,
  classesUnclosed: (n) => 'class{'.repeat(n),
  templatesUnclosed: (n) => '`${'.repeat(n),
  spreads: (n) => '...'.repeat(n),
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mts|cts|js|mjs)$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

describe('the depth bound the guard prunes on', () => {
  it('holds on every node of this project’s source', () => {
    const files = sourceFiles(path.resolve('src'));
    expect(files.length).toBeGreaterThan(100);
    const over = files.flatMap((f) =>
      overBound(parse(readFileSync(f, 'utf8'), f.endsWith('x') ? typescript.ScriptKind.TSX : typescript.ScriptKind.TS)).map((o) => `${f}: ${o}`),
    );
    expect(over).toEqual([]);
  });

  it('holds on every node of chains of each construct, well-formed and broken, in TS, TSX and JS', () => {
    const over: string[] = [];
    for (const [name, chain] of Object.entries(CHAINS)) {
      for (const kind of KINDS) for (const n of [1, 2, 3, 50, 300]) over.push(...overBound(parse(chain(n), kind)).map((o) => `${name} ${n}: ${o}`));
    }
    expect(over).toEqual([]);
  });
});

/** The deepest node's depth (the file is 0), by a full walk that keeps its own stack. */
function fullDepth(sf: ts.SourceFile): number {
  const stack: Array<[ts.Node, number]> = [[sf, 0]];
  let max = 0;
  while (stack.length > 0) {
    const [n, d] = stack.pop()!;
    max = Math.max(max, d);
    typescript.forEachChild(n, (c) => {
      stack.push([c, d + 1]);
    });
  }
  return max;
}

describe('nodeTooDeep, against a full walk', () => {
  it('finds a node past the limit exactly when a full walk does, around the limit', () => {
    const verdicts: string[] = [];
    const expected: string[] = [];
    for (const [name, chain] of Object.entries(CHAINS)) {
      for (const n of [MAX_TREE_DEPTH / 4 - 10, MAX_TREE_DEPTH / 2 - 5, MAX_TREE_DEPTH - 5, MAX_TREE_DEPTH - 1, MAX_TREE_DEPTH, MAX_TREE_DEPTH + 2]) {
        let sf: ts.SourceFile;
        try {
          sf = parse(chain(n), typescript.ScriptKind.TSX);
        } catch {
          continue; // the parser itself overflowed: parseSource reports that before this guard runs
        }
        verdicts.push(`${name} ${n}: ${nodeTooDeep(sf) !== undefined}`);
        expected.push(`${name} ${n}: ${fullDepth(sf) > MAX_TREE_DEPTH}`);
      }
    }
    expect(verdicts).toEqual(expected);
    // the cases reach both sides of the limit
    expect(expected.some((v) => v.endsWith('true'))).toBe(true);
    expect(expected.some((v) => v.endsWith('false'))).toBe(true);
  });

  it('gives a node past the limit, where the chain is that deep', () => {
    const sf = parse(`x = ${'!'.repeat(MAX_TREE_DEPTH + 50)}a`, typescript.ScriptKind.TS);
    const deep = nodeTooDeep(sf);
    // the n-th `!` sits n + 2 levels down (the statement, the assignment) and starts at offset n + 3
    expect(deep?.pos).toBeGreaterThan(MAX_TREE_DEPTH - 5);
    expect(deep?.pos).toBeLessThan(MAX_TREE_DEPTH + 10);
  });
});
