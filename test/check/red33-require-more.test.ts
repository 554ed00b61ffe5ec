import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';
import { cjsDoors } from './cjs-doors.js';
import { DOORS } from './unlisted-tool-module.js';

/*
 * Issue 40 item 4 ("no false green"), CommonJS forms left after the first `require` pass: a door
 * module exporting by `Object.assign(module.exports, …)` or an `exports = module.exports = …` chain,
 * and a writer reaching the door through `require('./doors').github` in place or a `require` inside
 * a function. Each was a silent write where the door is open.
 */

const found = (files: Record<string, string>, ruleId: string, file: string) =>
  lintRepo(files, { project: testProject(), ruleId, file }).map((f) => ({ line: f.line, unresolved: f.message.includes('cannot tell') }));

const GUARD = 'mcp-server-unguarded';
const SHELL = 'invoke-replaced';
const AT2 = [{ line: 2, unresolved: false }];
const CANNOT_TELL = [{ line: 2, unresolved: true }];

const writer = lines("const { github } = require('./doors');", 'github.toolInputGuardrails = [];');
const shellWriter = lines("const { shellTool } = require('./doors');", 'shellTool.shell = () => undefined;');

describe('the door side: exports check did not list', () => {
  it('`Object.assign(module.exports, { github })` and `Object.assign(exports, { gh: shellTool })` list the literal names', () => {
    const assign = { 'src/doors.js': cjsDoors('Object.assign(module.exports, { github });'), 'src/ops.js': writer };
    expect(found(assign, GUARD, 'src/ops.js')).toEqual(AT2);
    const renamed = {
      'src/doors.js': cjsDoors('Object.assign(exports, { gh: shellTool });'),
      'src/ops.js': lines("const { gh } = require('./doors');", 'gh.shell = () => undefined;'),
    };
    expect(found(renamed, SHELL, 'src/ops.js')).toEqual(AT2);
  });

  it('`exports = module.exports = { github }` and `module.exports = exports = { shellTool }` chains', () => {
    expect(found({ 'src/doors.js': cjsDoors('exports = module.exports = { github };'), 'src/ops.js': writer }, GUARD, 'src/ops.js')).toEqual(AT2);
    expect(found({ 'src/doors.js': cjsDoors('module.exports = exports = { shellTool };'), 'src/ops.js': shellWriter }, SHELL, 'src/ops.js')).toEqual(AT2);
    // a chain of named exports: both names are the door
    const named = { 'src/doors.js': cjsDoors('module.exports.gh = exports.github = github;'), 'src/ops.js': writer };
    expect(found(named, GUARD, 'src/ops.js')).toEqual(AT2);
  });

  it('fail closed: an `Object.assign` of a value check cannot list, and a computed `exports[key] = …`', () => {
    for (const exp of [
      'Object.assign(module.exports, makeDoors());',
      'Object.assign(exports, { ...others });',
      'exports[key] = github;',
      // session 34 reads a descriptor written in place (red34-require-locals): one held elsewhere is not
      "Object.defineProperty(module.exports, 'github', descriptor);",
    ]) {
      expect(found({ 'src/doors.js': cjsDoors(exp), 'src/ops.js': writer }, GUARD, 'src/ops.js'), exp).toEqual(CANNOT_TELL);
    }
  });

  it('silent: `Object.assign` of names provably no door, and of a door the module keeps', () => {
    const plain = { 'src/doors.js': cjsDoors('Object.assign(module.exports, { github: { toolInputGuardrails: [] } });'), 'src/ops.js': writer };
    expect(found(plain, GUARD, 'src/ops.js')).toEqual([]);
    const kept = { 'src/doors.js': cjsDoors('Object.assign(module.exports, { shellTool });'), 'src/ops.js': writer };
    expect(found(kept, GUARD, 'src/ops.js')).toEqual([]);
    // a chain into a local, not `exports`: no export at all
    const local = { 'src/doors.js': cjsDoors('let all; all = module.exports = { shellTool };'), 'src/ops.js': writer };
    expect(found(local, GUARD, 'src/ops.js')).toEqual([]);
  });
});

