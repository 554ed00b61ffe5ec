import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/*
 * Issue 40 item 4 ("no false green"), left by session 32: (1) a function tool written as an object
 * literal whose `type` check cannot read (`{ type: KIND, invoke }`) was reported only in a module
 * naming neither the SDK nor the generated module; handed to an agent's `tools` in a file using the
 * SDK, it was silent. (2) An agent's `tools` built by a call or added later was not followed to the
 * modules check does not scan.
 */

/** The agent's file: `tools` given as written, with the imports `load` and the lines `more` after it. */
const agent = (tools: string, load: string[], ...more: string[]): string =>
  lines(
    "import { Agent } from '@openai/agents';",
    ...load,
    `export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: ${tools} });`,
    ...more,
  );

const KINDS = lines("export const SHELL = ['sh', 'ell'].join('');", 'export const FN = process.env.FN_TYPE!;');

/** The findings of `ruleId` in `file`, as `line: message`. */
const found = (files: Record<string, string>, file: string, ruleId = 'object-literal-tool'): string[] =>
  lintRepo({ 'src/kinds.ts': KINDS, ...files }, { project: testProject(), ruleId, file }).map((f) => `${f.line}: ${f.message}`);

const FN_MESSAGE =
  "A function tool 'lookup' handed to an agent's `tools`, written as an object literal with its own `invoke` and `type: FN`, a value check cannot read: if it is 'function', the SDK runs it, but it never goes through tool(), so no policy decides its calls.";

describe('`{ type: KIND, invoke }` handed to an agent in a file using the SDK', () => {
  it('written in the agent`s `tools`, held by a const the agent is given, exported by a module using the SDK', () => {
    const files = {
      'src/inline.ts': agent("[{ type: FN, name: 'lookup', invoke: runner }]", ["import { FN } from './kinds.js';", 'declare const runner: any;']),
      'src/held.ts': agent('[lookup, other]', [
        "import { FN } from './kinds.js';",
        'declare const runner: any;',
        "import { tool } from '@openai/agents';",
        "const lookup = { type: FN, name: 'lookup', invoke: runner };",
        "const other = tool({ name: 'other', description: 'o', parameters: {} as any, execute: async () => 'ok' });",
      ]),
      'src/tools/fn.ts': lines(
        "import { tool } from '@openai/agents';",
        "import { FN } from '../kinds.js';",
        'declare const runner: any;',
        "export const lookup = { type: FN, name: 'lookup', invoke: runner };",
        "export const helper = tool({ name: 'helper', description: 'h', parameters: {} as any, execute: async () => 'ok' });",
      ),
      'src/imported.ts': agent('[lookup, helper]', ["import { lookup, helper } from './tools/fn.js';"]),
      // an agent's file that exports the object to another agent's: one finding
      'src/both.ts': agent('[lookup]', [
        "import { FN } from './kinds.js';",
        'declare const runner: any;',
        "export const lookup = { type: FN, name: 'lookup', invoke: runner };",
      ]),
      'src/again.ts': agent('[lookup]', ["import { lookup } from './both.js';"]),
    };
    expect(found(files, 'src/both.ts')).toEqual([`4: ${FN_MESSAGE}`]);
    expect(found(files, 'src/inline.ts')).toEqual([`4: ${FN_MESSAGE}`]);
    expect(found(files, 'src/held.ts')).toEqual([`5: ${FN_MESSAGE}`]);
    expect(found(files, 'src/tools/fn.ts')).toEqual([`4: ${FN_MESSAGE}`]);
  });

  it('silent: a readable type that is no function, a call for a type, no `invoke`, an object no agent is given', () => {
    const files = {
      'src/plain.ts': agent(
        "[{ type: 'method', invoke: runner }, { type: kind(), invoke: runner }, { type: FN, execute: runner }, ...[]]",
        ["import { FN } from './kinds.js';", 'declare const runner: any;', 'declare function kind(): string;'],
        "export const route = { type: FN, name: 'route', invoke: runner };",
        "const local = { type: FN, name: 'local', invoke: runner };",
        'console.log(local);',
      ),
      'src/tools/fn.ts': lines(
        "import { tool } from '@openai/agents';",
        "import { FN } from '../kinds.js';",
        'declare const runner: any;',
        "export const lookup = { type: FN, name: 'lookup', invoke: runner };",
        "export const kept = { type: FN, name: 'kept', invoke: runner };",
        "export const helper = tool({ name: 'helper', description: 'h', parameters: {} as any, execute: async () => 'ok' });",
      ),
      'src/imported.ts': agent('[helper]', ["import { lookup, helper } from './tools/fn.js';"], 'console.log(lookup);'),
    };
    expect(found(files, 'src/plain.ts')).toEqual([]);
    expect(found(files, 'src/tools/fn.ts')).toEqual([]);
  });
});

