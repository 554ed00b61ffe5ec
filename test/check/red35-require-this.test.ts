import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';
import { cjsDoors } from './cjs-doors.js';

/*
 * Issue 40 item 4 ("no false green") and item 3 (no false alarm), CommonJS forms session 34 left:
 * `this.x = door` at the top of a CommonJS module (top-level `this` is `module.exports`) was a
 * silent export; a local holding the exports object given another value later (`let e =
 * module.exports; e = {}; e.github = …`) was still read as the exports object.
 */

const found = (files: Record<string, string>, ruleId: string, file: string) =>
  lintRepo(files, { project: testProject(), ruleId, file }).map((f) => ({ line: f.line, unresolved: f.message.includes('cannot tell') }));

const GUARD = 'mcp-server-unguarded';
const AT1 = [{ line: 1, unresolved: false }];
const CANNOT_TELL = [{ line: 1, unresolved: true }];

const writer = lines("require('./doors').github.toolInputGuardrails = [];");
const guardOf = (...exportLines: string[]) => found({ 'src/doors.js': cjsDoors(...exportLines), 'src/ops.js': writer }, GUARD, 'src/ops.js');

describe('top-level `this`, the exports object of a CommonJS module', () => {
  it('`this.github = …`, by a string key, through `Object.assign`, `Object.defineProperty` and a local', () => {
    expect(guardOf('this.github = github;')).toEqual(AT1);
    expect(guardOf("this['github'] = github;")).toEqual(AT1);
    expect(guardOf('Object.assign(this, { github });')).toEqual(AT1);
    expect(guardOf("Object.defineProperty(this, 'github', { value: github });")).toEqual(AT1);
    expect(guardOf('const self = this;', 'self.github = github;')).toEqual(AT1);
  });

  it('in an IIFE given the module`s `this` (`.call(this)`, `.apply(this)`), and in an arrow IIFE', () => {
    expect(guardOf('(function () {', '  this.github = github;', '}).call(this);')).toEqual(AT1);
    expect(guardOf('(function () {', '  this.github = github;', '}).apply(this, []);')).toEqual(AT1);
    expect(guardOf('(() => {', '  this.github = github;', '})();')).toEqual(AT1);
  });

  it('fail closed: a computed name, a callback arrow (not known to run), `this` given to a call', () => {
    expect(guardOf('this[key] = github;')).toEqual(CANNOT_TELL);
    // a numeric key stays any name, as for `exports[0]` (one member reader for both, with a flag)
    expect(guardOf('this[0] = github;')).toEqual(CANNOT_TELL);
    expect(guardOf('exports[0] = github;')).toEqual(CANNOT_TELL);
    expect(guardOf('setup(() => {', '  this.github = github;', '});')).toEqual(CANNOT_TELL);
    expect(guardOf('register(this);')).toEqual(CANNOT_TELL);
  });

  it('silent: `this` of a function, a method, a class, a plain IIFE, a `.call` of another object', () => {
    const keeps = 'module.exports = { shellTool };';
    expect(guardOf(keeps, 'function Server() {', '  this.github = github;', '}')).toEqual([]);
    expect(guardOf(keeps, 'const o = {', '  init() {', '    this.github = github;', '  },', '};')).toEqual([]);
    expect(guardOf(keeps, 'class Holder {', '  constructor() {', '    this.github = github;', '  }', '}')).toEqual([]);
    expect(guardOf(keeps, 'class Holder {', '  github = github;', '  static { this.github = github; }', '}')).toEqual([]);
    // a plain call's `this` is the global object (or undefined), not the module's exports
    expect(guardOf(keeps, '(function () {', '  this.github = github;', '})();')).toEqual([]);
    expect(guardOf(keeps, '(function () {', '  this.github = github;', '}).call(other);')).toEqual([]);
    // an arrow inside a function: the function's `this`
    expect(guardOf(keeps, 'function Server() {', '  setup(() => {', '    this.github = github;', '  });', '}')).toEqual([]);
  });

  it('silent: an ES module`s top-level `this` is undefined', () => {
    const esm = lines(
      "import { MCPServerStdio } from '@openai/agents';",
      "import { protectMcpServer } from './ctrlrun.generated.js';",
      "const github = protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
      'export const other = 1;',
      'this.github = github;',
    );
    expect(found({ 'src/doors.js': esm, 'src/ops.js': writer }, GUARD, 'src/ops.js')).toEqual([]);
    // also where the file names `exports` (so its CommonJS writes are read)
    const named = esm.replace('export const other = 1;', 'export const exportsList = [];');
    expect(found({ 'src/doors.js': named, 'src/ops.js': writer }, GUARD, 'src/ops.js')).toEqual([]);
    expect(found({ 'src/doors.mjs': named, 'src/ops.js': lines("require('./doors.mjs').github.toolInputGuardrails = [];") }, GUARD, 'src/ops.js')).toEqual([]);
  });
});

