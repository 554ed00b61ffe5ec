import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsedSpecifiers, textSpecifiers, treeSpecifiers } from '../../src/scan/module-specifiers.js';
import { parseSource } from '../../src/scan/parse.js';
import { typescript } from '../../src/scan/typescript.js';

/**
 * Session 30 (issue 40, item 8): a parsed file's specifiers come from its tree when that gives the
 * pre-processor's very list, so the unlisted-module search reads the same modules. Each case says
 * whether the tree answers, and the answer is the pre-processor's.
 */
const sfOf = (text: string, file = '/repo/src/a.ts') => parseSource(file, text).sf;
const preProcessed = (text: string) => typescript.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);

const FROM_TREE: Record<string, string> = {
  'every top-level form': [
    "import { a } from './a';",
    "import type { B } from './b';",
    "import type T from './t';",
    "import type from './type-named';",
    'import d, * as ns from "./d";',
    "import e, { f } from './e';",
    "import * as g from './g';",
    "import './side';",
    "import data from './data.json' with { type: 'json' };",
    "export { x } from './x';",
    "export type { Y } from './y';",
    "export type * from './types';",
    "export * from './all';",
    'export { a };',
    'export const z = 1;',
    'export default function f2() {}',
    '@decorate export class K {}',
    'export declare const w: number;',
    '',
  ].join('\n'),
  'no import at all': 'const a = 1;\n',
  'an ambient export': 'export = 1;\n',
  // session 34: the words beyond the top-level statements, looked up in the tree
  'a require': "import a from './a';\nconst r = require('./r');\n",
  'an import call': "import a from './a';\nconst m = await import('./dyn');\n",
  'an import type': "import a from './a';\ntype T = typeof import('./t');\nlet u: import('./u').U;\n",
  'import.meta': "import a from './a';\nconsole.log(import.meta.url);\n",
  'the word in a comment': "// import x from './commented'\nimport a from './a';\nfunction f() {\n  g(); // require('./c')\n}\n",
  'export in a string': "import a from './a';\nconst s = 'export';\n",
  'export * as': "export * as ns from './ns';\n",
  'export type * as': "export type * as ns from './ns';\n",
  'require members and a local require': "const require = createRequire(import.meta.url);\nrequire.resolve('./x');\nif (require.main === module) run();\n",
  'a require in a template': "const s = `${require('./in-template')}`;\nimport a from './a';\n",
  'a require of a member and with a template': "x.require('./member');\nrequire(`./template`);\nrequire('./a' + b);\n",
  'an import call of a name': 'await import(name);\nawait import(`./${name}.js`);\n',
  "a namespace's exports and imports":
    "namespace N {\n  export const v = 1;\n  import y from './ns-import';\n  export { z } from './ns-export';\n}\nimport a from './a';\n",
  'a declared field and the words in prose': 'class C {\n  declare x: number;\n}\n// declare the tools, define them\n',
};

const FROM_TEXT: Record<string, string> = {
  'a deferred import': "import defer * as d from './d';\n",
  'an ambient module': "declare module 'm' {\n  export * from './inner';\n}\n",
  'import equals require': "import eq = require('./eq');\n",
  'an exported import equals': 'namespace M { export const v = 1; }\nexport import N = M;\n',
  'an AMD define': "define(['./amd'], function () {});\n",
  'an escape': "import x from '\\u002e/esc';\n",
  'a parse error': "import { a from './broken';\nimport b from './b';\n",
  'an ambient module beside an import': "import a from './a';\ndeclare module './augmented' {}\n",
  'an import call in a template': "const s = `${await import('./in-template')}`;\n",
  'an import after two import.meta in a template (the pre-processor skips it)': "f(`${import.meta.url}${import.meta.url}${await import('./lost')}`);\n",
  'the word in a regular expression': "import a from './a';\nconst r = /require/;\n",
  'a property named import': "import a from './a';\nconst o = { import: 1 };\n",
  'a word in a comment after a call': "import a from './a';\nf(/* import x from './c' */);\n",
};

