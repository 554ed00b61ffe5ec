import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Session 25, a receiver's type named through an import type (`import('./types.js').Pending`) or
 * written in a JavaScript file's JSDoc (`@param`, `@type`, a `@typedef` of an object type or of
 * `@property` tags), the forms a JavaScript app and a module kept free of import cycles use (issue
 * 40 item 4, silent break). Control (no false alarm): the same layouts holding the app's own
 * `RunState` give no finding, and a TypeScript file's JSDoc types nothing (tsc ignores it there).
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "'@openai/agents'";
const OWN = "'./engine.js'";
const ENGINE = 'export interface RunState { approve(x: unknown): void }\n';

const lint = (file: string, server: string, types = '') =>
  lintRepo({ 'src/engine.ts': ENGINE, 'src/types.ts': types, [file]: lines(GEN, server) }, { project: testProject(), ruleId: 'sdk-approval', file }).length;

/** Each layout, given the module its `RunState` comes from: the answering file, its text, and `src/types.ts`. */
const layouts: Record<string, (from: string) => [string, string, string?]> = {
  'a generic import type (`import(…).Box<RunState>`)': (from) => [
    'src/server.ts',
    lines(`import type { RunState } from ${from};`, "export function ok(p: import('./types.js').Box<RunState<any, any>>, i: Row) { p.state.approve(i); }"),
    'export interface Box<T> { state: T }',
  ],
  "an import type of another file's alias": (from) => [
    'src/server.ts',
    "export function ok(p: import('./types.js').Pending, i: Row) { p.state.approve(i); }",
    lines(`import type { RunState } from ${from};`, 'export type Pending = { state: RunState<any, any> };'),
  ],
  'an object type member typed by an import type': (from) => [
    'src/server.ts',
    `export function ok(p: { state: import(${from}).RunState<any, any> }, i: Row) { p.state.approve(i); }`,
  ],
  'a JavaScript `@typedef` of `@property` tags': (from) => [
    'src/server.js',
    lines(
      '/**',
      ' * @typedef {object} Pending',
      ` * @property {import(${from}).RunState<any, any>} state`,
      ' */',
      '/** @param {Pending} p */',
      'export function ok(p, i) { p.state.approve(i); }',
    ),
  ],
  'a JavaScript `@typedef` after the function (the file end holds it)': (from) => [
    'src/server.js',
    lines(
      '/** @param {Pending=} p */',
      'export function ok(p, i) { p.state.approve(i); }',
      `/** @typedef {{ state: import(${from}).RunState<any, any> }} Pending */`,
    ),
  ],
  "a JavaScript `@param` on an arrow's statement": (from) => [
    'src/server.js',
    lines(`/** @param {{ state: import(${from}).RunState<any, any> }} p */`, 'export const ok = (p, i) => { p.state.approve(i); };'),
  ],
  'a JavaScript `@type` of a local': (from) => [
    'src/server.js',
    lines(
      `/** @typedef {{ state: import(${from}).RunState<any, any> }} Pending */`,
      'export function ok(x, i) {',
      '  /** @type {Pending} */',
      '  const p = x;',
      '  p.state.approve(i);',
      '}',
    ),
  ],
};

describe('a type named through an import type or a JavaScript JSDoc (session 25)', () => {
  for (const [name, layout] of Object.entries(layouts)) {
    it(`one sdk-approval finding: ${name}`, () => expect(lint(...layout(SDK))).toBe(1));
    it(`no sdk-approval finding: ${name}, holding the app's own RunState`, () => expect(lint(...layout(OWN))).toBe(0));
  }
  it("no sdk-approval finding: a TypeScript file's JSDoc `@param` (tsc reads no type there)", () =>
    expect(
      lint('src/server.ts', lines(`/** @param {{ state: import(${SDK}).RunState<any, any> }} p */`, 'export function ok(p, i: Row) { p.state.approve(i); }')),
    ).toBe(0));
});
