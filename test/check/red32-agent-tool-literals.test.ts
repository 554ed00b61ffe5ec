import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/*
 * Issue 40 item 4 ("no false green"), left by session 31: a literal door whose `type` check cannot
 * read (`{ type: SHELL, shell }`) was reported only in a file using the SDK or the generated module.
 * In a module naming neither (the prefilter skips most such files), it was silent even when an
 * agent's `tools` in a scanned file holds its export.
 */

/** The agent's file: `tools` given as written, with the imports `load`. */
const agent = (tools: string, ...load: string[]): string =>
  lines("import { Agent } from '@openai/agents';", ...load, `export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: ${tools} });`);

/** A module naming no SDK whose `type` comes from another module (line 1 imports it, line 2 declares the runner). */
const module = (...body: string[]): string => lines("import { SHELL, Kinds } from './kinds.js';", 'declare const runner: any;', ...body);

const KINDS = lines("export const SHELL = ['sh', 'ell'].join('');", 'export const Kinds = { patch: process.env.PATCH_TYPE!, fn: process.env.FN_TYPE! };');

/** The findings of `ruleId` in `file`, as `line: message`. */
const found = (files: Record<string, string>, file: string, ruleId = 'unprotected-door'): string[] =>
  lintRepo({ 'src/kinds.ts': KINDS, ...files }, { project: testProject(), ruleId, file }).map((f) => `${f.line}: ${f.message}`);

describe('a literal door with an unreadable `type` handed to an agent from a module naming no SDK', () => {
  it('a shell in a module the prefilter skips, imported into the agent`s `tools`', () => {
    const files = {
      'src/tools/shell.ts': module("export const myShell = { type: SHELL, name: 'sh', shell: runner };"),
      'src/agent.ts': agent('[myShell]', "import { myShell } from './tools/shell.js';"),
    };
    expect(found(files, 'src/tools/shell.ts')).toEqual([
      "3: A shell tool 'sh' written as an object literal with its own `shell` and `type: SHELL`, a value check cannot read: if it is 'shell', the SDK finds the tool by it and lets the model run shell commands with no policy: no decision, no recorded approval, no receipt.",
    ]);
  });

  it('a default export, a renamed export, a namespace member, an imported list, a spread, a const list of the agent`s file', () => {
    const files = {
      'src/tools/patch.ts': module('export default { type: Kinds.patch, editor: runner } as const;'),
      'src/tools/more.ts': module(
        'export const more = [{ type: SHELL, shell: runner }];',
        'export const extra = [({ type: SHELL, shell: runner }) satisfies object];',
      ),
      'src/agent.ts': agent(
        '[patch, box.display, ...extra]',
        "import patch from './tools/patch.js';",
        "import * as box from './tools/screen.js';",
        "import { extra } from './tools/more.js';",
      ),
      'src/second.ts': agent('more', "import { more } from './tools/more.js';"),
      'src/tools/screen.ts': module('const screen = { type: SHELL, computer: runner };', 'export { screen as display };'),
      'src/tools/held.ts': module('export const heldShell = { type: SHELL, shell: runner };'),
      'src/third.ts': agent('held', "import { heldShell } from './tools/held.js';", 'const held = [heldShell];'),
    };
    expect(found(files, 'src/tools/patch.ts').map((f) => f.split(',')[0])).toEqual([
      '3: A apply_patch tool written as an object literal with its own `editor` and `type: Kinds.patch`',
    ]);
    expect(found(files, 'src/tools/screen.ts').map((f) => f.split(',')[0])).toEqual([
      '3: A computer tool written as an object literal with its own `computer` and `type: SHELL`',
    ]);
    expect(found(files, 'src/tools/held.ts').map((f) => f.split(':')[0])).toEqual(['3']);
    expect(found(files, 'src/tools/more.ts').map((f) => f.split(':')[0])).toEqual(['3', '4']);
  });

  it('through listed barrels naming no SDK: `export *`, `export { a as b } from`, an import exported again', () => {
    const files = {
      'src/tools/shell.ts': module('export const myShell = { type: SHELL, shell: runner };'),
      'src/tools/patch.ts': module('export const patchTool = { type: Kinds.patch, editor: runner };'),
      'src/tools/screen.ts': module('export const screen = { type: SHELL, computer: runner };'),
      'src/tools/index.ts': lines(
        "export * from './shell.js';",
        "export { patchTool as editTool } from './patch.js';",
        "import { screen } from './screen.js';",
        'export { screen as display };',
      ),
      'src/agent.ts': agent('[myShell, editTool, display]', "import { myShell, editTool, display } from './tools/index.js';"),
    };
    expect(found(files, 'src/tools/shell.ts').map((f) => f.split(':')[0])).toEqual(['3']);
    expect(found(files, 'src/tools/patch.ts').map((f) => f.split(':')[0])).toEqual(['3']);
    expect(found(files, 'src/tools/screen.ts').map((f) => f.split(':')[0])).toEqual(['3']);
  });

  it('a function tool `{ type: kind, invoke }` in a module naming no SDK (the prefilter passes `invoke`)', () => {
    const files = {
      'src/tools/fn.ts': module("export const lookup = { type: Kinds.fn, name: 'lookup', invoke: runner };"),
      'src/agent.ts': agent('[lookup]', "import { lookup } from './tools/fn.js';"),
    };
    expect(found(files, 'src/tools/fn.ts', 'object-literal-tool')).toEqual([
      "3: A function tool 'lookup' handed to an agent's `tools`, written as an object literal with its own `invoke` and `type: Kinds.fn`, a value check cannot read: if it is 'function', the SDK runs it, but it never goes through tool(), so no policy decides its calls.",
    ]);
  });

  it('a module git ignores (built at build time), imported into the agent`s `tools`', () => {
    const files = {
      '.gitignore': 'src/gen/\n',
      'src/gen/shell.ts': lines(
        "import { SHELL } from '../kinds.js';",
        'declare const runner: any;',
        'export const genShell = { type: SHELL, shell: runner };',
      ),
      'src/agent.ts': agent('[genShell]', "import { genShell } from './gen/shell.js';"),
    };
    expect(found(files, 'src/gen/shell.ts').map((f) => f.split(':')[0])).toEqual(['3']);
    // through a listed barrel naming no SDK
    const barrel = {
      ...files,
      'src/tools/index.ts': "export * from '../gen/shell.js';\n",
      'src/agent.ts': agent('[genShell]', "import { genShell } from './tools/index.js';"),
    };
    expect(found(barrel, 'src/gen/shell.ts').map((f) => f.split(':')[0])).toEqual(['3']);
  });
});

