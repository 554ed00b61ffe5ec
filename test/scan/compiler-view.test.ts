import { describe, expect, it } from 'vitest';
import type { ts } from 'ts-morph';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { compilerView, isConstant, READ_NAMES } from '../../src/scan/compiler-view.js';
import { loadTypeScript, typescript } from '../../src/scan/typescript.js';

// A stand-in for the compiler module: its exports are getters over the module's own variables,
// some of which (`sys`, a logger) the compiler's setters replace later.
function fakeCompiler() {
  const vars = {
    isIdentifier: function isIdentifier(n: { kind: number }) {
      return n.kind === 80;
    },
    SyntaxKind: { Identifier: 80 },
    sys: { name: 'first' },
    // a listed name holding a function declared under another name (a `let` the compiler may set)
    forEachChild: function noop() {},
    version: '5.0',
  };
  const exports = {};
  for (const key of Object.keys(vars)) Object.defineProperty(exports, key, { get: () => vars[key as keyof typeof vars], enumerable: true });
  return { vars, module: exports as unknown as typeof ts };
}

describe('the compiler read through a view of plain properties (src/scan/compiler-view.ts)', () => {
  it('gives the same values, holding the listed functions and enums as its own properties', () => {
    const { vars, module } = fakeCompiler();
    const view = compilerView(module) as unknown as typeof vars;
    expect(Object.hasOwn(view, 'isIdentifier')).toBe(true);
    expect(Object.hasOwn(view, 'SyntaxKind')).toBe(true);
    expect(view.isIdentifier).toBe(vars.isIdentifier);
    expect(view.isIdentifier({ kind: 80 })).toBe(true);
    expect(view.SyntaxKind).toBe(vars.SyntaxKind);
    expect(view.version).toBe('5.0');
    // a name off the list is read from the compiler, the view's prototype
    expect(Object.hasOwn(view, 'version')).toBe(false);
  });

  it('reads a value the compiler may replace from the compiler each time', () => {
    const { vars, module } = fakeCompiler();
    const view = compilerView(module) as unknown as typeof vars;
    expect(view.sys.name).toBe('first');
    expect(view.forEachChild).toBe(vars.forEachChild);
    vars.sys = { name: 'second' };
    const walker = function forEachChild() {};
    vars.forEachChild = walker;
    // `sys` is an object outside the constants, `forEachChild` held a function of another name
    expect(view.sys.name).toBe('second');
    expect(view.forEachChild).toBe(walker);
    expect(Object.hasOwn(view, 'sys')).toBe(false);
    expect(Object.hasOwn(view, 'forEachChild')).toBe(false);
  });

  it('is what `typescript` is once the compiler is loaded: the same functions and enums', () => {
    const compiler = loadTypeScript();
    expect(typescript).not.toBe(compiler);
    expect(typescript.SyntaxKind).toBe(compiler.SyntaxKind);
    expect(typescript.isIdentifier).toBe(compiler.isIdentifier);
    expect(typescript.sys).toBe(compiler.sys);
    const sf = typescript.createSourceFile('a.ts', 'const a = 1;', typescript.ScriptTarget.Latest, true);
    expect(compiler.isVariableStatement(sf.statements[0]!)).toBe(true);
  });

  it('lists every constant name the source reads as `typescript.<name>`', () => {
    // a name read but not listed still works, only through the compiler's slow getters: this keeps
    // a new reader from losing the view's gain without anyone seeing it
    const compiler = loadTypeScript() as unknown as Record<string, unknown>;
    const root = path.join(import.meta.dirname, '../../src');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const read = new Set<string>();
    for (const file of files) {
      const sf = typescript.createSourceFile(file, readFileSync(path.join(root, file), 'utf8'), typescript.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        if (typescript.isPropertyAccessExpression(node) && typescript.isIdentifier(node.expression) && node.expression.text === 'typescript')
          read.add(node.name.text);
        typescript.forEachChild(node, visit);
      };
      visit(sf);
    }
    expect(read.size).toBeGreaterThan(100);
    const unlisted = [...read].filter((name) => isConstant(name, compiler[name]) && !READ_NAMES.includes(name));
    expect(unlisted).toEqual([]);
  });
});
