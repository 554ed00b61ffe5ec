import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';
import { cjsDoors } from './cjs-doors.js';
import { DOORS } from './unlisted-tool-module.js';

/*
 * Issue 40 item 4 ("no false green"), CommonJS forms the session 33 passes left: `module.exports`
 * (or `exports`) kept in a local and written through it, and exports written inside a function. Each
 * was a silent write where the door is open. Also: a `require` of a computed path read as an ES
 * `import()` of one is, and an ES module's own local named `exports` no CommonJS export.
 */

const found = (files: Record<string, string>, ruleId: string, file: string) =>
  lintRepo(files, { project: testProject(), ruleId, file }).map((f) => ({ line: f.line, unresolved: f.message.includes('cannot tell') }));

const GUARD = 'mcp-server-unguarded';
const SHELL = 'invoke-replaced';
const AT1 = [{ line: 1, unresolved: false }];
const CANNOT_TELL = [{ line: 1, unresolved: true }];

const writer = lines("require('./doors').github.toolInputGuardrails = [];");
const shellWriter = lines("require('./doors').shellTool.shell = () => undefined;");
const guardOf = (...exportLines: string[]) => found({ 'src/doors.js': cjsDoors(...exportLines), 'src/ops.js': writer }, GUARD, 'src/ops.js');
const shellOf = (...exportLines: string[]) => found({ 'src/doors.js': cjsDoors(...exportLines), 'src/ops.js': shellWriter }, SHELL, 'src/ops.js');

describe('`module.exports` kept in a local', () => {
  it('`const e = module.exports; e.github = …`, of `exports`, and of a chain', () => {
    expect(guardOf('const e = module.exports;', 'e.github = github;')).toEqual(AT1);
    expect(guardOf('const e = exports;', "e['github'] = github;")).toEqual(AT1);
    expect(guardOf('const e = module.exports = {};', 'e.github = github;')).toEqual(AT1);
    // `var exports = module.exports = {}`: the module's own `exports` given the new object
    expect(guardOf('var exports = module.exports = {};', 'exports.github = github;')).toEqual(AT1);
    // an alias of an alias, and `Object.assign` given the local
    expect(shellOf('const e = module.exports;', 'const f = e;', 'Object.assign(f, { shellTool });')).toEqual(AT1);
    // a `let` given the exports object after its declaration, and a logical assignment of the name
    expect(guardOf('let e = {};', 'e = module.exports;', 'e.github = github;')).toEqual(AT1);
    expect(guardOf('exports.github ??= github;')).toEqual(AT1);
  });

  it('a chain of locals past the bound is taken to hold the exports object (fail closed)', () => {
    const chain = (n: number) => ['const a0 = module.exports;', ...Array.from({ length: n }, (_, i) => `const a${i + 1} = a${i};`)];
    // within the bound (4 locals of locals) and one past it: each write is the door's
    expect(guardOf(...chain(4), 'a4.github = github;')).toEqual(AT1);
    expect(guardOf(...chain(8), 'a8.github = github;')).toEqual(AT1);
    // a chain within the bound that never holds it stays silent; past the bound it is taken to
    const plain = (n: number) => ['const a0 = {};', ...Array.from({ length: n }, (_, i) => `const a${i + 1} = a${i};`)];
    expect(guardOf(...plain(4), 'a4.github = github;', 'module.exports = { shellTool };')).toEqual([]);
    expect(guardOf(...plain(8), 'a8.github = github;', 'module.exports = { shellTool };')).toEqual(AT1);
  });

  it('fail closed: a computed name written on the local, and the local given to a call', () => {
    expect(guardOf('const e = module.exports;', 'e[key] = github;')).toEqual(CANNOT_TELL);
    expect(guardOf('const e = exports;', 'register(e);')).toEqual(CANNOT_TELL);
  });

  it('silent: a local that is no exports object, and a name provably no door written through the alias', () => {
    expect(guardOf('const e = {};', 'e.github = github;', 'module.exports = { shellTool };')).toEqual([]);
    expect(guardOf('const e = module.exports;', 'e.github = { toolInputGuardrails: [] };', 'e.shellTool = shellTool;')).toEqual([]);
  });
});

describe('`Object.defineProperty` of the exports object, as TypeScript writes CommonJS', () => {
  const ES_MODULE = 'Object.defineProperty(exports, "__esModule", { value: true });';

  it('a name defined with a `value` or a getter of one `return` is that value', () => {
    expect(guardOf(ES_MODULE, "Object.defineProperty(exports, 'github', { value: github });")).toEqual(AT1);
    expect(guardOf(ES_MODULE, 'Object.defineProperty(exports, "github", { enumerable: true, get: function () { return github; } });')).toEqual(AT1);
    expect(shellOf(ES_MODULE, "Object.defineProperty(module.exports, 'shellTool', { get: () => shellTool });")).toEqual(AT1);
    expect(guardOf(ES_MODULE, "Object.defineProperty(exports, 'github', { configurable: true, get() { return github; } });")).toEqual(AT1);
  });

  it('`__esModule` is no door: the module`s other names stay exact', () => {
    // was "cannot tell" for every name since session 33 (a call given the exports object)
    expect(guardOf(ES_MODULE, 'exports.other = 1;')).toEqual([]);
    expect(guardOf(ES_MODULE, 'exports.github = github;')).toEqual(AT1);
  });

  it('fail closed: a getter check cannot read, a `set`, a descriptor held elsewhere, a key it cannot read', () => {
    for (const define of [
      "Object.defineProperty(exports, 'github', { get: load });",
      "Object.defineProperty(exports, 'github', { get() { log(); return github; } });",
      "Object.defineProperty(exports, 'github', { value: github, set: save });",
      "Object.defineProperty(exports, 'github', descriptor);",
      'Object.defineProperty(exports, key, { value: github });',
    ]) {
      expect(guardOf(ES_MODULE, define), define).toEqual(CANNOT_TELL);
    }
  });

  it('silent: a name defined with a value provably no door', () => {
    expect(guardOf(ES_MODULE, "Object.defineProperty(exports, 'github', { value: { toolInputGuardrails: [] } });")).toEqual([]);
    expect(guardOf(ES_MODULE, "Object.defineProperty(exports, 'shellTool', { get: function () { return shellTool; } });")).toEqual([]);
  });
});

