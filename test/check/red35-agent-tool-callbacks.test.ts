import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/*
 * Issue 40 item 4 ("no false green"), left by session 34 ("doors inside values", What is left): in a
 * module naming no SDK whose export an agent's `tools` holds, a door returned by a callback the
 * module declares (`export const tools = () => flows.map(toShell)`, `toShell` not exported), or by a
 * member of an object of the module (`flows.map(helpers.toShell)`), or by a function of the module
 * called in the export (`[toShell(f)]`), was silent: only a callback written in place was followed.
 */

const KINDS = lines("export const SHELL = ['sh', 'ell'].join('');", 'export const FN = process.env.FN_TYPE!;');

/** An agent's file using the SDK: one agent per `tools` value, the imports in `head`. */
const agents = (head: string[], ...tools: string[]): string =>
  lines(
    "import { Agent } from '@openai/agents';",
    ...head,
    ...tools.map((t, i) => `export const a${i} = new Agent({ name: 'a${i}', instructions: 'Help.', tools: ${t} });`),
  );

/** A module naming no SDK (line 1 imports the kinds, line 2 declares the flows). */
const module = (...body: string[]): string => lines("import { SHELL, FN } from '../kinds.js';", 'declare const flows: { name: string; run: any }[];', ...body);

/** The lines of `ruleId`'s findings in `file`. */
const at = (files: Record<string, string>, file: string, ruleId: string): number[] =>
  lintRepo({ 'src/kinds.ts': KINDS, ...files }, { project: testProject(), ruleId, file }).map((f) => f.line);

describe('a door returned by a function the exporting module declares', () => {
  it('reported: a named callback (a declaration, an arrow), a member callback, `Array.from`, a direct call, two hops, a recursion, a spread, a conditional', () => {
    const files = {
      'src/agent.ts': agents(
        ["import { viaDecl, viaArrow, viaMember, viaMethod, viaFrom, viaCall, viaHops, viaSpread, viaRec, viaCond } from './tools/shell.js';"],
        'viaDecl()',
        'viaArrow',
        'viaMember()',
        'viaMethod()',
        'viaFrom()',
        'viaCall()',
        'viaHops()',
        'viaSpread()',
        'viaRec()',
        'viaCond()',
      ),
      'src/tools/shell.ts': module(
        'function toShell(f: { run: any }) { return { type: SHELL, shell: f.run }; }',
        'const toEditor = (f: { run: any }) => ({ type: SHELL, editor: f.run });',
        'const helpers = { toComputer: (f: { run: any }) => ({ type: SHELL, computer: f.run }), toPatch(f: { run: any }) { return { type: SHELL, editor: f.run }; } };',
        'function toLast(f: { run: any }) { return { type: SHELL, shell: f.run }; }',
        'function direct(f: { run: any }) { return { type: SHELL, computer: f.run }; }',
        'function inner(f: { run: any }) { return { type: SHELL, shell: f.run }; }',
        'const outer = (xs: { run: any }[]) => xs.map(inner);',
        'export const viaDecl = () => flows.map(toShell);',
        'export const viaArrow = flows.flatMap((f) => [toEditor(f)]);',
        'export function viaMember() { return flows.map(helpers.toComputer); }',
        'export const viaMethod = () => flows.map(helpers.toPatch);',
        'export const viaFrom = () => Array.from(flows, toLast);',
        'export const viaCall = () => [direct(flows[0]!)];',
        'export const viaHops = () => outer(flows);',
        'function rec(f: { run: any }, n: number): object { if (n > 0) return rec(f, n - 1); return { type: SHELL, editor: f.run }; }',
        'export const viaRec = () => flows.map((f) => rec(f, 2));',
        'export const viaSpread = () => [...flows.map((f) => ({ type: SHELL, shell: f.run })), ...flows.map(toShell)];',
        'function pick(f: { run: any }, n: number) { return n > 0 ? { type: SHELL, shell: f.run } : null; }',
        'export const viaCond = () => flows.map((f) => pick(f, 1) ?? { type: SHELL, editor: f.run });',
      ),
    };
    expect.soft(at(files, 'src/tools/shell.ts', 'unprotected-door')).toEqual([3, 4, 5, 5, 6, 7, 8, 17, 19, 20, 21]);
  });

  it('silent: a callback whose result no agent is given, a callback returning no door, a door never returned, the left of `&&`', () => {
    const files = {
      'src/agent.ts': agents(["import { viaLabel, viaNone } from './tools/shell.js';"], 'viaLabel()', 'viaNone()'),
      'src/tools/shell.ts': module(
        'function toShell(f: { run: any }) { return { type: SHELL, shell: f.run }; }',
        'const label = (f: { name: string }) => ({ label: f.name });',
        'const helpers = { toShell: (f: { run: any }) => ({ type: SHELL, shell: f.run }), label };',
        'function unused(f: { run: any }) { const d = { type: SHELL, editor: f.run }; console.log(d); return f.run; }',
        'export const notHanded = () => flows.map(toShell);',
        'export const alsoNot = () => flows.map(helpers.toShell);',
        'export const viaLabel = () => flows.map(label);',
        'export const viaNone = () => [...flows.map(helpers.label), unused(flows[0]!), ...flows.map((f) => ({ type: SHELL, shell: f.run }) && f.run)];',
      ),
    };
    expect.soft(at(files, 'src/tools/shell.ts', 'unprotected-door')).toEqual([]);
  });

  it('reported: a callback the agent file passes to a function of another module (a parameter there), in place or by name', () => {
    const files = {
      'src/agent.ts': agents(
        [
          "import { FN } from './kinds.js';",
          "import { viaParam } from './tools/map.js';",
          'function toTool(f: { name: string; run: any }) { return { type: FN, name: f.name, invoke: f.run }; }',
          'const label = (f: { name: string }) => ({ label: f.name });',
        ],
        'viaParam(toTool)',
        'viaParam((f) => ({ type: FN, name: f.name, invoke: f.run }))',
        'viaParam(label)',
      ),
      'src/tools/map.ts': module('export const viaParam = <T>(cb: (f: { name: string; run: any }) => T) => flows.map(cb);'),
    };
    expect.soft(at(files, 'src/agent.ts', 'object-literal-tool')).toEqual([4, 7]);
  });
});
