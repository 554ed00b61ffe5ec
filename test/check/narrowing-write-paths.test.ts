import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/** Writes between a tag test and the use, in any access form (tag-narrowing.ts `accessPath`). */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const TASK = lines(
  'interface Review { approve(i: Row): void }',
  "type AgentTask = { kind: 'agent'; state: RunState<any, any> };",
  "type Task = AgentTask | { kind: 'review'; state: Review };",
  'interface Desk { task: Task; other: number }',
  'declare const agentTask: AgentTask;',
);
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, TASK, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;
const inBranch = (write: string) =>
  `export function ok(p: Desk, k: keyof Desk, i: Row) { if (p.task.kind === 'review') { ${write} p.task.state.approve(i); } }`;

describe('a write between the test and the use', () => {
  it.each([
    ['`p[k] = …` (any member)', 'p[k] = agentTask as never;'],
    ["`(p)['task'] = …`", "(p)['task'] = agentTask;"],
  ])('one sdk-approval finding: %s', (_, write) => expect(lint(inBranch(write))).toBe(1));

  it.each([
    ["`p['other'] = …` (another member)", "p['other'] = 1;"],
    ['`p.other = …`', 'p.other = 1;'],
  ])('no sdk-approval finding: %s', (_, write) => expect(lint(inBranch(write))).toBe(0));
});
