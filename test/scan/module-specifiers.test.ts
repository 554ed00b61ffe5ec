import { describe, expect, it } from 'vitest';
import { parsedSpecifiers, textSpecifiers, treeSpecifiers } from '../../src/scan/module-specifiers.js';
import { parseSource } from '../../src/scan/parse.js';

/**
 * Session 30 (issue 40, item 8): a parsed file's specifiers come from its tree when that gives the
 * pre-processor's very list, so the unlisted-module search reads the same modules. Each case says
 * whether the tree answers, and the answer is the pre-processor's.
 */
const sfOf = (text: string, file = '/repo/src/a.ts') => parseSource(file, text).sf;

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
};

const FROM_TEXT: Record<string, string> = {
  'a require': "import a from './a';\nconst r = require('./r');\n",
  'an import call': "import a from './a';\nconst m = await import('./dyn');\n",
  'an import type': "import a from './a';\ntype T = typeof import('./t');\n",
  'import.meta': "import a from './a';\nconsole.log(import.meta.url);\n",
  'the word in a comment': "// import x from './commented'\nimport a from './a';\n",
  'export in a string': "import a from './a';\nconst s = 'export';\n",
  'export * as': "export * as ns from './ns';\n",
  'export type * as': "export type * as ns from './ns';\n",
  'a deferred import': "import defer * as d from './d';\n",
  'an ambient module': "declare module 'm' {\n  export * from './inner';\n}\n",
  'import equals require': "import eq = require('./eq');\n",
  'an exported import equals': 'namespace M { export const v = 1; }\nexport import N = M;\n',
  'an AMD define': "define(['./amd'], function () {});\n",
  'an escape': "import x from '\\u002e/esc';\n",
  'a parse error': "import { a from './broken';\nimport b from './b';\n",
};

describe('the specifiers of a parsed file', () => {
  for (const [name, text] of Object.entries(FROM_TREE)) {
    it(`from the tree: ${name}`, () => {
      const sf = sfOf(text);
      expect(treeSpecifiers(sf)).toBeDefined();
      expect(treeSpecifiers(sf)).toEqual(textSpecifiers(text));
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
});
