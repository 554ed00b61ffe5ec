import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Red team, session 25 (issue 40 item 4, silent break): a write the narrowing walk does not see.
 * tag-narrowing.ts (`assignmentsIn`) matches a write by the text of its target, so
 * `p['task'] = agentTask` between `if (p.task.kind === 'review')` and `p.task.state.approve(i)` is
 * not a write of `p.task`: the test stays certain, the state is read as the app's `Review`, and
 * `sdk-approval` finds nothing. TypeScript (tsc against the SDK this repo installs) types `p.task`
 * after the write as the assigned agent task, its state the SDK's `RunState`. The same write as
 * `p.task = agentTask` is seen (control).
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const TASK = lines(
  'interface Review { approve(i: Row): void; review: true }',
  "type AgentTask = { kind: 'agent'; state: RunState<any, any> };",
  "type Task = AgentTask | { kind: 'review'; state: Review };",
  'interface Desk { task: Task }',
  'declare const agentTask: AgentTask;',
);
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, TASK, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

describe('writes the narrowing walk does not see (red team, session 25)', () => {
  it("one sdk-approval finding: a write by element access (`p['task'] = agentTask`) between test and use", () =>
    expect(lint("export function ok(p: Desk, i: Row) { if (p.task.kind === 'review') { p['task'] = agentTask; p.task.state.approve(i); } }")).toBe(1));
  it('control: one sdk-approval finding for the write `p.task = agentTask` between test and use', () =>
    expect(lint("export function ok(p: Desk, i: Row) { if (p.task.kind === 'review') { p.task = agentTask; p.task.state.approve(i); } }")).toBe(1));
});
