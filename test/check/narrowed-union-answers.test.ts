import { describe, expect, it } from 'vitest';
import { lines, lintSource } from './rule-tester.js';

/**
 * Session 23, a narrowed branch of a tagged union (issue 40 item 4). Code shape: a work queue typed
 * `type Task = { kind: 'agent'; state: RunState } | { kind: 'review'; state: ReviewState }`, the
 * agent kind answered in its branch: `if (t.kind === 'agent') t.state.approve(i)`, or a `switch
 * (t.kind)`'s `case 'agent':`. The alternatives disagree, so the member was read as not surely the
 * SDK's: a silent break. The branch's test now picks the alternatives it leaves. Control (no false
 * alarm): the review branch, the other side of `!==`. (Session 26: a test of another object, a case
 * falling into the agent's, a callback's own `t` leave the agent kind possible: reported.)
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState, RunToolApprovalItem } from '@openai/agents';";
const TASK = "type Task = { kind: 'agent'; state: RunState<any, any>; item: RunToolApprovalItem } | { kind: 'review'; state: ReviewState; item: Review };";
const count = (body: string) =>
  lintSource(lines(GEN, SDK, TASK, `export function go(t: Task, u: Task, i: Row) { ${body} }`), { ruleId: 'sdk-approval' }).length;

describe("a tagged union's branch narrowed to the SDK's kind", () => {
  const found: Record<string, string> = {
    '`if (t.kind === ...)`': "if (t.kind === 'agent') t.state.approve(i);",
    "`if ('agent' == t.kind) { … }`": "if ('agent' == t.kind) { t.state.approve(i); }",
    'the else branch of `!==`': "if (t.kind !== 'agent') log(t); else t.state.approve(i);",
    "a `switch (t.kind)`'s case": "switch (t.kind) { case 'agent': t.state.approve(i); break; default: break; }",
    'the item read through the narrowed union': "if (t.kind === 'agent') box.approve(t.item);",
    'a callback inside the branch': "if (t.kind === 'agent') later(() => t.state.approve(i));",
    // session 26: each leaves the agent kind possible, so its state may be answered (fail closed)
    "another object's test": "if (u.kind === 'agent') t.state.approve(i);",
    'an empty case falling into the agent case': "switch (t.kind) { case 'review': case 'agent': t.state.approve(i); break; }",
    'a callback whose own parameter is named so': "if (t.kind === 'agent') each((t: Task) => t.state.approve(i));",
  };
  for (const [name, body] of Object.entries(found))
    it(`one sdk-approval finding: ${name}`, () => {
      expect(count(body)).toBe(1);
    });
  const none: Record<string, string> = {
    'the review branch': "if (t.kind === 'review') t.state.approve(i);",
    'the then branch of `!==`': "if (t.kind !== 'agent') t.state.approve(i);",
    "a `switch`'s other case": "switch (t.kind) { case 'review': t.state.approve(i); break; }",
  };
  for (const [name, body] of Object.entries(none))
    it(`no sdk-approval finding: ${name}`, () => {
      expect(count(body)).toBe(0);
    });
});