describe('a local holding the exports object given another value later', () => {
  const keeps = 'module.exports.shellTool = shellTool;';

  it('silent: the write is through the value the local holds there, no exports object', () => {
    expect(guardOf('let e = module.exports;', 'e = {};', 'e.github = github;', keeps)).toEqual([]);
    expect(guardOf('var e = exports;', 'e = {};', 'e.github = github;', keeps)).toEqual([]);
    // written before the local holds anything: the write throws, nothing is exported
    expect(guardOf('let e;', 'e.github = github;', 'e = module.exports;', 'e = {};', keeps)).toEqual([]);
    // a local of that local, read where it is declared
    expect(guardOf('let e = module.exports;', 'e = {};', 'const f = e;', 'f.github = github;', keeps)).toEqual([]);
  });

  it('reported: the local holds the exports object where it is written', () => {
    expect(guardOf('let e = module.exports;', 'e.github = github;', 'e = {};')).toEqual(AT1);
    expect(guardOf('let e = module.exports;', 'e = {};', 'e = module.exports;', 'e.github = github;')).toEqual(AT1);
    // a write in a branch is an export check cannot tell, through the value held there
    expect(guardOf('let e = {};', 'e = exports;', 'if (on) e.github = github;')).toEqual(CANNOT_TELL);
    expect(guardOf('let e = module.exports;', 'e = {};', 'if (on) e.github = github;', keeps)).toEqual([]);
    expect(guardOf('let e = module.exports;', 'e = {};', 'const f = e;', 'e = exports;', 'f.github = github;', keeps)).toEqual([]);
    expect(guardOf('let e = {};', 'e = exports;', 'const f = e;', 'e = {};', 'f.github = github;')).toEqual(AT1);
  });

  it('fail closed: any value given in a function, a branch, by `??=`, in the write`s statement; a write in a function', () => {
    expect(guardOf('let e = module.exports;', 'function reset() {', '  e = module.exports;', '}', 'e = {};', 'e.github = github;')).toEqual(AT1);
    expect(guardOf('let e = module.exports;', 'if (on) e = {};', 'e.github = github;')).toEqual(AT1);
    expect(guardOf('let e = module.exports;', 'if (on) {', '  e = {};', '}', 'e.github = github;')).toEqual(AT1);
    expect(guardOf('let e = {};', 'e ??= module.exports;', 'e = {};', 'e.github = github;')).toEqual(AT1);
    expect(guardOf('let e = module.exports;', '(e = {}), (e.github = github);')).toEqual(CANNOT_TELL);
    // a value given in the write's own statement, before the write
    expect(guardOf('var e = {};', 'var e = module.exports,', '  x = (e.github = github);')).toEqual(AT1);
    expect(guardOf('let e = module.exports;', 'e = {};', 'function init() {', '  e.github = github;', '}')).toEqual(CANNOT_TELL);
  });
});

