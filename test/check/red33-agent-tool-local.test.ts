import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/*
 * Issue 40 item 4 ("no false green"), left by session 33's "agent's tools reached by a call": (1) a
 * function local to the agent's file (`tools: build()`) was not read, so the function tools it
 * returns and the imported doors it hands were silent; (2) what a function returns through a
 * variable (`const list = [...]; return list`) or from a `.map` callback was not read.
 */

const KINDS = lines("export const SHELL = ['sh', 'ell'].join('');", 'export const FN = process.env.FN_TYPE!;');

/** An agent's file using the SDK: the imports and helpers `head`, then one agent per `tools` value. */
const agents = (head: string[], ...tools: string[]): string =>
  lines(
    "import { Agent } from '@openai/agents';",
    "import { SHELL, FN } from './kinds.js';",
    'declare const runner: any;',
    'declare const flows: { name: string; run: any }[];',
    ...head,
    ...tools.map((t, i) => `export const a${i} = new Agent({ name: 'a${i}', instructions: 'Help.', tools: ${t} });`),
  );

/** A module naming no SDK (line 1 imports the kinds, line 2 declares the runner and the flows). */
const module = (...body: string[]): string =>
  lines("import { SHELL, FN } from '../kinds.js';", 'declare const runner: any; declare const flows: { name: string; run: any }[];', ...body);

/** The lines of `ruleId`'s findings in `file`. */
const at = (files: Record<string, string>, file: string, ruleId: string): number[] =>
  lintRepo({ 'src/kinds.ts': KINDS, ...files }, { project: testProject(), ruleId, file }).map((f) => f.line);

const FN_MESSAGE =
  "A function tool 'lookup' handed to an agent's `tools`, written as an object literal with its own `invoke` and `type: FN`, a value check cannot read: if it is 'function', the SDK runs it, but it never goes through tool(), so no policy decides its calls.";

describe('a function of the agent`s file called for its `tools`', () => {
  it('the function tools it returns, a declaration or an arrow; the imported doors it returns', () => {
    const files = {
      'src/local.ts': agents(
        [
          "import { myShell, makeMore } from './tools/shell.js';",
          "function build() { return [{ type: FN, name: 'lookup', invoke: runner }]; }",
          "const arrow = () => ({ type: FN, name: 'lookup', invoke: runner });",
          'function viaImport() { return [myShell, ...makeMore()]; }',
          'const shells = () => [{ type: SHELL, shell: runner }];',
        ],
        'build()',
        '[arrow(), ...viaImport()]',
        'shells()',
      ),
      'src/tools/shell.ts': module(
        'export const myShell = { type: SHELL, shell: runner };',
        'export function makeMore() { return [{ type: SHELL, computer: runner }]; }',
      ),
    };
    const lint = (file: string, ruleId: string) => lintRepo({ 'src/kinds.ts': KINDS, ...files }, { project: testProject(), ruleId, file });
    expect.soft(lint('src/local.ts', 'object-literal-tool').map((f) => `${f.line}: ${f.message}`)).toEqual([`6: ${FN_MESSAGE}`, `7: ${FN_MESSAGE}`]);
    expect.soft(at(files, 'src/tools/shell.ts', 'unprotected-door')).toEqual([3, 4]);
    // a literal door in a file using the SDK was already reported (a guard)
    expect.soft(at(files, 'src/local.ts', 'unprotected-door')).toEqual([9]);
  });

  it('silent: a function not called for `tools`, one handed uncalled, a readable type, a function of another scope', () => {
    const files = {
      'src/local.ts': agents(
        [
          "import { myShell } from './tools/shell.js';",
          "function unused() { return [{ type: FN, name: 'lookup', invoke: runner }]; }",
          "function handed() { return { type: FN, name: 'lookup', invoke: runner }; }",
          "function method() { return [{ type: 'method', invoke: runner }, { type: FN, execute: runner }]; }",
          'function other() { return [myShell]; }',
          'function inner() { const nested = () => { return [myShell]; }; console.log(nested); return []; }',
          'function again(): any[] { return again(); }',
          'console.log(unused(), other());',
        ],
        '[handed, ...method(), ...inner(), ...again()]',
      ),
      'src/tools/shell.ts': module('export const myShell = { type: SHELL, shell: runner };'),
    };
    expect.soft(at(files, 'src/local.ts', 'object-literal-tool')).toEqual([]);
    expect.soft(at(files, 'src/tools/shell.ts', 'unprotected-door')).toEqual([]);
  });
});

