import { describe, expect, it } from 'vitest';
import { lines, lintSource } from './rule-tester.js';

/**
 * Red team 21b, "no false alarm" (issue 40 item 3). Code shape: a work queue whose tasks are a
 * discriminated union, one kind the agent's paused run, another the app's own review:
 * `type Task = { kind: 'agent'; state: RunState<…>; item: RunToolApprovalItem } | { kind:
 * 'review'; state: ReviewState; item: Review }`, and `if (t.kind === 'review')
 * t.state.approve(t.item)` (the agent kind answered through the Control elsewhere). Tagged unions
 * are how TypeScript apps type such queues. Session 21's written-members.ts takes the FIRST
 * alternative that writes the member (`memberIn` over a union returns the first found), so in the
 * review branch `t.state` is read as a RunState and `t.item` as an SDK item: the app's own review
 * is reported as the SDK's answer, and the codemod would keep the tool as a conflict. (Reading the
 * narrowing is not asked; a union whose alternatives disagree is at least not surely the SDK's.
 * Session 26: such a union with no test narrowing it may be the SDK's, and is reported.)
 * Control: a union whose every alternative writes the SDK's state is reported. Left (a false
 * green, written down in DECISIONS): the agent branch, `if (t.kind === 'agent')`, is not read either.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState, RunToolApprovalItem } from '@openai/agents';";
const TASK = "type Task = { kind: 'agent'; state: RunState<any, any>; item: RunToolApprovalItem } | { kind: 'review'; state: ReviewState; item: Review };";
const count = (body: string) => lintSource(lines(GEN, SDK, TASK, `export function go(t: Task) { ${body} }`), { ruleId: 'sdk-approval' }).length;

describe("a tagged union's app-own alternative", () => {
  it("no sdk-approval finding: the review branch's t.state.approve(t.item)", () => {
    expect(count("if (t.kind === 'review') t.state.approve(t.item);")).toBe(0);
  });
  it('no sdk-approval finding: another union member `run`, read in the review branch with an item of its own', () => {
    const code = lines(
      GEN,
      SDK,
      "type Task2 = { kind: 'agent'; run: RunState<any, any> } | { kind: 'review'; run: ReviewState };",
      "export function go(t: Task2, r: Review) { if (t.kind === 'review') t.run.approve(r); }",
    );
    expect(lintSource(code, { ruleId: 'sdk-approval' })).toHaveLength(0);
  });
  // session 26: the value may be the SDK's state (no test narrows it), so the answer is reported (fail closed)
  it("one sdk-approval finding: a parameter typed with a union of the SDK state and the app's own", () => {
    const code = lines(GEN, SDK, 'export function go(s: RunState<any, any> | ReviewState, r: Row) { s.approve(r); }');
    expect(lintSource(code, { ruleId: 'sdk-approval' })).toHaveLength(1);
  });
  it('control: a union whose every alternative writes the SDK state is reported', () => {
    const code = lines(
      GEN,
      SDK,
      "type Task3 = { kind: 'a'; state: RunState<any, any>; item: Row } | { kind: 'b'; state: RunState<any, any> | null; item: Row };",
      'export function go(t: Task3) { t.state!.approve(t.item); }',
    );
    expect(lintSource(code, { ruleId: 'sdk-approval' })).toHaveLength(1);
  });
  it('control: the agent branch of a union whose alternatives disagree is reported (the narrowing is read)', () => {
    expect(count("if (t.kind === 'agent') t.state.approve(t.item);")).toBe(1);
  });
});
