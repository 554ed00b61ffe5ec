import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Red team, session 25 (issue 40 item 4, silent break): JavaScript files whose JSDoc types the
 * receiver as the SDK's `RunState` for TypeScript (checked with tsc, `checkJs`, against the SDK this
 * repo installs), which jsdoc-types.ts does not read: a nested `@param {S} p.state` under
 * `@param {Object} p`, an inline `/** @type {Pending} *\/ p` on a parameter (alone, or a list iterated
 * with `for … of`), an `@type` of a function on the `const` holding the arrow (its parameters typed
 * by context), a local holding a call of a function whose `@returns` is written, and a `@typedef` that
 * is an import type of another JavaScript file's `@typedef`. `sdk-approval` finds nothing, so the
 * codemod rewrites the tool with no conflict. Those six are not read yet (docs/DECISIONS.md, "Session
 * 26"); this file keeps the JSDoc forms around them that are read.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const PENDING = "/** @typedef {{ state: import('@openai/agents').RunState<any, any> }} Pending */";
const lint = (server: string) =>
  lintRepo({ 'src/server.js': lines(GEN, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.js' }).length;

describe('JSDoc the JSDoc reader does not read (red team, session 25)', () => {
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