describe('the specifiers of a parsed file', () => {
  for (const [name, text] of Object.entries(FROM_TREE)) {
    it(`from the tree: ${name}`, () => {
      const sf = sfOf(text);
      expect(treeSpecifiers(sf)).toBeDefined();
      expect(treeSpecifiers(sf)).toEqual(preProcessed(text));
      expect(parsedSpecifiers(sf)).toEqual(textSpecifiers(text));
    });
  }

  for (const [name, text] of Object.entries(FROM_TEXT)) {
    it(`from the pre-processor: ${name}`, () => {
      const sf = sfOf(text);
      expect(treeSpecifiers(sf)).toBeUndefined();
      expect(parsedSpecifiers(sf)).toEqual(textSpecifiers(text));
    });
  }

  it('lists the first form in full', () => {
    expect(treeSpecifiers(sfOf(FROM_TREE['every top-level form']!))).toEqual([
      './a',
      './b',
      './t',
      './type-named',
      './d',
      './e',
      './g',
      './side',
      './data.json',
      './x',
      './y',
      './types',
      './all',
    ]);
  });

  it("reads an import the pre-processor's token scan misses after a regular expression holding a backtick", () => {
    // the pre-processor takes the backtick for a template running to the comment's: the tree is right
    const text = "const r = /`/;\nimport a from './a';\n// `\n";
    expect(textSpecifiers(text)).toEqual([]);
    expect(parsedSpecifiers(sfOf(text))).toEqual(['./a']);
  });

  it("equals the pre-processor's list on generated modules, and answers most of them from the tree", () => {
    let fromTree = 0;
    fc.assert(
      fc.property(program, (text) => {
        const sf = sfOf(text);
        const tree = treeSpecifiers(sf);
        if (tree !== undefined) fromTree++;
        expect(tree ?? preProcessed(text)).toEqual(preProcessed(text));
      }),
      { numRuns: 1500 },
    );
    // the property is no vacuous one: the tree answers a good share of the modules
    expect(fromTree).toBeGreaterThan(300);
  });
});

// The forms a module's text may take around the words the pre-processor acts on (issue 40, item 8):
// statements only a module's top level holds, and statements that may also sit in a function, a
// block or a template's substitution (where the pre-processor's scan reads `import` and no other).
const TOP_LEVEL = [
  "import { a } from './m';",
  "import type { T } from './t';",
  "import './side';",
  'import d, * as ns from "./d";',
  "import type from './type-named';",
  "import json from './j.json' with { type: 'json' };",
  "/** docs */\nimport z from './z';",
  "export { x } from './x';",
  "export * from './all';",
  "export * as ns2 from './ns';",
  "export type * as tns from './tns';",
  "export type { Y } from './y';",
  'export const c = 1;',
  'export default function () {}',
  "export default require('./def');",
  'export { c as d2 };',
  "declare module './amb' {}",
  "declare module 'pkg' {\n  export * from './inner';\n}",
  'declare const dc: number;',
  'declare module Legacy {}',
  "import eq = require('./eq');",
  'export import N2 = N;',
  'namespace N {\n  export const v = 1;\n}',
  "namespace N3 {\n  import y from './ns-import';\n  export { z } from './ns-export';\n  export * as n4 from './ns-star';\n}",
  "define(['./amd'], function () {});",
  "type T1 = typeof import('./ty');",
  "let u: import('./it').X;",
  'class C {\n  declare f: number;\n}',
  "import defer * as lazy from './lazy';",
];
const ANYWHERE = [
  "void import('./dyn');",
  'import(`./tpl`);',
  'import(name);',
  "import('./a' + b);",
  'import(`./${name}.js`);',
  "import( // a comment\n  './commented-arg');",
  'console.log(import.meta.url);',
  "require('./r');",
  "require /* a comment */ ('./rc');",
  'require.main === module;',
  "x.require('./pr');",
  'require(`./rt`);',
  "require?.('./q');",
  "new require('./n');",
  "require<T>('./g');",
  "require(('./paren'));",
  'const req = createRequire(import.meta.url);',
  "require['resolve']('./element');",
  "const t = typeof require === 'function' && require + './plus';",
  "f(`${require('./in-tpl')}`);",
  "f(`${import('./imp-tpl')}`);",
  "f(`a${import.meta.url}b${require('./t2')}`);",
  "f(`${`${import('./nested')}`}`);",
  'f(`${import(name)}`);',
  'f(`${import(`./${n}`)}`);',
  "f(`${(() => require('./arrow'))()}`);",
  'const s = \'import x from "./in-string"\';',
  'const s2 = "require(\'./str\')";',
  "// import x from './commented'",
  "/* require('./c') export */",
  '/** define the tool; declare it */',
  'obj.define = 1;',
  "obj.define('./d', ['./amd2']);",
  'const o = { import: 1, require: 2 };',
  'const r2 = /import/;',
  'f(/* import */);',
  "if (a) {\n  g(); // require('./c')\n}",
];
const statement = fc.constantFrom(...ANYWHERE);
const wrapped = fc
  .tuple(
    fc.constantFrom('function f() {\n%\n}', 'if (a) {\n%\n}', 'f(`${(() => {\n%\n})()}`);', 'class K {\n  m() {\n%\n  }\n}'),
    fc.array(statement, { maxLength: 3 }),
  )
  .map(([wrapper, body]) => wrapper.replace('%', body.join('\n')));
const program = fc
  .tuple(fc.boolean(), fc.array(fc.oneof(fc.constantFrom(...TOP_LEVEL), statement, wrapped), { maxLength: 8 }))
  .map(([shebang, items]) => `${shebang ? '#!/usr/bin/env node --import tsx\n' : ''}${items.join('\n')}\n`);
