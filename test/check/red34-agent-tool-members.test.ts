import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/*
 * Issue 40 item 4 ("no false green"), left by session 33 ("an agent's tools through a local
 * function", What is left): a literal door that is a member of an export (`export const kit = {
 * shell: { type: 'shell', shell } }`) in a module naming no SDK, handed to an agent's `tools` as
 * `kit.shell` from another file, was silent: the agent's file kept no import read through a member.
 */

const KINDS = lines("export const SHELL = ['sh', 'ell'].join('');", 'export const FN = process.env.FN_TYPE!;');

/** The agent's file: `tools` given as written, with the imports `load`. */
const agent = (tools: string, ...load: string[]): string =>
  lines("import { Agent } from '@openai/agents';", ...load, `export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: ${tools} });`);

/** A module naming no SDK (line 1 imports the kinds, line 2 declares the runner). */
const module = (...body: string[]): string => lines("import { SHELL, FN } from './kinds.js';", 'declare const runner: any;', ...body);

/** The lines of `ruleId`'s findings in `file`. */
const at = (files: Record<string, string>, file: string, ruleId = 'unprotected-door'): number[] =>
  lintRepo({ 'src/kinds.ts': KINDS, ...files }, { project: testProject(), ruleId, file }).map((f) => f.line);

/** A module of doors held as members (lines 4-9) and an element (line 12). */
const KIT = module(
  'export const kit = {',
  "  shell: { type: 'shell', name: 'sh', shell: runner },",
  '  patch: { type: SHELL, editor: runner },',
  '  nested: { list: [{ type: SHELL, computer: runner }] },',
  "  fn: { type: FN, name: 'lookup', invoke: runner },",
  "  column: { type: 'column', editor: runner },",
  '  unused: { type: SHELL, shell: runner },',
  '};',
  'export const list = [',
  '  { type: SHELL, shell: runner },',
  '];',
);

describe('a literal door that is a member of an export, handed to an agent as that member', () => {
  it('reported: a member, a member of a member spread, a namespace`s member, an element by its index, through a barrel, a function tool', () => {
    const files = {
      'src/tools/kit.ts': KIT,
      // through a barrel
      'src/tools/index.ts': "export * from './kit.js';",
      'src/second.ts': agent('[box.unused]', "import { kit as box } from './tools/index.js';"),
      'src/agent.ts': agent(
        '[kit.shell, ...kit.nested.list, ns.kit.patch, list[0], kit.fn]',
        "import { kit, list } from './tools/kit.js';",
        "import * as ns from './tools/kit.js';",
      ),
    };
    expect.soft(at(files, 'src/tools/kit.ts')).toEqual([4, 5, 6, 9, 12]);
    expect
      .soft(
        lintRepo({ 'src/kinds.ts': KINDS, ...files }, { project: testProject(), ruleId: 'object-literal-tool', file: 'src/tools/kit.ts' }).map(
          (f) => `${f.line}: ${f.message}`,
        ),
      )
      .toEqual([
        "7: A function tool 'lookup' handed to an agent's `tools`, written as an object literal with its own `invoke` and `type: FN`, a value check cannot read: if it is 'function', the SDK runs it, but it never goes through tool(), so no policy decides its calls.",
      ]);
  });

  it('a door nested ten lists and objects deep in the export, handed as that member', () => {
    const path = Array.from({ length: 5 }, (_, i) => `l${i}`);
    // `{ l0: [{ l1: [ ... { type: SHELL, shell } ] }] }`: each level an object then a list
    const value = path.reduceRight((inner, key) => `{ ${key}: [${inner}] }`, '{ type: SHELL, shell: runner }');
    const member = `deep.${path.map((k) => `${k}[0]`).join('.')}`;
    const files = {
      'src/tools/deep.ts': module(`export const deep = ${value};`),
      'src/agent.ts': agent(`[${member}]`, "import { deep } from './tools/deep.js';"),
    };
    expect(at(files, 'src/tools/deep.ts')).toEqual([3]);
  });

  it('a member check cannot read (`kit[key]`): every door among the members is reported (fail closed)', () => {
    const files = { 'src/tools/kit.ts': KIT, 'src/agent.ts': agent('[kit[key]]', "import { kit } from './tools/kit.js';", 'declare const key: string;') };
    expect.soft(at(files, 'src/tools/kit.ts')).toEqual([4, 5, 9]);
  });

  it('silent: members not handed, a readable type that is no door, the holder handed whole, a list handed to no agent, no door', () => {
    const files = {
      'src/tools/kit.ts': KIT,
      'src/agent.ts': agent('[kit.column, kit]', "import { kit, list } from './tools/kit.js';", 'console.log(list, kit.unused);'),
      'src/tools/plain.ts': module('export const plain = { retries: { count: 3 }, opts: [{ shell: true }] };'),
      'src/second.ts': agent('[plain.retries, plain.opts[0]]', "import { plain } from './tools/plain.js';"),
    };
    // a readable `type: 'shell'` is reported where it is written, handed or not (as before: a guard)
    expect.soft(at(files, 'src/tools/kit.ts')).toEqual([4]);
    expect.soft(at(files, 'src/tools/kit.ts', 'object-literal-tool')).toEqual([]);
    expect.soft(at(files, 'src/tools/plain.ts')).toEqual([]);
  });
});
