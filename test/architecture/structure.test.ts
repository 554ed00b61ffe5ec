import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { floorBreaches, functionSpans, importCycles, importGraph, sourceFiles, valueImports } from './structure.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = path.join(ROOT, 'src');
const rel = (f: string) => path.relative(ROOT, f).split(path.sep).join('/');

/** The longest a function in src/ may be (the project's rule: about 120 lines), nested functions and callbacks included. */
const MAX_FUNCTION_LINES = 120;

/**
 * The floors of src/, lowest first: files → a typed intermediate form → code, findings or
 * decisions. A folder imports its own floor or lower ones; `top` is the files directly in src/.
 * The runtime is what apps import: it is a floor of its own that imports nothing else.
 */
const FLOORS = [
  ['runtime'],
  ['top', 'fs', 'insights'],
  ['policy', 'manifest'],
  ['scan'],
  ['generate'],
  ['codemod'],
  ['policy-test'],
  ['check'],
  ['eslint', 'init', 'serve', 'demo', 'testing'],
  ['cli'],
];

/**
 * What lists folders, walks packages or scans a repo: a check rule reads what these found from its
 * facts (check/answer-facts.ts), computed once before the rules run (issue 40).
 */
const SCANNING_IO = ['src/scan/path-importers.ts', 'src/manifest/workspace-dependencies.ts', 'src/scan/index.ts', 'src/scan/list.ts'];
const FS_MODULES = ['node:fs', 'fs', 'node:fs/promises', 'fs/promises'];
/** The rules that ask whether one file exists (the one the finding names): no listing, no scan. */
const RULES_STATTING_A_FILE = ['src/check/rules/control-missing.ts', 'src/check/rules/generated-import-unresolved.ts'];

describe('the shape of src/', () => {
  it('has no import cycle (static, type-only, re-export or dynamic import)', () => {
    const cycles = importCycles(importGraph(sourceFiles(SRC))).map((c) => c.map(rel).join(' -> '));
    expect(cycles).toEqual([]);
  });

  it('has no import from a higher floor (check never imports cli; the runtime nothing of the generator)', () => {
    const breaches = floorBreaches(importGraph(sourceFiles(SRC)), SRC, FLOORS).map(([a, b]) => `${rel(a)} -> ${rel(b)}`);
    expect(breaches).toEqual([]);
  });

  it('keeps the door adapters side by side above the core: runtime/core and runtime/stores import no door', () => {
    const doors = path.join(SRC, 'runtime', 'doors') + path.sep;
    const below = [path.join(SRC, 'runtime', 'core') + path.sep, path.join(SRC, 'runtime', 'stores') + path.sep];
    const breaches = [...importGraph(sourceFiles(SRC))]
      .filter(([from]) => below.some((b) => from.startsWith(b)))
      .flatMap(([from, tos]) => tos.filter((to) => to.startsWith(doors)).map((to) => `${rel(from)} -> ${rel(to)}`));
    expect(breaches).toEqual([]);
  });

  it('keeps the check rules readers of their facts: no rule lists folders or scans another package', () => {
    const rules = path.join(SRC, 'check', 'rules') + path.sep;
    const breaches = sourceFiles(rules).flatMap((file) =>
      valueImports(file)
        .filter((m) => SCANNING_IO.includes(rel(m)) || (FS_MODULES.includes(m) && !RULES_STATTING_A_FILE.includes(rel(file))))
        .map((m) => `${rel(file)} -> ${m.startsWith(ROOT) ? rel(m) : m}`),
    );
    expect(breaches).toEqual([]);
  });

  it('computes the facts the rules read below the rules: check/answer-facts.ts imports no rule', () => {
    const rules = path.join(SRC, 'check', 'rules') + path.sep;
    const facts = path.join(SRC, 'check', 'answer-facts.ts');
    const graph = importGraph(sourceFiles(SRC));
    expect(graph.has(facts)).toBe(true);
    expect((graph.get(facts) ?? []).filter((to) => to.startsWith(rules)).map(rel)).toEqual([]);
  });

  it(`has no function longer than ${MAX_FUNCTION_LINES} lines`, () => {
    const spans = sourceFiles(SRC).flatMap((f) => functionSpans(f));
    const tooLong = spans.filter((s) => s.lines > MAX_FUNCTION_LINES).map((s) => `${rel(s.file)}:${s.line} ${s.name} (${s.lines} lines)`);
    expect(tooLong).toEqual([]);
  });
});

describe('the checks themselves', () => {
  it('find a cycle through three files and name it in order', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
    ]);
    expect(importCycles(graph)).toEqual([['a', 'b', 'c', 'a']]);
    expect(importCycles(new Map([['a', ['a']]]))).toEqual([['a', 'a']]);
    expect(
      importCycles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('name an import that goes up a floor, and let one go down or stay level', () => {
    const graph = new Map([
      ['/s/check/a.ts', ['/s/cli/b.ts', '/s/scan/c.ts', '/s/check/d.ts']],
      ['/s/runtime/r.ts', ['/s/x.ts']],
      ['/s/x.ts', ['/s/runtime/r.ts']],
    ]);
    expect(floorBreaches(graph, '/s', [['runtime'], ['top'], ['scan'], ['check'], ['cli']])).toEqual([
      ['/s/check/a.ts', '/s/cli/b.ts'],
      ['/s/runtime/r.ts', '/s/x.ts'],
    ]);
  });

  it('count an import for its values, not one of types only', () => {
    const text = [
      "import type { A } from 'a';",
      "import { type B } from 'b';",
      "import { type C, d } from 'c';",
      "import e from 'e';",
      "export { f } from 'f';",
      "export type { G } from 'g';",
      "const h = () => import('h');",
      '',
    ].join('\n');
    expect(valueImports('/s/x.ts', text)).toEqual(['c', 'e', 'f', 'h']);
  });

  it('measure a function with its nested functions, and name arrows by their variable', () => {
    const text = ['export function outer() {', '  const inner = () => {', '    return 1;', '  };', '  return inner();', '}', ''].join('\n');
    expect(functionSpans('x.ts', text).map((s) => [s.name, s.line, s.lines])).toEqual([
      ['outer', 1, 6],
      ['inner', 2, 3],
    ]);
  });
});