describe('silent controls', () => {
  it('a plain config object, a literal body, a readable type that is no door, a hosted environment', () => {
    const files = {
      'src/tools/plain.ts': module(
        "export const config = { type: SHELL, command: 'ls' };",
        "export const step = { type: SHELL, shell: '/bin/sh' };",
        "export const column = { type: 'column', editor: runner };",
        "export const box = { type: SHELL, shell: runner, environment: { type: 'container_auto' } };",
        "export const fn = { type: 'method', invoke: runner };",
      ),
      'src/agent.ts': agent('[config, step, column, box, fn]', "import { config, step, column, box, fn } from './tools/plain.js';"),
    };
    expect(found(files, 'src/tools/plain.ts')).toEqual([]);
    expect(found(files, 'src/tools/plain.ts', 'object-literal-tool')).toEqual([]);
  });

  it('only what an agent is handed: another export of the module, an export used elsewhere, a local object, a function`s const named like the export', () => {
    const files = {
      'src/tools/shell.ts': module(
        'export const myShell = { type: SHELL, shell: runner };',
        'export const grid = { type: Kinds.patch, editor: runner };',
        'const local = [{ type: SHELL, shell: runner }];',
        'export const count = local.length;',
        'const helper: unknown[] = [];',
        'export { helper };',
        'export function fill() { const helper = { type: SHELL, shell: runner }; return helper.type; }',
      ),
      'src/agent.ts': agent('[myShell, ...helper]', "import { myShell, helper } from './tools/shell.js';"),
      'src/grid.ts': lines("import { grid } from './tools/shell.js';", 'export const columns = [grid];'),
    };
    expect(found(files, 'src/tools/shell.ts').map((f) => f.split(':')[0])).toEqual(['3']);
  });

  it('an export handed to no agent, and the same object beside an agent that is not given it', () => {
    const files = {
      'src/tools/shell.ts': module('export const myShell = { type: SHELL, shell: runner };'),
      'src/agent.ts': agent('[]', "import { myShell } from './tools/shell.js';", 'console.log(myShell);'),
    };
    expect(found(files, 'src/tools/shell.ts')).toEqual([]);
  });
});
