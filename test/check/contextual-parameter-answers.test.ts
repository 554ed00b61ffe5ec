import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * A parameter typed by its context (src/scan/contextual-params.ts): a typed list's element method's
 * callback, an arrow held by a `const` written with a function type. The SDK's state through either
 * is one finding; the app's own list or function type is none.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const TYPES = lines('interface Review { approve(i: Row): void }', 'interface Pending { state: RunState<any, any> }', 'interface Mine { state: Review }');
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, TYPES, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

describe('a parameter typed by its context', () => {
  it.each([
    ['a list of the state itself', 'export function ok(ss: RunState<any, any>[], i: Row) { ss.forEach((s) => s.approve(i)); }'],
    ['`map` with a function expression', 'export function ok(ps: Pending[], i: Row) { ps.map(function (p) { p.state.approve(i); }); }'],
    ['a parenthesized callback of `filter`', 'export function ok(ps: readonly Pending[], i: Row) { ps.filter(((p) => p.state.approve(i))); }'],
    ['a list held by a member (`box.ps.some(…)`)', 'export function ok(box: { ps: Pending[] }, i: Row) { box.ps.some((p) => p.state.approve(i)); }'],
    ['a function type alias', lines('type Handler = (p: Pending, i: Row) => void;', 'export const ok: Handler = (p, i) => p.state.approve(i);')],
    ['the second parameter of a function type', 'export const ok: (i: Row, s: RunState<any, any>) => void = (i, s) => s.approve(i);'],
  ])('one sdk-approval finding: %s', (_, server) => expect(lint(server)).toBe(1));

  it.each([
    ["the app's own list", 'export function ok(ms: Mine[], i: Row) { ms.forEach((m) => m.state.approve(i)); }'],
    ["the app's own function type", 'export const ok: (m: Mine, i: Row) => void = (m, i) => m.state.approve(i);'],
    [
      'a method whose callback is not handed an element (`reduce`)',
      'export function ok(ss: RunState<any, any>[], r: Review, i: Row) { ss.reduce((acc) => { acc.approve(i); return acc; }, r); }',
    ],
    [
      'a function in the `thisArg` place of `forEach`',
      'export function ok(ss: RunState<any, any>[], i: Row, f: () => void) { ss.forEach(f, (s) => s.approve(i)); }',
    ],
    ['the index of `forEach`', 'export function ok(ss: RunState<any, any>[], i: Row) { ss.forEach((_, k) => k.approve(i)); }'],
  ])('no sdk-approval finding: %s', (_, server) => expect(lint(server)).toBe(0));
});
