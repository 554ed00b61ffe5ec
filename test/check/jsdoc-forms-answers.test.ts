import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Session 26, the JSDoc forms the red team of session 25 found unread (issue 40 item 4, silent
 * break; red25-jsdoc-misses.test.ts), each given the module its `RunState` comes from: the SDK's
 * is one finding, the app's own (`src/engine.ts`) none, so each reader reads the type it is given
 * rather than the layout. Around them, forms next to the six: a nested `@param` of a list
 * (`ps[].state`), a nested tag of another member, a function type whose parameter in that place is
 * not the state, and a TypeScript file importing a JavaScript `@typedef`.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "'@openai/agents'";
const OWN = "'./engine.js'";
const ENGINE = 'export interface RunState { approve(x: unknown): void }\n';
const pending = (from: string) => `/** @typedef {{ state: import(${from}).RunState<any, any> }} Pending */`;

const lint = (file: string, server: string, more: Record<string, string> = {}) =>
  lintRepo({ 'src/engine.ts': ENGINE, ...more, [file]: lines(GEN, server) }, { project: testProject(), ruleId: 'sdk-approval', file }).length;

/** Each layout, given the module its `RunState` comes from: the answering file, its text, and other files. */
const layouts: Record<string, (from: string) => [string, string, Record<string, string>?]> = {
  'a nested `@param {S} p.state`': (from) => [
    'src/server.js',
    lines(
      `/** @typedef {import(${from}).RunState<any, any>} S */`,
      '/**',
      ' * @param {Object} p',
      ' * @param {S} p.state',
      ' */',
      'export function ok(p, i) { p.state.approve(i); }',
    ),
  ],
  'a nested `@param {S} ps[].state` of a list iterated with `for … of`': (from) => [
    'src/server.js',
    lines(
      `/** @typedef {import(${from}).RunState<any, any>} S */`,
      '/**',
      ' * @param {Object[]} ps',
      ' * @param {S} ps[].state',
      ' */',
      'export function ok(ps, i) { for (const p of ps) p.state.approve(i); }',
    ),
  ],
  'an `@param {ReturnType<typeof load>}` of a function whose `@returns` is written': (from) => [
    'src/server.js',
    lines(
      pending(from),
      '/** @returns {Pending} */',
      'function load() { return null; }',
      '/** @param {ReturnType<typeof load>} p */',
      'export function ok(p, i) { p.state.approve(i); }',
    ),
  ],
  'an inline `@type` on a parameter': (from) => [
    'src/server.js',
    lines(pending(from), 'export function ok(/** @type {Pending} */ p, i) { p.state.approve(i); }'),
  ],
  'an inline `@type` list iterated with `for … of`': (from) => [
    'src/server.js',
    lines(pending(from), 'export function ok(/** @type {Pending[]} */ ps, i) { for (const p of ps) p.state.approve(i); }'),
  ],
  'an `@type` function type on the `const` holding the arrow': (from) => [
    'src/server.js',
    lines(pending(from), '/** @type {(p: Pending, i: any) => void} */', 'export const ok = (p, i) => { p.state.approve(i); };'),
  ],
  'an `@type` of a `@typedef` of a function type on the `const` holding the arrow': (from) => [
    'src/server.js',
    lines(
      pending(from),
      '/** @typedef {(p: Pending, i: any) => void} Handler */',
      '/** @type {Handler} */',
      'export const ok = (p, i) => { p.state.approve(i); };',
    ),
  ],
  'an `@type` of a `@callback` on the `const` holding the arrow': (from) => [
    'src/server.js',
    lines(
      pending(from),
      '/**',
      ' * @callback Handler',
      ' * @param {Pending} p',
      ' * @param {any} i',
      ' * @returns {void}',
      ' */',
      '/** @type {Handler} */',
      'export const ok = (p, i) => { p.state.approve(i); };',
    ),
  ],
  'an `@type` of a Closure `function(…)` type on the `const` holding the arrow': (from) => [
    'src/server.js',
    lines(pending(from), '/** @type {function(Pending, *): void} */', 'export const ok = (p, i) => { p.state.approve(i); };'),
  ],
  'a local holding a call of a function with `@returns {Pending}`': (from) => [
    'src/server.js',
    lines(
      pending(from),
      '/** @returns {Pending} */',
      'function load() { return /** @type {any} */ (null); }',
      'export function ok(i) { const p = load(); p.state.approve(i); }',
    ),
  ],
  'a local awaiting a function with `@returns {Promise<Pending>}`': (from) => [
    'src/server.js',
    lines(
      pending(from),
      '/** @returns {Promise<Pending>} */',
      'async function load() { return /** @type {any} */ (null); }',
      'export async function ok(i) { const p = await load(); p.state.approve(i); }',
    ),
  ],
  "a `@typedef` importing another JavaScript file's `@typedef`": (from) => [
    'src/server.js',
    lines("/** @typedef {import('./types.js').Pending} Pending */", '/** @param {Pending} p */', 'export function ok(p, i) { p.state.approve(i); }'),
    { 'src/types.js': lines(pending(from), 'export {};') },
  ],
  "a TypeScript file importing a JavaScript file's `@typedef`": (from) => [
    'src/server.ts',
    lines("import type { Pending } from './types.js';", 'export function ok(p: Pending, i: Row) { p.state.approve(i); }'),
    { 'src/types.js': lines(pending(from), 'export {};') },
  ],
};

