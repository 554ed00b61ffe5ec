import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Red team, session 24 (issue 40 item 4, silent break): type shapes the shape reader
 * (type-shapes.ts) does not walk, each typing the receiver as the SDK's `RunState` for TypeScript
 * (checked with tsc against the SDK this repo installs): `Extract`/`Exclude` of a tagged union (the
 * usual way to name one kind of it), `NonNullable<P['state']>` of an optional member, an index
 * signature read by name (`r.a`; `Record`'s is read), a quoted member name (`'state': RunState`),
 * `typeof` a declared value, a `Map` held in a member (`p.states.get(id)!`). `sdk-approval` finds
 * nothing, so the codemod rewrites the tool with "0 conflicts" and the answers are refused at run
 * time. Each is one finding.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const S = 'RunState<any, any>';
const TASK = lines('interface Review { approve(i: Row): void }', `type Task = { kind: 'agent'; state: ${S} } | { kind: 'review'; state: Review };`);
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

const cases: Record<string, string> = {
  "`Extract` of a tagged union (`Extract<Task, { kind: 'agent' }>`)": lines(
    TASK,
    "export function ok(t: Extract<Task, { kind: 'agent' }>, i: Row) { t.state.approve(i); }",
  ),
  'an alias of `Extract` (`type AgentTask = Extract<Task, …>`)': lines(
    TASK,
    "type AgentTask = Extract<Task, { kind: 'agent' }>;",
    'export function ok(t: AgentTask, i: Row) { t.state.approve(i); }',
  ),
  "`Exclude` of a tagged union (`Exclude<Task, { kind: 'review' }>`)": lines(
    TASK,
    "export function ok(t: Exclude<Task, { kind: 'review' }>, i: Row) { t.state.approve(i); }",
  ),
  "`NonNullable` of an optional member (`NonNullable<Pending['state']>`)": lines(
    `interface Pending { state?: ${S} }`,
    "export function ok(s: NonNullable<Pending['state']>, i: Row) { s.approve(i); }",
  ),
  'an index signature read by name (`r.a`)': lines(`type States = { [id: string]: ${S} };`, 'export function ok(r: States, i: Row) { r.a.approve(i); }'),
  "a quoted member name (`'state': RunState`)": lines(`interface Pending { 'state': ${S} }`, 'export function ok(p: Pending, i: Row) { p.state.approve(i); }'),
  '`typeof` a declared value': lines(`declare const last: { state: ${S} };`, 'export function ok(p: typeof last, i: Row) { p.state.approve(i); }'),
  'a `Map` held in a member (`p.states.get(id)!`)': lines(
    `interface Desk { states: Map<string, ${S}> }`,
    'export function ok(p: Desk, id: string, i: Row) { p.states.get(id)!.approve(i); }',
  ),
};

describe('type shapes the shape reader does not walk (red team, session 24)', () => {
  for (const [name, server] of Object.entries(cases)) it(`one sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(1));
});
