import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/** A tag compared with a `const` holding its value (tag-tests.ts `comparedValue`), as TypeScript narrows by the literal type. */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const TASK = lines(
  'interface Review { approve(i: Row): void }',
  "type Task = { kind: 'agent'; state: RunState<any, any> } | { kind: 'review'; state: Review };",
  "const REVIEW = 'review';",
  "const AGENT = 'agent';",
);
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, TASK, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

describe('a tag compared with a const', () => {
  it.each([
    ['`t.kind === AGENT`', 'export function ok(t: Task, i: Row) { if (t.kind === AGENT) t.state.approve(i); }'],
    ['`case AGENT:`', 'export function ok(t: Task, i: Row) { switch (t.kind) { case AGENT: t.state.approve(i); } }'],
    ['the `default` after `case REVIEW:`', 'export function ok(t: Task, i: Row) { switch (t.kind) { case REVIEW: break; default: t.state.approve(i); } }'],
    ['a `let` holding the value (no narrowing: unsure)', "export function ok(t: Task, i: Row) { let r = 'review'; if (t.kind === r) t.state.approve(i); }"],
  ])('one sdk-approval finding: %s', (_, server) => expect(lint(server)).toBe(1));

  it.each([
    ['`case REVIEW:`', 'export function ok(t: Task, i: Row) { switch (t.kind) { case REVIEW: t.state.approve(i); } }'],
    ['`REVIEW === t.kind`', 'export function ok(t: Task, i: Row) { if (REVIEW === t.kind) t.state.approve(i); }'],
    ['the else of `t.kind !== REVIEW`', 'export function ok(t: Task, i: Row) { if (t.kind !== REVIEW) return; t.state.approve(i); }'],
  ])('no sdk-approval finding: %s', (_, server) => expect(lint(server)).toBe(0));
});