/** A module naming no SDK whose `type` comes from another module (line 1 imports it, line 2 declares the runner). */
const module = (...body: string[]): string => lines("import { SHELL, FN } from '../kinds.js';", 'declare const runner: any;', ...body);

describe('an agent`s `tools` built by a call or added later, followed to a module check does not scan', () => {
  it('`tools: makeTools()`, `[...makeTools()]`, `await loadTools()`: what the exported function returns', () => {
    const files = {
      'src/tools/make.ts': module(
        'export function makeTools() {',
        '  if (runner) return [{ type: SHELL, shell: runner }];',
        '  return [({ type: SHELL, computer: runner }) as const];',
        '}',
      ),
      'src/tools/arrow.ts': module(
        'export const moreTools = () => [{ type: SHELL, shell: runner }];',
        'export default () => ({ type: SHELL, shell: runner });',
      ),
      'src/tools/load.ts': module('async function loadTools() {', '  return [{ type: SHELL, shell: runner }];', '}', 'export { loadTools as load };'),
      'src/agent.ts': agent('makeTools()', ["import { makeTools } from './tools/make.js';"]),
      'src/second.ts': agent('[...moreTools(), one()]', ["import one, { moreTools } from './tools/arrow.js';"]),
      'src/tools/index.ts': "export * from './load.js';\n",
      'src/third.ts': agent('await load()', ["import { load } from './tools/index.js';"]),
    };
    expect(found(files, 'src/tools/make.ts', 'unprotected-door').map((f) => f.split(',')[0])).toEqual([
      '4: A shell tool written as an object literal with its own `shell` and `type: SHELL`',
      '5: A computer tool written as an object literal with its own `computer` and `type: SHELL`',
    ]);
    expect(found(files, 'src/tools/arrow.ts', 'unprotected-door').map((f) => f.split(':')[0])).toEqual(['3', '4']);
    expect(found(files, 'src/tools/load.ts', 'unprotected-door').map((f) => f.split(':')[0])).toEqual(['4']);
  });

  it('`agent.tools.push(x)`, `unshift(...list)`, `splice(0, 1, x)`, `agent.tools = [x]` of imports', () => {
    const files = {
      'src/tools/shell.ts': module(
        'export const pushed = { type: SHELL, shell: runner };',
        'export const spread = [{ type: SHELL, shell: runner }];',
        'export const assigned = { type: SHELL, computer: runner };',
        'export const spliced = { type: SHELL, shell: runner };',
      ),
      'src/agent.ts': agent(
        '[]',
        ["import { pushed, spread, assigned, spliced } from './tools/shell.js';"],
        'desk.tools.push(pushed);',
        'desk.tools.unshift(...spread);',
        'desk.tools = [assigned];',
        'desk.tools.splice(0, 1, spliced);',
      ),
    };
    expect(found(files, 'src/tools/shell.ts', 'unprotected-door').map((f) => f.split(':')[0])).toEqual(['3', '4', '5', '6']);
  });

  it('a function tool `{ type: KIND, invoke }` a module using the SDK returns to an agent`s `tools: makeTools()`', () => {
    const files = {
      'src/tools/fns.ts': lines(
        "import { tool } from '@openai/agents';",
        "import { FN } from '../kinds.js';",
        'declare const runner: any;',
        "export const makeFns = () => [{ type: FN, name: 'lookup', invoke: runner }, tool({ name: 'x', description: 'x', parameters: {} as any, execute: runner })];",
      ),
      'src/agent.ts': agent('makeFns()', ["import { makeFns } from './tools/fns.js';"]),
    };
    expect(found(files, 'src/tools/fns.ts')).toEqual([`4: ${FN_MESSAGE}`]);
  });

  it('silent: what the function does not return, a function not called for `tools`, a function handed uncalled, a list of no agent', () => {
    const files = {
      'src/tools/make.ts': module(
        'export function makeTools() {',
        '  const inner = () => ({ type: SHELL, shell: runner });',
        '  console.log(inner);',
        "  return [{ type: SHELL, shell: 'sh' }];",
        '}',
        'export function other() { return [{ type: SHELL, shell: runner }]; }',
        'export function handed() { return { type: SHELL, shell: runner }; }',
        'export const pushed = { type: SHELL, shell: runner };',
      ),
      'src/agent.ts': agent(
        '[...makeTools(), handed]',
        ["import { makeTools, other, handed, pushed } from './tools/make.js';"],
        'const box = { tools: [] as unknown[] };',
        'box.tools.push(pushed);',
        'desk.handoffs.push(pushed as any);',
        'console.log(other(), desk.tools.length);',
      ),
      // a file naming no SDK that adds to a value's `tools`
      'src/other.ts': lines(
        "import { pushed } from './tools/make.js';",
        'declare const thing: any;',
        'thing.tools.push(pushed);',
        'export const step = { invoke: () => 1 };',
      ),
    };
    expect(found(files, 'src/tools/make.ts', 'unprotected-door')).toEqual([]);
  });
});