describe('TypeScript`s CommonJS output, as `tsc` writes it', () => {
  const commonJs = (text: string) =>
    ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const doors = commonJs(
    lines(
      "import { MCPServerStdio } from '@openai/agents';",
      "import { protectMcpServer } from './ctrlrun.generated.js';",
      "export const github = protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
      'export const count = 1;',
    ),
  );
  // re-exports: `Object.defineProperty(exports, "github", { enumerable: true, get: … })`, and
  // helpers reading top-level `this` (`this && this.__createBinding`)
  const index = commonJs(lines("export { github, count } from './doors';", "export { github as gh } from './doors';", "export * as all from './doors';"));
  const writes = (line: string) => found({ 'src/doors.js': doors, 'src/index.js': index, 'src/ops.js': lines(line) }, GUARD, 'src/ops.js');

  it('the output is what the test says (`__esModule`, `void 0` first, getters, helpers on `this`)', () => {
    expect(doors).toContain('Object.defineProperty(exports, "__esModule", { value: true });');
    expect(doors).toContain('exports.count = exports.github = void 0;');
    expect(index).toContain('Object.defineProperty(exports, "gh", { enumerable: true, get: function () { return doors_2.github; } });');
    expect(index).toContain('(this && this.__createBinding)');
  });

  it('a door exported and re-exported is reported where written, a name provably no door is not', () => {
    expect(writes("require('./doors').github.toolInputGuardrails = [];")).toEqual(AT1);
    expect(writes("require('./index').github.toolInputGuardrails = [];")).toEqual(AT1);
    expect(writes("require('./index').gh.toolInputGuardrails = [];")).toEqual(AT1);
    expect(writes("require('./doors').count.toolInputGuardrails = [];")).toEqual([]);
    expect(writes("require('./index').count.toolInputGuardrails = [];")).toEqual([]);
  });

  it('a CommonJS re-export (`exports.x = d.x` of a `require`) is followed as an ES one is', () => {
    const again =
      (...body: string[]) =>
      (line: string) =>
        found({ 'src/doors.js': doors, 'src/again.js': lines("const d = require('./doors');", ...body), 'src/ops.js': lines(line) }, GUARD, 'src/ops.js');
    const plain = again('exports.count = d.count;', 'exports.github = d.github;');
    expect(plain("require('./again').github.toolInputGuardrails = [];")).toEqual(AT1);
    expect(plain("require('./again').count.toolInputGuardrails = [];")).toEqual([]);
    // the last write made as the module loads is the value read
    expect(again('exports.count = d.github;', 'exports.count = d.count;')("require('./again').count.toolInputGuardrails = [];")).toEqual([]);
    expect(again('exports.count = d.count;', 'exports.count = d.github;')("require('./again').count.toolInputGuardrails = [];")).toEqual(AT1);
  });

  it('fail closed: a re-export also written in a function, or beside a write of any name', () => {
    const again = (...body: string[]) =>
      found(
        {
          'src/doors.js': doors,
          'src/again.js': lines("const d = require('./doors');", ...body),
          'src/ops.js': lines("require('./again').count.toolInputGuardrails = [];"),
        },
        GUARD,
        'src/ops.js',
      );
    expect(again('exports.count = d.count;', 'function swap() {', '  exports.count = d.github;', '}')).toEqual(CANNOT_TELL);
    expect(again('function swap() {', '  exports.count = d.github;', '}', 'exports.count = d.count;')).toEqual(CANNOT_TELL);
    expect(again('exports.count = d.count;', 'Object.assign(exports, d.extra);')).toEqual(CANNOT_TELL);
    expect(again('exports.count = d.count;', 'exports.count = load();')).toEqual(CANNOT_TELL);
  });

  it('fail closed: a re-export written in an IIFE, whose locals the repo scan does not read (a `d` of its own)', () => {
    // the IIFE's `d` is the doors; the top-level `d` (the only one the repo scan reads) is not
    const again = (...body: string[]) =>
      found(
        {
          'src/doors.js': doors,
          'src/other.js': lines('exports.count = 1;', 'exports.github = 2;'),
          'src/again.js': lines("const d = require('./other');", ...body),
          'src/ops.js': lines("require('./again').gh.toolInputGuardrails = [];"),
        },
        GUARD,
        'src/ops.js',
      );
    expect(again('(function () {', "  const d = require('./doors');", '  exports.gh = d.github;', '})();')).toEqual(CANNOT_TELL);
    expect(again('(() => {', "  const d = require('./doors');", '  exports.gh = d.github;', '})();')).toEqual(CANNOT_TELL);
  });

  it('fail closed: a name written again after `module.exports = { … }` (a write through `exports` goes to the old object)', () => {
    const again = (...body: string[]) =>
      found(
        {
          'src/doors.js': doors,
          'src/other.js': lines('exports.count = 1;'),
          'src/again.js': lines("const d = require('./doors');", "const o = require('./other');", ...body),
          'src/ops.js': lines("require('./again').gh.toolInputGuardrails = [];"),
        },
        GUARD,
        'src/ops.js',
      );
    // Node exports `{ gh: d.github }`: the later write changed the old exports object only
    expect(again('module.exports = { gh: d.github };', 'exports.gh = o.count;')).toEqual(CANNOT_TELL);
    expect(again('module.exports = { gh: d.github };', 'module.exports.gh = o.count;')).toEqual(CANNOT_TELL);
    // a replacement written last, or alone, is read as before
    expect(again('exports.gh = d.github;', 'module.exports = { gh: o.count };')).toEqual([]);
    expect(again('module.exports = { gh: o.count };')).toEqual([]);
    expect(again('module.exports = { gh: d.github };')).toEqual(AT1);
    // an object given to one name is no replacement: the name's last write is still known
    expect(again('exports.gh = { count: 1 };', 'exports.gh = d.github;')).toEqual(AT1);
  });

  it('fail closed: an export read through a `let` given another value later (only its initializer is an import)', () => {
    const factory = lines("const { github } = require('./doors');", 'exports.make = () => github;');
    const writes = (file: string, kit: string, line: string) =>
      found({ 'src/doors.js': doors, 'src/factory.js': factory, [file]: kit, 'src/ops.js': lines(line) }, GUARD, 'src/ops.js');
    // a getter of a live `let` (CommonJS)
    const getter = lines(
      "const d = require('./doors');",
      'let gh = d.count;',
      "Object.defineProperty(exports, 'gh', { get: () => gh });",
      "exports.init = () => { gh = require('./factory').make(); };",
    );
    expect(writes('src/again.js', getter, "require('./again').gh.toolInputGuardrails = [];")).toEqual(CANNOT_TELL);
    // a `const` holds its one value: an import that is no door is none
    const held = lines("const d = require('./doors');", 'const gh = d.count;', "Object.defineProperty(exports, 'gh', { get: () => gh });");
    expect(writes('src/again.js', held, "require('./again').gh.toolInputGuardrails = [];")).toEqual([]);
    // an ES module's `export let`
    const esm = lines(
      "import * as d from './doors';",
      "import { make } from './factory';",
      'export let gh = d.count;',
      'export function init() {',
      '  gh = make();',
      '}',
    );
    expect(writes('src/again.mjs', esm, "import { gh } from './again.mjs';\ngh.toolInputGuardrails = [];")).toEqual([{ line: 2, unresolved: true }]);
  });
});