describe('JSDoc forms of a JavaScript app (session 26)', () => {
  for (const [name, layout] of Object.entries(layouts)) {
    it(`one sdk-approval finding: ${name}`, () => expect(lint(...layout(SDK))).toBe(1));
    it(`no sdk-approval finding: ${name}, holding the app's own RunState`, () => expect(lint(...layout(OWN))).toBe(0));
  }
  it('no sdk-approval finding: a nested `@param` of another member', () =>
    expect(
      lint(
        'src/server.js',
        lines(
          `/** @typedef {import(${SDK}).RunState<any, any>} S */`,
          '/**',
          ' * @param {Object} p',
          ' * @param {S} p.other',
          ' */',
          'export function ok(p, i) { p.state.approve(i); }',
        ),
      ),
    ).toBe(0));
  it('no sdk-approval finding: a function type whose parameter in that place is not the state', () =>
    expect(
      lint('src/server.js', lines(pending(SDK), '/** @type {(i: any, p: Pending) => void} */', 'export const ok = (p, i) => { p.state.approve(i); };')),
    ).toBe(0));
  it("no sdk-approval finding: an inline `@type` of the app's own over a function's `@param` of the SDK's (the inline one types it)", () =>
    expect(
      lint(
        'src/server.js',
        lines(
          pending(SDK),
          '/** @typedef {{ state: { approve(x: any): void } }} Mine */',
          '/** @param {Pending} p */',
          'export function ok(/** @type {Mine} */ p, i) { p.state.approve(i); }',
        ),
      ),
    ).toBe(0));
  it("no sdk-approval finding: a TypeScript file's `@returns` (tsc reads no type there)", () =>
    expect(
      lint(
        'src/server.ts',
        lines(
          `/** @returns {{ state: import(${SDK}).RunState<any, any> }} */`,
          'function load() { return null as any; }',
          'export function ok(i: Row) { const p = load(); p.state.approve(i); }',
        ),
      ),
    ).toBe(0));
  it("no sdk-approval finding: a TypeScript file's `@callback` (tsc reads no type there)", () =>
    expect(
      lint(
        'src/server.ts',
        lines(
          '/**',
          ' * @callback Handler',
          ` * @param {{ state: import(${SDK}).RunState<any, any> }} p`,
          ' */',
          'export const ok: Handler = (p, i: Row) => { p.state.approve(i); };',
        ),
      ),
    ).toBe(0));
  it('no sdk-approval finding, and an end: `@typedef`s that name each other', () =>
    expect(
      lint(
        'src/server.js',
        lines('/** @typedef {B} A */', '/** @typedef {A} B */', '/** @param {{ state: A }} p */', 'export function ok(p, i) { p.state.approve(i); }'),
      ),
    ).toBe(0));
});