describe('what a function returns through a variable or from a `.map` callback', () => {
  it('in the agent`s file and in a module naming no SDK', () => {
    const files = {
      'src/local.ts': agents(
        [
          "import { makeTools, mapped } from './tools/make.js';",
          "function listed() { const list = [{ type: FN, name: 'lookup', invoke: runner }]; return list; }",
        ],
        'listed()',
        'flows.map((f) => ({ type: FN, name: f.name, invoke: f.run }))',
        '[...makeTools(), ...mapped()]',
        "flows.flatMap((f) => { return [{ type: FN, name: 'lookup', invoke: f.run }]; })",
      ),
      'src/tools/make.ts': module(
        'export function makeTools() {',
        '  const list = [{ type: SHELL, shell: runner }];',
        '  return list;',
        '}',
        'export const mapped = () => flows.map((f) => ({ type: SHELL, shell: f.run }));',
        'export function fns() { return flows.map((f) => { return { type: FN, name: f.name, invoke: f.run }; }); }',
      ),
      'src/more.ts': agents(["import { fns } from './tools/make.js';"], 'fns()'),
    };
    expect.soft(at(files, 'src/local.ts', 'object-literal-tool')).toEqual([6, 8, 10]);
    expect.soft(at(files, 'src/tools/make.ts', 'unprotected-door')).toEqual([4, 7]);
    expect.soft(at(files, 'src/tools/make.ts', 'object-literal-tool')).toEqual([8]);
  });

  it('silent: a variable not returned, a callback of no `.map`, a `.map` not returned, a readable type', () => {
    const files = {
      'src/local.ts': agents(
        [
          "import { makeTools } from './tools/make.js';",
          "function kept() { const list = [{ type: FN, name: 'lookup', invoke: runner }]; console.log(list); return []; }",
        ],
        '[...kept(), ...makeTools()]',
        "flows.filter((f) => ({ type: FN, name: 'x', invoke: f.run }))",
        "flows.map((f) => ({ type: 'method', name: f.name, invoke: f.run }))",
      ),
      'src/tools/make.ts': module(
        'export function makeTools() {',
        '  const list = [{ type: SHELL, shell: runner }];',
        '  flows.map((f) => ({ type: SHELL, shell: f.run }));',
        '  flows.forEach((f) => ({ type: SHELL, shell: f.run }));',
        '  console.log(list);',
        '  return [];',
        '}',
      ),
    };
    expect.soft(at(files, 'src/local.ts', 'object-literal-tool')).toEqual([]);
    expect.soft(at(files, 'src/tools/make.ts', 'unprotected-door')).toEqual([]);
  });
});

describe('an export holding what a function of its module returns (`export const myShell = make()`)', () => {
  it('reported when an agent`s `tools` holds the export; silent for an export no agent is given', () => {
    const files = {
      'src/tools/made.ts': module(
        'function make() { return { type: SHELL, shell: runner }; }',
        'const makeFn = () => ({ type: FN, name: "lookup", invoke: runner });',
        'function unused() { return { type: SHELL, computer: runner }; }',
        'export const myShell = make();',
        'const fnTool = makeFn();',
        'export { fnTool as lookup };',
        'export const other = unused();',
      ),
      'src/agent.ts': agents(["import { myShell, lookup } from './tools/made.js';"], '[myShell, lookup]'),
    };
    expect.soft(at(files, 'src/tools/made.ts', 'unprotected-door')).toEqual([3]);
    expect.soft(at(files, 'src/tools/made.ts', 'object-literal-tool')).toEqual([4]);
  });
});
