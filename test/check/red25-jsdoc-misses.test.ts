import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Red team, session 25 (issue 40 item 4, silent break): JavaScript files whose JSDoc types the
 * receiver as the SDK's `RunState` for TypeScript (checked with tsc, `checkJs`, against the SDK this
 * repo installs), which jsdoc-types.ts does not read: a nested `@param {S} p.state` under
 * `@param {Object} p`, an inline `/** @type {Pending} *\/ p` on a parameter (alone, or a list iterated
 * with `for … of`), an `@type` of a function on the `const` holding the arrow (its parameters typed
 * by context), a local holding a call of a function whose `@returns` is written, and a `@typedef` that
 * is an import type of another JavaScript file's `@typedef`. `sdk-approval` found nothing, so the
 * codemod rewrote the tool with no conflict. Each is one finding since session 26 (its controls, the
 * same layouts holding the app's own state: jsdoc-forms-answers.test.ts).
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const PENDING = "/** @typedef {{ state: import('@openai/agents').RunState<any, any> }} Pending */";
const lint = (server: string, more: Record<string, string> = {}) =>
  lintRepo({ 'src/server.js': lines(GEN, server), ...more }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.js' }).length;

const cases: Record<string, [string, Record<string, string>?]> = {
  'a nested `@param {S} p.state`': [
    lines(
      "/** @typedef {import('@openai/agents').RunState<any, any>} S */",
      '/**',
      ' * @param {Object} p',
      ' * @param {S} p.state',
      ' */',
      'export function ok(p, i) { p.state.approve(i); }',
    ),
  ],
  'an inline `@type` on a parameter': [lines(PENDING, 'export function ok(/** @type {Pending} */ p, i) { p.state.approve(i); }')],
  'an inline `@type` list iterated with `for … of`': [
    lines(PENDING, 'export function ok(/** @type {Pending[]} */ ps, i) { for (const p of ps) p.state.approve(i); }'),
  ],
  'an `@type` function type on the `const` holding the arrow': [
    lines(PENDING, '/** @type {(p: Pending, i: any) => void} */', 'export const ok = (p, i) => { p.state.approve(i); };'),
  ],
  'a local holding a call of a function with `@returns {Pending}`': [
    lines(
      PENDING,
      '/** @returns {Pending} */',
      'function load() { return /** @type {any} */ (null); }',
      'export function ok(i) { const p = load(); p.state.approve(i); }',
    ),
  ],
  'a `@typedef` importing another JavaScript file’s `@typedef`': [
    lines("/** @typedef {import('./types.js').Pending} Pending */", '/** @param {Pending} p */', 'export function ok(p, i) { p.state.approve(i); }'),
    { 'src/types.js': lines(PENDING, 'export {};') },
  ],
};

describe('JSDoc the JSDoc reader did not read (red team, session 25)', () => {
  for (const [name, [server, more]] of Object.entries(cases)) it(`one sdk-approval finding: ${name}`, () => expect(lint(server, more)).toBe(1));
  it('control: one sdk-approval finding through `@prop`, an `@param` list, a method’s `@param`, a bracketed `[p]`', () => {
    expect(
      lint(
        lines(
          '/**',
          ' * @typedef {Object} Pending',
          " * @prop {import('@openai/agents').RunState<any, any>} state",
          ' */',
          '/** @param {Pending} p */',
          'export function ok(p, i) { p.state.approve(i); }',
        ),
      ),
    ).toBe(1);
    expect(lint(lines(PENDING, '/** @param {Pending[]} ps */', 'export function ok(ps, i) { for (const p of ps) p.state.approve(i); }'))).toBe(1);
    expect(lint(lines(PENDING, 'export const h = {', '  /** @param {Pending} p */', '  ok(p, i) { p.state.approve(i); },', '};'))).toBe(1);
    expect(lint(lines(PENDING, '/** @param {Pending} [p] */', 'export function ok(p, i) { p.state.approve(i); }'))).toBe(1);
  });
});
