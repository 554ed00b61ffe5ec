import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';
import { cjsDoors } from './cjs-doors.js';
import { DOORS } from './unlisted-tool-module.js';

/*
 * Issue 40 item 4 ("no false green") for CommonJS apps: a door exported by one module and written in
 * another was followed through ES imports only; a `require` of the door's module (and a door module
 * exporting by `module.exports` / `exports.x`) left the write silent where the ES-import form is reported.
 */

const found = (files: Record<string, string>, ruleId: string, file: string) =>
  lintRepo(files, { project: testProject(), ruleId, file }).map((f) => ({ line: f.line, unresolved: f.message.includes('cannot tell') }));

const GUARD = { ruleId: 'mcp-server-unguarded', at: [{ line: 2, unresolved: false }] };
const SHELL = { ruleId: 'invoke-replaced', at: [{ line: 2, unresolved: false }] };

describe('a door written through `require` (the writer)', () => {
  it('control: the ES-import form is reported', () => {
    const files = { 'src/doors.ts': DOORS, 'src/ops.ts': lines("import { github } from './doors.js';", 'github.toolInputGuardrails = [];') };
    expect(found(files, GUARD.ruleId, 'src/ops.ts')).toEqual(GUARD.at);
  });

  it('`const { github } = require(...)`, renamed (`{ shellTool: sh }`), in a .js and a .cjs file', () => {
    const named = { 'src/doors.ts': DOORS, 'src/ops.js': lines("const { github } = require('./doors');", 'github.toolInputGuardrails = [];') };
    expect(found(named, GUARD.ruleId, 'src/ops.js')).toEqual(GUARD.at);
    const renamed = { 'src/doors.ts': DOORS, 'src/ops.cjs': lines("const { shellTool: sh } = require('./doors');", 'sh.shell = () => undefined;') };
    expect(found(renamed, SHELL.ruleId, 'src/ops.cjs')).toEqual(SHELL.at);
  });

  it('`const doors = require(...)`: `doors.github.x = …` and `doors["shellTool"].shell = …`', () => {
    const files = {
      'src/doors.ts': DOORS,
      'src/ops.js': lines("const doors = require('./doors');", 'doors.github.toolInputGuardrails = [];', "doors['shellTool'].shell = () => undefined;"),
    };
    expect(found(files, GUARD.ruleId, 'src/ops.js')).toEqual(GUARD.at);
    expect(found(files, SHELL.ruleId, 'src/ops.js')).toEqual([{ line: 3, unresolved: false }]);
  });

  it('silent: a name of the required module that is no door, a package required, a local name declared again', () => {
    const other = { 'src/doors.ts': DOORS, 'src/ops.js': lines("const { config } = require('./doors');", 'config.toolInputGuardrails = [];') };
    expect(found(other, GUARD.ruleId, 'src/ops.js')).toEqual([]);
    // as the ES-import form of each is
    const esOther = { 'src/doors.ts': DOORS, 'src/ops.ts': lines("import { config } from './doors.js';", 'config.toolInputGuardrails = [];') };
    expect(found(esOther, GUARD.ruleId, 'src/ops.ts')).toEqual([]);
    const esPkg = { 'src/doors.ts': DOORS, 'src/ops.ts': lines("import { github } from 'github-sdk';", 'github.toolInputGuardrails = [];') };
    expect(found(esPkg, GUARD.ruleId, 'src/ops.ts')).toEqual([]);
    const pkg = { 'src/doors.ts': DOORS, 'src/ops.js': lines("const { github } = require('github-sdk');", 'github.toolInputGuardrails = [];') };
    expect(found(pkg, GUARD.ruleId, 'src/ops.js')).toEqual([]);
    const shadowed = {
      'src/doors.ts': DOORS,
      'src/ops.js': lines("const { github } = require('./doors');", 'function f(github) { github.toolInputGuardrails = []; }', 'f({});'),
    };
    expect(found(shadowed, GUARD.ruleId, 'src/ops.js')).toEqual([]);
  });
});

