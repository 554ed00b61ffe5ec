import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Session 23, the red team's findings (issue 40 item 4): session 23 narrows a tagged union (`{ kind: 'agent';
 * state: RunState } | { kind: 'review'; state: ReviewState }`) by the tag test around the answer.
 * Before it, any union with an alternative writing the SDK's state counted. Here the test around
 * the answer EXCLUDES the app's own kind (or narrows nothing), so the state answered is the SDK's
 * (or may be): each case must be one sdk-approval finding. Left (DECISIONS): the "maybe" cases
 * (`=== 'review' || i`, `t` assigned again in the branch). A miss is a silent break. The `===`
 * then-branch on the app's kind is the control (no finding).
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const TASK = lines(
  "import type { RunState } from '@openai/agents';",
  "type Task = { kind: 'agent'; state: RunState<any, any> } | { kind: 'review'; state: { approve(x: unknown): void } };",
);
const lint = (body: string) =>
  lintRepo(
    { 'src/server.ts': lines(GEN, TASK, `export function ok(t: Task, u: Task, i: Row) { ${body} }`) },
    {
      project: testProject(),
      ruleId: 'sdk-approval',
      file: 'src/server.ts',
    },
  ).length;

describe('a tag test that leaves the SDK kind in', () => {
  const one: Record<string, string> = {
    "the then branch of `!== 'review'`": "if (t.kind !== 'review') { t.state.approve(i); }",
    "the else branch of `=== 'review'`": "if (t.kind === 'review') { return; } else { t.state.approve(i); }",
    "a switch's default after `case 'review'`": "switch (t.kind) { case 'review': break; default: t.state.approve(i); }",
    "a conditional expression's else of `=== 'review'`": "t.kind === 'review' ? 0 : t.state.approve(i);",
  };
  for (const [name, body] of Object.entries(one)) it(`one sdk-approval finding: ${name}`, () => expect(lint(body)).toBe(1));
  it("no sdk-approval finding: the then branch of `=== 'review'` (control)", () => expect(lint("if (t.kind === 'review') { t.state.approve(i); }")).toBe(0));
});
