import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Red team, session 24 (issue 40 item 4): narrowings of a tagged union TypeScript makes and
 * tag-narrowing.ts does not read. Each use below is typed by tsc (the SDK this repo installs) as
 * the kind the narrowing leaves.
 *
 * Silent break: an aliased condition (`const isAgent = t.kind === 'agent'; if (isAgent) …`, TS 4.4),
 * a destructured tag (`const { kind } = t; if (kind === 'agent') …`, TS 4.6), `switch (true)` over
 * tag tests (TS 5.3), an early return (`if (t.kind === 'review') return;`, listed as left in
 * DECISIONS). The reader sees no test of `t` (or none it reads), so the mixed union is taken for
 * the app's and the SDK's answer goes unreported: the codemod rewrites the tool with "0 conflicts".
 *
 * False alarm: a tag written as an enum member (`t.kind === Kind.Review`), the usual TypeScript
 * way to name a union's kinds, or a number or boolean literal (`t.v === 2`, `!t.sdk`). The test is
 * read as unsure, so any alternative being the SDK's makes the answer the SDK's, though TypeScript
 * narrowed `t` to the app's own kind. Also a queue drained through a `let` reassigned in the loop
 * (`t = q.shift()`, listed as left in DECISIONS): every test of it is unsure.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const S = 'RunState<any, any>';
const TASK = lines('interface Review { approve(i: Row): void }', `type Task = { kind: 'agent'; state: ${S} } | { kind: 'review'; state: Review };`);
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

const misses: Record<string, string> = {
  "an aliased condition (`const isAgent = t.kind === 'agent'`)":
    "export function ok(t: Task, i: Row) { const isAgent = t.kind === 'agent'; if (isAgent) t.state.approve(i); }",
  'a destructured tag (`const { kind } = t`)': "export function ok(t: Task, i: Row) { const { kind } = t; if (kind === 'agent') t.state.approve(i); }",
  '`switch (true)` over tag tests': "export function ok(t: Task, i: Row) { switch (true) { case t.kind === 'agent': t.state.approve(i); break; } }",
  "an early return (`if (t.kind === 'review') return;`)": "export function ok(t: Task, i: Row) { if (t.kind === 'review') return; t.state.approve(i); }",
};

describe('narrowings TypeScript makes that the reader misses (red team, session 24)', () => {
  for (const [name, server] of Object.entries(misses)) it(`one sdk-approval finding: ${name}`, () => expect(lint(lines(TASK, server))).toBe(1));
});

const ENUM_TASK = lines(
  'interface Review { approve(i: Row): void }',
  "enum Kind { Agent = 'agent', Review = 'review' }",
  `type Task = { kind: Kind.Agent; state: ${S} } | { kind: Kind.Review; state: Review };`,
);

describe('an enum tag narrowed to the app kind (red team, session 24)', () => {
  it('no sdk-approval finding: `if (t.kind === Kind.Review) t.state.approve(i)`', () =>
    expect(lint(lines(ENUM_TASK, 'export function ok(t: Task, i: Row) { if (t.kind === Kind.Review) t.state.approve(i); }'))).toBe(0));
  it('no sdk-approval finding: `case Kind.Review:` of `switch (t.kind)`', () =>
    expect(lint(lines(ENUM_TASK, 'export function ok(t: Task, i: Row) { switch (t.kind) { case Kind.Review: t.state.approve(i); break; } }'))).toBe(0));
  it('control: the agent kind is one sdk-approval finding', () =>
    expect(lint(lines(ENUM_TASK, 'export function ok(t: Task, i: Row) { if (t.kind === Kind.Agent) t.state.approve(i); }'))).toBe(1));
});

describe('other tags narrowed to the app kind (red team, session 24)', () => {
  const alarms: Record<string, string> = {
    'a number tag (`t.v === 2`)': lines(
      'interface Review { approve(i: Row): void }',
      `type T = { v: 1; state: ${S} } | { v: 2; state: Review };`,
      'export function ok(t: T, i: Row) { if (t.v === 2) t.state.approve(i); }',
    ),
    'a boolean tag (`!t.sdk`)': lines(
      'interface Review { approve(i: Row): void }',
      `type T = { sdk: true; state: ${S} } | { sdk: false; state: Review };`,
      'export function ok(t: T, i: Row) { if (!t.sdk) t.state.approve(i); }',
    ),
    'a drained queue (`let t = q.shift(); while (t) { …; t = q.shift(); }`)': lines(
      TASK,
      "export function ok(q: Task[], i: Row) { let t: Task | undefined = q.shift(); while (t) { if (t.kind === 'review') t.state.approve(i); t = q.shift(); } }",
    ),
  };
  for (const [name, server] of Object.entries(alarms)) it(`no sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(0));
});