describe('a door exported by CommonJS (the door side)', () => {
  it('`module.exports = { github, shellTool }`: required by name and as a whole, and imported', () => {
    const doors = cjsDoors('module.exports = { github, shellTool };');
    const named = { 'src/doors.js': doors, 'src/ops.js': lines("const { github } = require('./doors');", 'github.toolInputGuardrails = [];') };
    expect(found(named, GUARD.ruleId, 'src/ops.js')).toEqual(GUARD.at);
    const whole = { 'src/doors.js': doors, 'src/ops.js': lines("const d = require('./doors');", 'd.shellTool.shell = () => undefined;') };
    expect(found(whole, SHELL.ruleId, 'src/ops.js')).toEqual(SHELL.at);
    const imported = { 'src/doors.js': doors, 'src/ops.ts': lines("import { github } from './doors.js';", 'github.toolInputGuardrails = [];') };
    expect(found(imported, GUARD.ruleId, 'src/ops.ts')).toEqual(GUARD.at);
  });

  it('`exports.github = github`, `module.exports.shellTool = …`, and `module.exports = { gh: github }` renamed', () => {
    const each = { 'src/doors.js': cjsDoors('exports.github = github;', 'module.exports.shellTool = shellTool;') };
    expect(
      found({ ...each, 'src/ops.js': lines("const { github } = require('./doors');", 'github.toolInputGuardrails = [];') }, GUARD.ruleId, 'src/ops.js'),
    ).toEqual(GUARD.at);
    expect(
      found({ ...each, 'src/ops.js': lines("const { shellTool } = require('./doors');", 'shellTool.shell = () => undefined;') }, SHELL.ruleId, 'src/ops.js'),
    ).toEqual(SHELL.at);
    const renamed = {
      'src/doors.js': cjsDoors('module.exports = { gh: github };'),
      'src/ops.js': lines("const { gh } = require('./doors');", 'gh.toolInputGuardrails = [];'),
    };
    expect(found(renamed, GUARD.ruleId, 'src/ops.js')).toEqual(GUARD.at);
  });

  it('silent: a CommonJS export that is provably no door, and a door the module keeps to itself', () => {
    const plain = {
      'src/doors.js': cjsDoors('module.exports = { github: { toolInputGuardrails: [] }, door: github };'),
      'src/ops.js': lines("const { github } = require('./doors');", 'github.toolInputGuardrails = [];'),
    };
    expect(found(plain, GUARD.ruleId, 'src/ops.js')).toEqual([]);
    const kept = {
      'src/doors.js': cjsDoors('module.exports = { shellTool };'),
      'src/ops.js': lines("const { github } = require('./doors');", 'github.toolInputGuardrails = [];'),
    };
    expect(found(kept, GUARD.ruleId, 'src/ops.js')).toEqual([]);
  });

  it('fail closed: a `module.exports` check cannot list the names of (a module required again, a call, a spread) may export a door', () => {
    const writer = lines("const { github } = require('./index');", 'github.toolInputGuardrails = [];');
    const cannotTell = [{ line: 2, unresolved: true }];
    for (const index of ["module.exports = require('./doors');", 'module.exports = makeDoors();', "module.exports = { ...require('./doors'), other: 1 };"]) {
      const files = { 'src/doors.js': cjsDoors('module.exports = { github };'), 'src/index.js': index, 'src/ops.js': writer };
      expect(found(files, GUARD.ruleId, 'src/ops.js')).toEqual(cannotTell);
    }
    // the door's own module, scanned (it names the SDK), exporting a value check cannot list
    const own = { 'src/doors.js': cjsDoors('module.exports = Object.assign({}, { github });'), 'src/ops.js': writer.replace('./index', './doors') };
    expect(found(own, GUARD.ruleId, 'src/ops.js')).toEqual(cannotTell);
    // a method is no door: the module's other names are known
    const method = { 'src/doors.js': cjsDoors('module.exports = { shellTool, make() { return 1; } };'), 'src/ops.js': writer.replace('./index', './doors') };
    expect(found(method, GUARD.ruleId, 'src/ops.js')).toEqual([]);
  });
});

describe('a door that is the whole of `module.exports`', () => {
  const server = lines(
    "const { MCPServerStdio } = require('@openai/agents');",
    "const { protectMcpServer } = require('./ctrlrun.generated.js');",
    "module.exports = protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
  );
  const shell = lines("const { protectShellTool } = require('./ctrlrun.generated.js');", "module.exports = protectShellTool('host.shell', { shell: {} });");

  it('required whole and written itself, or imported as the default', () => {
    expect(
      found({ 'src/server.js': server, 'src/ops.js': lines("const gh = require('./server');", 'gh.toolInputGuardrails = [];') }, GUARD.ruleId, 'src/ops.js'),
    ).toEqual(GUARD.at);
    expect(
      found({ 'src/shell.js': shell, 'src/ops.js': lines("const sh = require('./shell');", 'sh.shell = () => undefined;') }, SHELL.ruleId, 'src/ops.js'),
    ).toEqual(SHELL.at);
    expect(
      found({ 'src/shell.js': shell, 'src/ops.ts': lines("import sh from './shell.js';", 'sh.shell = () => undefined;') }, SHELL.ruleId, 'src/ops.ts'),
    ).toEqual(SHELL.at);
  });

  it('silent: a whole require of a module exporting a plain object, and a member of the door that is no door', () => {
    const config = { 'src/config.js': "module.exports = { shell: 'zsh' };\n", 'src/ops.js': lines("const cfg = require('./config');", "cfg.shell = 'bash';") };
    expect(found(config, SHELL.ruleId, 'src/ops.js')).toEqual([]);
    const deeper = { 'src/shell.js': shell, 'src/ops.js': lines("const sh = require('./shell');", 'sh.shell.shell = () => undefined;') };
    expect(found(deeper, SHELL.ruleId, 'src/ops.js')).toEqual([]);
    // an ES namespace import written itself is the namespace, not the module's default door
    const esm = lines("import { protectShellTool } from './ctrlrun.generated.js';", "export default protectShellTool('host.shell', { shell: {} as never });");
    expect(
      found(
        { 'src/shell.ts': esm, 'src/ops.ts': lines("import * as sh from './shell.js';", '(sh as any).shell = () => undefined;') },
        SHELL.ruleId,
        'src/ops.ts',
      ),
    ).toEqual([]);
  });
});
