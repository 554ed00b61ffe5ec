import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Red team, session 24 (issue 40 item 4): a tagged union held inside another union, the way an
 * app writes a lookup that may find nothing (`t: Task | undefined`) or a wider union of work
 * (`type Work = Task | Note`). TypeScript narrows the inner union by the tag (checked with tsc
 * against the SDK this repo installs).
 *
 * Silent break: tag-narrowing.ts reads the test as certain, but written-members.ts's `memberIn`
 * applies it to the outer union's alternatives only (`keeps`), then reads the inner `Task` without
 * the narrowing: both of its kinds come back, the mix is taken for the app's, and the SDK's answer
 * goes unreported (`t?.kind === 'agent'`, `switch (t?.kind)`, `Work`'s agent kind).
 *
 * False alarm: a null guard beside the tag test (`t && t.kind === 'review'`, `t !== null && …`)
 * is a test of `t` the reader does not read, so the whole reading is unsure and any alternative
 * being the SDK's makes the answer the SDK's, though TypeScript left only the app's review kind.
 * A null guard before a tag test is the usual form for a `Task | undefined`.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const TASK = lines(
  'interface Review { approve(i: Row): void }',
  "type Task = { kind: 'agent'; state: RunState<any, any> } | { kind: 'review'; state: Review };",
  "type Work = Task | { kind: 'note'; state: Review };",
);
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, TASK, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

const misses: Record<string, string> = {
  "`t?.kind === 'agent'` of a `Task | undefined`": "export function ok(t: Task | undefined, i: Row) { if (t?.kind === 'agent') t.state.approve(i); }",
  "`switch (t?.kind)`'s agent case of a `Task | undefined`":
    "export function ok(t: Task | undefined, i: Row) { switch (t?.kind) { case 'agent': t.state.approve(i); } }",
  'the agent kind of `type Work = Task | Note`': "export function ok(t: Work, i: Row) { if (t.kind === 'agent') t.state.approve(i); }",
};

describe('a tagged union inside another union, narrowed to the SDK kind (red team, session 24)', () => {
  for (const [name, server] of Object.entries(misses)) it(`one sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(1));
});

const alarms: Record<string, string> = {
  "`t && t.kind === 'review'` of a `Task | undefined`": "export function ok(t: Task | undefined, i: Row) { if (t && t.kind === 'review') t.state.approve(i); }",
  "`t !== null && t.kind === 'review'` of a `Task | null`":
    "export function ok(t: Task | null, i: Row) { if (t !== null && t.kind === 'review') t.state.approve(i); }",
};

describe('a null guard beside a tag test narrowed to the app kind (red team, session 24)', () => {
  for (const [name, server] of Object.entries(alarms)) it(`no sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(0));
  it("control: `t?.kind === 'review'` of a `Task | undefined` is no finding", () =>
    expect(lint("export function ok(t: Task | undefined, i: Row) { if (t?.kind === 'review') t.state.approve(i); }")).toBe(0));
});
