import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Red team, session 24 (issue 40 item 4, silent break): the object an app answers through is
 * bound by the language from a written type, not declared with one: a destructured parameter
 * (`function ok({ state, item }: Pending)`), a `for … of` over a typed list (`for (const p of
 * pending)`), a local written as a cast (`const p = x as Pending`). These are the commonest ways
 * an approval handler walks its pending answers, and TypeScript types each receiver as the SDK's
 * `RunState` (checked with tsc against the SDK this repo installs). `sdk-approval` finds nothing,
 * so the codemod rewrites the tool with "0 conflicts" and the app's approve/reject is refused at
 * run time. Each is one finding; the shape reader already finds the same member read as `p.state`.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const PENDING = 'interface Pending { state: RunState<any, any>; id: string }';
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, PENDING, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

const cases: Record<string, string> = {
  'a destructured parameter (`({ state }: Pending)`)': 'export function ok({ state }: Pending, i: Row) { state.approve(i); }',
  'a destructured parameter of an arrow (`({ state }: Pending) => …`)': 'export const ok = ({ state }: Pending, i: Row) => state.reject(i);',
  'a `for … of` element of a typed list': 'export function ok(pending: Pending[], i: Row) { for (const p of pending) p.state.approve(i); }',
  'a destructured `for … of` element (`for (const { state } of pending)`)':
    'export function ok(pending: Pending[], i: Row) { for (const { state } of pending) state.approve(i); }',
  'a local written as a cast (`const p = x as Pending`)': 'export function ok(x: unknown, i: Row) { const p = x as Pending; p.state.approve(i); }',
};

describe('a receiver the language binds from a written type (red team, session 24)', () => {
  for (const [name, server] of Object.entries(cases)) it(`one sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(1));
});