describe('exports written inside a function', () => {
  it('an IIFE body runs as the module does: its exports are read as the top level', () => {
    expect(guardOf('(function () {', '  exports.github = github;', '})();')).toEqual(AT1);
    expect(guardOf('(() => {', '  const g = github;', '  module.exports.github = g;', '})();')).toEqual(AT1);
    expect(guardOf('!function () {', '  Object.assign(module.exports, { github });', '}();')).toEqual(AT1);
    expect(guardOf('(function () {', '  exports.github = github;', '}).call(this);')).toEqual(AT1);
  });

  it('fail closed: a named function, an arrow, a callback, a branch (not known to run)', () => {
    expect(guardOf('function init() {', '  exports.github = github;', '}')).toEqual(CANNOT_TELL);
    expect(guardOf('const init = () => {', '  module.exports.github = github;', '};')).toEqual(CANNOT_TELL);
    expect(guardOf('setup(() => {', '  Object.assign(module.exports, { github });', '});')).toEqual(CANNOT_TELL);
    expect(guardOf('if (process.env.GH) {', '  exports.github = github;', '}')).toEqual(CANNOT_TELL);
    // an async IIFE's body past an `await` runs later
    expect(guardOf('(async () => {', '  await ready;', '  exports.github = github;', '})();')).toEqual(CANNOT_TELL);
    // a door made inside the function, and `module.exports` replaced there: any name
    expect(guardOf('function init() {', '  exports.github = makeServer();', '}')).toEqual(CANNOT_TELL);
    expect(guardOf('module.exports = { shellTool };', 'function reset() {', '  module.exports = build();', '}')).toEqual(CANNOT_TELL);
    // a function given the module's `exports`: any name (a UMD wrapper's factory)
    expect(guardOf('function f(exports) {', '  exports.github = github;', '}', 'f(exports);')).toEqual(CANNOT_TELL);
  });

  it('silent: a name provably no door written in a function, a function`s own `exports`, a door the module keeps', () => {
    expect(guardOf('function init() {', '  exports.github = { toolInputGuardrails: [] };', '  exports.count = 0;', '}')).toEqual([]);
    expect(guardOf('function make() {', '  const exports = {};', '  exports.github = github;', '  return exports;', '}')).toEqual([]);
    expect(guardOf('function f(exports) {', '  exports.github = github;', '}')).toEqual([]);
    expect(guardOf('module.exports = { shellTool };', 'function f(module) {', '  module.exports = build();', '}')).toEqual([]);
    expect(guardOf('module.exports = { github };', 'function init() {', '  exports.shellTool = shellTool;', '}')).toEqual(AT1);
  });
});

describe('a `require` of a computed path, as an ES `import()` of one', () => {
  const doors = cjsDoors('module.exports = { github, shellTool };');
  it('a guard list written on a member: "cannot tell", as through `await import(name)`', () => {
    for (const ops of [
      "const path = require('path');\nrequire(path.join(__dirname, 'doors')).github.toolInputGuardrails = [];",
      'const d = require(`./${name}`);\nd.github.toolInputGuardrails = [];',
      'const { github } = require(name);\ngithub.toolInputGuardrails = [];',
      'async function f() {\n  const d = await import(name);\n  d.github.toolInputGuardrails = [];\n}',
    ]) {
      const line = ops.split('\n').findIndex((l) => l.includes('toolInputGuardrails')) + 1;
      expect(found({ 'src/doors.js': doors, 'src/ops.js': lines(ops) }, GUARD, 'src/ops.js'), ops).toEqual([{ line, unresolved: true }]);
    }
  });

  it('silent: a local door`s body (`shell`, a common word) in a file naming no SDK, as through `import(name)`', () => {
    for (const ops of [
      'const d = require(name);\nd.shellTool.shell = () => undefined;',
      'async function f() {\n  const d = await import(name);\n  d.shellTool.shell = () => undefined;\n}',
    ]) {
      expect(found({ 'src/doors.js': doors, 'src/ops.js': lines(ops) }, SHELL, 'src/ops.js'), ops).toEqual([]);
    }
  });
});

describe('an ES module`s own local named `exports`', () => {
  const writer = (name: string) => lines(`import { ${name} } from './doors.js';`, `${name}.toolInputGuardrails = [];`);
  const esm = (...more: string[]) => `${DOORS}${lines('export const settings = { retries: 3 };', ...more)}`;

  it('given to a call, is no CommonJS export: the module`s names are its ES exports', () => {
    const doors = esm('const exports = {};', 'register(exports);');
    expect(found({ 'src/doors.ts': doors, 'src/ops.ts': writer('github') }, GUARD, 'src/ops.ts')).toEqual([{ line: 2, unresolved: false }]);
    expect(found({ 'src/doors.ts': doors, 'src/ops.ts': writer('settings') }, GUARD, 'src/ops.ts')).toEqual([]);
  });

  it('control: an ES module with no such local, giving `exports` to a call, stays fail closed', () => {
    const doors = esm('register(exports);');
    expect(found({ 'src/doors.ts': doors, 'src/ops.ts': writer('settings') }, GUARD, 'src/ops.ts')).toEqual([{ line: 2, unresolved: true }]);
  });
});