describe('an export named as a key of every object', () => {
  it('`__proto__` and `constructor` of a module exporting doors: no crash, no door', () => {
    const writes = (line: string) =>
      found({ 'src/doors.js': cjsDoors('module.exports = { github, shellTool };'), 'src/ops.js': lines(line) }, GUARD, 'src/ops.js');
    expect(writes("require('./doors').__proto__.toolInputGuardrails = [];")).toEqual([]);
    expect(writes("require('./doors').constructor.toolInputGuardrails = [];")).toEqual([]);
    expect(writes("require('./doors').github.toolInputGuardrails = [];")).toEqual(AT1);
  });
});

describe('nested destructuring of a `require`, at the top and in a function', () => {
  const SHELL = 'invoke-replaced';
  const kit = lines("exports.a = require('./doors');", "exports.b = require('lodash');");
  const writes = (...body: string[]) =>
    found({ 'src/doors.js': cjsDoors('module.exports = { shellTool };'), 'src/kit.js': kit, 'src/ops.js': lines(...body) }, SHELL, 'src/ops.js');

  it('the binding is the member read on the export: a door there is reported at the write', () => {
    expect(writes('function f() {', "  const { a: { shellTool } } = require('./kit');", '  shellTool.shell = () => undefined;', '}')).toEqual([
      { line: 3, unresolved: false },
    ]);
    expect(writes('function f() {', "  const { 'a': { shellTool: sh } } = require('./kit');", '  sh.shell = () => undefined;', '}')).toEqual([
      { line: 3, unresolved: false },
    ]);
    expect(writes("const { a: { shellTool } } = require('./kit');", 'shellTool.shell = () => undefined;')).toEqual([{ line: 2, unresolved: false }]);
  });

  it('silent: a member that is no door, and a package`s', () => {
    expect(writes('function f() {', "  const { a: { other } } = require('./kit');", '  other.shell = () => undefined;', '}')).toEqual([]);
    expect(writes('function f() {', "  const { b: { shellTool } } = require('./kit');", '  shellTool.shell = () => undefined;', '}')).toEqual([]);
  });
});