describe('the writer side: a require with no top-level binding', () => {
  it('`require("./doors").github.x = …` in place, and `require("./doors")["shellTool"].shell = …`', () => {
    const files = {
      'src/doors.ts': DOORS,
      'src/ops.js': lines("require('./doors').github.toolInputGuardrails = [];", "require('./doors')['shellTool'].shell = () => undefined;"),
    };
    expect(found(files, GUARD, 'src/ops.js')).toEqual([{ line: 1, unresolved: false }]);
    expect(found(files, SHELL, 'src/ops.js')).toEqual(AT2);
    // a `require` of the function's own is no module read: the write stays on an object check cannot tell
    const own = { 'src/doors.ts': DOORS, 'src/ops.js': lines("function load(require) { require('./doors').github.toolInputGuardrails = []; }") };
    expect(found(own, GUARD, 'src/ops.js')).toEqual([{ line: 1, unresolved: true }]);
  });

  it('`const { github } = require(...)` and `const d = require(...)` inside a function', () => {
    const named = {
      'src/doors.ts': DOORS,
      'src/ops.js': lines('function open() {', "  const { github } = require('./doors');", '  github.toolInputGuardrails = [];', '}'),
    };
    expect(found(named, GUARD, 'src/ops.js')).toEqual([{ line: 3, unresolved: false }]);
    const whole = {
      'src/doors.ts': DOORS,
      'src/ops.js': lines('const open = () => {', "  const d = require('./doors');", '  d.shellTool.shell = () => undefined;', '};'),
    };
    expect(found(whole, SHELL, 'src/ops.js')).toEqual([{ line: 3, unresolved: false }]);
    const renamed = {
      'src/doors.ts': DOORS,
      'src/ops.js': lines('function open() {', "  const { shellTool: sh } = require('./doors');", '  sh.shell = () => undefined;', '}'),
    };
    expect(found(renamed, SHELL, 'src/ops.js')).toEqual([{ line: 3, unresolved: false }]);
  });

  it('silent: a package required in place or in a function, and a name of the module that is no door', () => {
    const pkg = { 'src/doors.ts': DOORS, 'src/ops.js': lines("require('github-sdk').github.toolInputGuardrails = [];") };
    expect(found(pkg, GUARD, 'src/ops.js')).toEqual([]);
    const fnPkg = {
      'src/doors.ts': DOORS,
      'src/ops.js': lines('function open() {', "  const { github } = require('github-sdk');", '  github.toolInputGuardrails = [];', '}'),
    };
    expect(found(fnPkg, GUARD, 'src/ops.js')).toEqual([]);
    const other = {
      'src/doors.ts': DOORS,
      'src/ops.js': lines('function open() {', "  const { config } = require('./doors');", '  config.toolInputGuardrails = [];', '}'),
    };
    expect(found(other, GUARD, 'src/ops.js')).toEqual([]);
    // renamed: the name read is `config`, no door, whatever the local is called
    const renamed = {
      'src/doors.ts': DOORS,
      'src/ops.js': lines('function open() {', "  const { config: github } = require('./doors');", '  github.toolInputGuardrails = [];', '}'),
    };
    expect(found(renamed, GUARD, 'src/ops.js')).toEqual([]);
  });
});

describe('an ES default import of a CommonJS module, read through a member', () => {
  it('`import d from "./doors.cjs"; d.github.x = …` reads `module.exports.github`', () => {
    const files = {
      'src/doors.cjs': cjsDoors('module.exports = { github, shellTool };'),
      'src/ops.ts': lines("import d from './doors.cjs';", 'd.github.toolInputGuardrails = [];', "d['shellTool'].shell = () => undefined;"),
    };
    expect(found(files, GUARD, 'src/ops.ts')).toEqual([{ line: 2, unresolved: false }]);
    expect(found(files, SHELL, 'src/ops.ts')).toEqual([{ line: 3, unresolved: false }]);
    // fail closed through a `module.exports` check cannot list
    const opaque = { 'src/doors.cjs': cjsDoors('Object.assign(module.exports, makeDoors());'), 'src/ops.ts': files['src/ops.ts'] };
    expect(found(opaque, GUARD, 'src/ops.ts')).toEqual(CANNOT_TELL);
  });

  it('an ES module keeps its own default; silent: a door the CommonJS module keeps', () => {
    // an ES module's default is its `export default`, not its named exports: a member of it stays a
    // write on an object check cannot tell, as before
    const esm = lines(
      "import { MCPServerStdio } from '@openai/agents';",
      "import { protectMcpServer } from './ctrlrun.generated.js';",
      "export const github = protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
      'export default { github: { toolInputGuardrails: [] } };',
    );
    const writer = lines("import d from './doors.js';", 'd.github.toolInputGuardrails = [];');
    expect(found({ 'src/doors.ts': esm, 'src/ops.ts': writer }, GUARD, 'src/ops.ts')).toEqual(CANNOT_TELL);
    // an `export const` alone is ES syntax too, with no `import` in the module
    const exportOnly = lines(
      "const { MCPServerStdio } = require('@openai/agents');",
      "const { protectMcpServer } = require('./ctrlrun.generated.js');",
      "export const github = protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
    );
    expect(found({ 'src/doors.ts': exportOnly, 'src/ops.ts': writer }, GUARD, 'src/ops.ts')).toEqual(CANNOT_TELL);
    const kept = { 'src/doors.js': cjsDoors('module.exports = { shellTool };'), 'src/ops.ts': writer };
    expect(found(kept, GUARD, 'src/ops.ts')).toEqual([]);
  });
});
