import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/*
 * Issue 40 item 4 ("no false green"), left by session 33 ("an agent's tools through a local
 * function, a variable or a `.map`", What is left): a callback passed by name (`tools:
 * flows.map(toTool)`) and the callback of `Array.from(xs, cb)` were not followed, so the tools they
 * return were silent; only a `.map`/`.flatMap` callback written in place was read.
 */

const KINDS = lines("export const SHELL = ['sh', 'ell'].join('');", 'export const FN = process.env.FN_TYPE!;');

/** An agent's file using the SDK: the imports and helpers `head`, then one agent per `tools` value. */
const agents = (head: string[], ...tools: string[]): string =>
  lines(
    "import { Agent } from '@openai/agents';",
    "import { SHELL, FN } from './kinds.js';",
    'declare const flows: { name: string; run: any }[];',
    ...head,
    ...tools.map((t, i) => `export const a${i} = new Agent({ name: 'a${i}', instructions: 'Help.', tools: ${t} });`),
  );

/** A module naming no SDK (line 1 imports the kinds, line 2 declares the flows). */
const module = (...body: string[]): string => lines("import { SHELL, FN } from '../kinds.js';", 'declare const flows: { name: string; run: any }[];', ...body);

/** The lines of `ruleId`'s findings in `file`. */
const at = (files: Record<string, string>, file: string, ruleId: string): number[] =>
  lintRepo({ 'src/kinds.ts': KINDS, ...files }, { project: testProject(), ruleId, file }).map((f) => f.line);

describe('a callback passed by name, or the callback of `Array.from`, for an agent`s `tools`', () => {
  it('reported: a declaration and an arrow passed to `.map`/`.flatMap`, `Array.from` inline and by name, an imported callback, `Array.from` in an exported function', () => {
    const files = {
      'src/local.ts': agents(
        [
          "import { toShell, viaFrom } from './tools/shell.js';",
          'function toTool(f: { name: string; run: any }) { return { type: FN, name: f.name, invoke: f.run }; }',
          'const toMany = (f: { name: string; run: any }) => [{ type: FN, name: f.name, invoke: f.run }];',
          'const named = (f: { name: string; run: any }) => ({ type: FN, name: f.name, invoke: f.run });',
        ],
        'flows.map(toTool)',
        'flows.flatMap(toMany)',
        'Array.from(flows, (f) => ({ type: FN, name: f.name, invoke: f.run }))',
        '[...Array.from(flows, named)]',
        'flows.map(toShell)',
        'viaFrom()',
      ),
      'src/tools/shell.ts': module(
        'export function toShell(f: { run: any }) { return { type: SHELL, shell: f.run }; }',
        'export const viaFrom = () => Array.from(flows, (f) => ({ type: SHELL, computer: f.run }));',
      ),
    };
    expect.soft(at(files, 'src/local.ts', 'object-literal-tool')).toEqual([5, 6, 7, 10]);
    expect.soft(at(files, 'src/tools/shell.ts', 'unprotected-door')).toEqual([3, 4]);
  });

  it('silent: a result no agent is given, `.filter`/`.forEach`, `Array.from` with no callback, a callback returning no door', () => {
    const files = {
      'src/local.ts': agents(
        [
          "import { toShell } from './tools/shell.js';",
          'function toTool(f: { name: string; run: any }) { return { type: FN, name: f.name, invoke: f.run }; }',
          'const label = (f: { name: string }) => f.name;',
          'console.log(flows.map(toTool), flows.map(toShell));',
        ],
        '[...flows.filter(toTool), ...Array.from(flows), ...flows.map(label)] as any[]',
      ),
      'src/tools/shell.ts': module('export function toShell(f: { run: any }) { return { type: SHELL, shell: f.run }; }'),
    };
    expect.soft(at(files, 'src/local.ts', 'object-literal-tool')).toEqual([]);
    expect.soft(at(files, 'src/tools/shell.ts', 'unprotected-door')).toEqual([]);
  });
});
