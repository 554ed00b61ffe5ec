import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Session 24 (issue 40 item 4, from the red team's session 23 cases): a tagged union (`{ kind:
 * 'agent'; state: RunState } | { kind: 'review'; state: ReviewState }`) is narrowed away from the
 * SDK's kind only where the tests around the answer certainly exclude it: a conjunction `&&` of
 * tag tests, a disjunction `||` whose every side excludes it, and only for an object not assigned
 * again. A test of the object that leaves the SDK's kind possible (the `||` with another condition,
 * a type guard, a switch on something else of it) or an object assigned again: the state MAY be the
 * SDK's, one sdk-approval finding (fail closed). A miss is a silent break; each "none" is a false
 * alarm if reported.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const OWN = '{ approve(x: unknown): void }';
const TASK = `type Task = { kind: 'agent'; mode: string; state: RunState<any, any> } | { kind: 'review'; mode: string; state: ${OWN} };`;
const TASK3 = `type Task = { kind: 'agent'; state: RunState<any, any> } | { kind: 'review'; state: ${OWN} } | { kind: 'audit'; state: ${OWN} };`;
const lintFile = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;
const lint = (body: string, task = TASK) => lintFile(lines(task, `export function ok(t: Task, u: Task, i: Row) { ${body} }`));

describe('a tag test that leaves the SDK kind in', () => {
  const one: Record<string, string> = {
    "the then branch of `!== 'review'`": "if (t.kind !== 'review') { t.state.approve(i); }",
    "the else branch of `=== 'review'`": "if (t.kind === 'review') { return; } else { t.state.approve(i); }",
    "a switch's default after `case 'review'`": "switch (t.kind) { case 'review': break; default: t.state.approve(i); }",
    "the then branch of `=== 'review' || i`": "if (t.kind === 'review' || i) { t.state.approve(i); }",
    "a conditional expression's else of `=== 'review'`": "t.kind === 'review' ? 0 : t.state.approve(i);",
    "the then branch of `=== 'review'`, `t` assigned again first": "if (t.kind === 'review') { t = u; t.state.approve(i); }",
    // every side leaves the agent kind: `!==` twice, or `===` of the agent beside `!==` of the review
    "the then branch of `!== 'review' || != 'review'`": "if (t.kind !== 'review' || t.kind != 'review') { t.state.approve(i); }",
    "the then branch of `=== 'agent' || !== 'review'`": "if (t.kind === 'agent' || t.kind !== 'review') { t.state.approve(i); }",
    'a disjunction of two tags (`kind`, `mode`)': "if (t.kind === 'review' || t.mode === 'x') { t.state.approve(i); }",
    'a type guard of the object': 'if (isAgent(t)) { t.state.approve(i); }',
    'a switch on something else of the object': "switch (t.kind.toLowerCase()) { case 'review': t.state.approve(i); }",
    'a case that is no string': 'switch (t.kind) { case REVIEW: t.state.approve(i); }',
    "the right of `=== 'agent' &&`": "t.kind === 'agent' && t.state.approve(i);",
    "the right of `=== 'review' ||`": "t.kind === 'review' || t.state.approve(i);",
    // the value may change between the test and the use: in a loop inside the branch, in a callback, through a closure
    '`t` assigned again by a loop inside the branch': "if (t.kind === 'review') { for (const x of [u]) { t.state.approve(i); t = x; } }",
    '`t` assigned again by a destructuring in the branch': "if (t.kind === 'review') { [t] = [u]; t.state.approve(i); }",
    '`t` assigned in a function the branch may call': "const reset = () => { t = u; }; if (t.kind === 'review') { reset(); t.state.approve(i); }",
    'a callback in the branch, `t` assigned after it': "if (t.kind === 'review') { [i].forEach((r) => t.state.approve(r)); } t = u;",
    'a `const` alias of the test, `t` assigned in the function (TypeScript does not narrow)':
      "t = u; const isReview = t.kind === 'review'; if (isReview) { t.state.approve(i); }",
  };
  for (const [name, body] of Object.entries(one)) it(`one sdk-approval finding: ${name}`, () => expect(lint(body)).toBe(1));

  const none: Record<string, string> = {
    "the then branch of `=== 'review'` (control)": "if (t.kind === 'review') { t.state.approve(i); }",
    "the then branch of `=== 'review' && i`": "if (t.kind === 'review' && i) { t.state.approve(i); }",
    "the then branch of `!(!== 'review')`": "if (!(t.kind !== 'review')) { t.state.approve(i); }",
    "a certain `=== 'review'` beside a type guard": "if (t.kind === 'review' && isReady(t)) { t.state.approve(i); }",
    "an unsure test inside a certain `=== 'review'`": "if (t.kind === 'review') { if (t.kind === 'review' || i) { t.state.approve(i); } }",
    "the right of `=== 'review' &&`": "t.kind === 'review' && t.state.approve(i);",
    "a `const` narrowed by `=== 'review'`": "const s = t; if (s.kind === 'review') { s.state.approve(i); }",
    // assigned before the test only: the test reads the value the use gets (as TypeScript follows the flow)
    '`t` assigned by a loop before the test': "for (t of [u]) log(t); if (t.kind === 'review') { t.state.approve(i); }",
    '`t` assigned by a destructuring before the test': "[t] = [u]; if (t.kind === 'review') { t.state.approve(i); }",
    '`t` assigned after the branch': "if (t.kind === 'review') { t.state.approve(i); } t = u;",
  };
  for (const [name, body] of Object.entries(none)) it(`no sdk-approval finding: ${name}`, () => expect(lint(body)).toBe(0));

  it("no sdk-approval finding: the then branch of `=== 'review' || === 'audit'` (three kinds)", () =>
    expect(lint("if (t.kind === 'review' || t.kind === 'audit') { t.state.approve(i); }", TASK3)).toBe(0));
  it('no sdk-approval finding: another function assigning its own `t`', () =>
    expect(
      lintFile(
        lines(
          TASK,
          'function other(t: Task, u: Task) { t = u; return t; }',
          "export function ok(t: Task, i: Row) { if (t.kind === 'review') { t.state.approve(i); } }",
        ),
      ),
    ).toBe(0));
  it('one sdk-approval finding: `this.t` assigned again in the branch', () =>
    expect(
      lintFile(lines(TASK, "export class Desk { t!: Task; ok(i: Row) { if (this.t.kind === 'review') { this.t = next(); this.t.state.approve(i); } } }")),
    ).toBe(1));
  it('no sdk-approval finding: `this.t` assigned in another method only', () =>
    expect(
      lintFile(
        lines(TASK, "export class Desk { t!: Task; set(n: Task) { this.t = n; } ok(i: Row) { if (this.t.kind === 'review') { this.t.state.approve(i); } } }"),
      ),
    ).toBe(0));
});
