import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Red team, session 25 (issue 40 item 4, false alarm): narrowings TypeScript makes and the readers
 * take for unsure, so the app's own `Review` is reported as the SDK's state (tsc, against the SDK
 * this repo installs, types each receiver as `Review` only): a tag compared with a `const` holding
 * the value (`const REVIEW = 'review'`; tag-values.ts reads literals and enum members only), an `in`
 * test of a member only the app's kind has (`'reviewer' in t`), and `Extract` of a union whose SDK
 * alternative has no tag at all (assignable-tags.ts keeps it unsure, though an object without `kind`
 * is never assignable to `{ kind: 'review' }`). Each is a finding the app cannot act on, and the
 * codemod leaves the tool unrewritten as a conflict.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const S = 'RunState<any, any>';
const REVIEW = 'interface Review { approve(i: Row): void; review: true }';
const TASK = lines(REVIEW, `type Task = { kind: 'agent'; state: ${S} } | { kind: 'review'; reviewer: string; state: Review };`);
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

const cases: Record<string, string> = {
  'a tag compared with a `const` holding the value (`t.kind === REVIEW`)': lines(
    TASK,
    "const REVIEW = 'review';",
    'export function ok(t: Task, i: Row) { if (t.kind === REVIEW) t.state.approve(i); }',
  ),
  "an `in` test of the app's kind's own member (`'reviewer' in t`)": lines(
    TASK,
    "export function ok(t: Task, i: Row) { if ('reviewer' in t) t.state.approve(i); }",
  ),
  "`Extract` of a union whose SDK alternative has no tag (`Extract<Task, { kind: 'review' }>`)": lines(
    REVIEW,
    `type Task = { state: ${S} } | { kind: 'review'; state: Review };`,
    "export function ok(t: Extract<Task, { kind: 'review' }>, i: Row) { t.state.approve(i); }",
  ),
};

describe("the app's own state reported as the SDK's (red team, session 25)", () => {
  for (const [name, server] of Object.entries(cases)) it(`no sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(0));
  it("control: no sdk-approval finding for the app's type named `RunState` (type parameter, local alias, app interface)", () => {
    expect(lint(lines(REVIEW, 'export function ok<RunState extends Review>(s: RunState, i: Row) { s.approve(i); }'))).toBe(0);
    expect(
      lint(lines(REVIEW, 'declare function get(): any;', 'export function ok(i: Row) { type RunState = Review; const s = get() as RunState; s.approve(i); }')),
    ).toBe(0);
    expect(
      lint(
        lines(
          REVIEW,
          `interface Pending { state: ${S} }`,
          "type Mine = Omit<Pending, 'state'> & { state: Review };",
          'export function ok(p: Mine, i: Row) { p.state.approve(i); }',
        ),
      ),
    ).toBe(0);
  });
});
