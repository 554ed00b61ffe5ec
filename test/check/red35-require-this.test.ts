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
