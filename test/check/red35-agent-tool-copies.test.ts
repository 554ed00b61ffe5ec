import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/*
 * Issue 40 item 4 ("no false green"), left by session 34 ("doors inside values", What is left): an
 * agent's `tools` given a copy of a list (`Array.from(xs)` with no callback, `xs.slice()`,
 * `xs.filter(p)`, `xs.concat(ys)`) or an object's values (`Object.values(kit)`) was silent: the call
 * was read as a function of no known module, so neither the file's objects nor the imports were followed.
 */

const KINDS = lines("export const SHELL = ['sh', 'ell'].join('');", 'export const FN = process.env.FN_TYPE!;');

/** An agent's file using the SDK: one agent per `tools` value, the imports and locals in `head`. */
const agents = (head: string[], ...tools: string[]): string =>
  lines(
    "import { Agent } from '@openai/agents';",
    "import { FN } from './kinds.js';",
    'declare const run: any;',
    ...head,
    ...tools.map((t, i) => `export const a${i} = new Agent({ name: 'a${i}', instructions: 'Help.', tools: ${t} });`),
  );

/** A module naming no SDK (line 1 imports the kinds, line 2 declares `run`). */
const module = (...body: string[]): string => lines("import { SHELL } from '../kinds.js';", 'declare const run: any;', ...body);

/** The lines of `ruleId`'s findings in `file`. */
const at = (files: Record<string, string>, file: string, ruleId: string): number[] =>
  lintRepo({ 'src/kinds.ts': KINDS, ...files }, { project: testProject(), ruleId, file }).map((f) => f.line);

describe('a copy of a list, or an object`s values, given to an agent`s `tools`', () => {
  it('reported: `Array.from(xs)`, `slice`, `filter`, `concat` (the list and its arguments), `Object.values` of a local and of an import', () => {
    const files = {
      'src/agent.ts': agents(
        [
          "import { listed, more, kit } from './tools/shell.js';",
          "const a = [{ type: FN, name: 'a', invoke: run }];",
          "const b = [{ type: FN, name: 'b', invoke: run }];",
          "const c = [{ type: FN, name: 'c', invoke: run }];",
          "const d = [{ type: FN, name: 'd', invoke: run }];",
          "const e = { one: { type: FN, name: 'e', invoke: run } };",
          "const f = { type: FN, name: 'f', invoke: run };",
        ],
        'Array.from(a)',
        'b.slice(1)',
        'c.filter(Boolean)',
        'd.concat(f)',
        'Object.values(e)',
        '[...Array.from(listed), ...[].concat(more), ...Object.values(kit)]',
      ),
      'src/tools/shell.ts': module(
        'export const listed = [{ type: SHELL, shell: run }];',
        'export const more = [{ type: SHELL, editor: run }];',
        'export const kit = { one: { type: SHELL, computer: run } };',
      ),
    };
    expect.soft(at(files, 'src/agent.ts', 'object-literal-tool')).toEqual([5, 6, 7, 8, 9, 10]);
    expect.soft(at(files, 'src/tools/shell.ts', 'unprotected-door')).toEqual([3, 4, 5]);
  });

  it('silent: copies of lists holding no tool, `Object.keys`, another export`s values', () => {
    const files = {
      'src/agent.ts': agents(
        ["import { labels, kit } from './tools/shell.js';", "const a = [{ label: 'a' }];", "const e = { one: { type: FN, name: 'e', invoke: run } };"],
        '[...Array.from(a), ...a.slice(), ...Object.keys(e), ...Object.values(labels)] as any[]',
        'Object.entries(kit) as any[]',
      ),
      'src/tools/shell.ts': module("export const labels = { one: { label: 'x' } };", 'export const kit = { one: { type: SHELL, computer: run } };'),
    };
    expect.soft(at(files, 'src/agent.ts', 'object-literal-tool')).toEqual([]);
    expect.soft(at(files, 'src/tools/shell.ts', 'unprotected-door')).toEqual([]);
  });
});
