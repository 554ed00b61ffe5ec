import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';
import { runInputFindings, S } from './run-input.js';

/**
 * Session 26 (issue 40 item 4, no false green): an answer whose receiver (or item) is written as a
 * union with the SDK's type among its alternatives, and no tag test around the use leaves only the
 * app's. The value may be the SDK's state, so the app's own `approve(i)` on it breaks with the
 * codemod: one finding. Before, a union counted only when every alternative was the SDK's, and
 * the codemod rewrote the tool silently. Controls: a tag test leaving only the app's alternative,
 * and a union of the app's own types only, are no finding; a run's input that may or may not be a
 * state is not taken for a resume (run-without-context keeps reporting it).
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState, RunToolApprovalItem } from '@openai/agents';";
const TYPES = lines(
  'interface Review { approve(i: Row): void; review: true }',
  'interface Other { approve(i: Row): void }',
  'interface Own { approve(x: unknown): void }',
);
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, TYPES, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

const one: Record<string, string> = {
  'a member written as a union (`{ state: RunState | Review }`)': `export function ok(p: { state: ${S} | Review }, i: Row) { p.state.approve(i); }`,
  "an interface's member written as a union": lines(`interface P { state: ${S} | Review }`, 'export function ok(p: P, i: Row) { p.state.approve(i); }'),
  'an untagged union of objects': lines(`type T = { state: ${S} } | { state: Review };`, 'export function ok(t: T, i: Row) { t.state.approve(i); }'),
  'a tagged union answered with no tag test': lines(
    `type T = { kind: 'agent'; state: ${S} } | { kind: 'review'; state: Review };`,
    'export function ok(t: T, i: Row) { t.state.approve(i); }',
  ),
  'a parameter typed with a union (`s: RunState | Review`)': `export function ok(s: ${S} | Review, i: Row) { s.approve(i); }`,
  'a union through an alias the file declares': lines(`type Either = ${S} | Review;`, 'export function ok(s: Either, i: Row) { s.approve(i); }'),
  'a union of aliases, one of them the SDK state': lines(
    `type Agentic = ${S};`,
    'type Either = Agentic | Review;',
    'export function ok(s: Either, i: Row) { s.approve(i); }',
  ),
  'an element of a list of a union (`ss[0]`)': `export function ok(ss: (${S} | Review)[], i: Row) { ss[0].approve(i); }`,
  'a list of a union iterated (`for (const s of ss)`)': `export function ok(ss: Array<${S} | Review>, i: Row) { for (const s of ss) s.approve(i); }`,
  "a class's field written as a union": `export class Desk { private s!: ${S} | Review; ok(i: Row) { this.s.approve(i); } }`,
  "a map's value written as a union": `const m = new Map<string, ${S} | Review>(); export function ok(id: string, i: Row) { m.get(id)!.approve(i); }`,
  'a `useRef` of a union': `import { useRef } from 'react'; const ref = useRef<${S} | Review | null>(null); export function ok(i: Row) { ref.current!.approve(i); }`,
  'a union cast (`x as RunState | Review`)': `export function ok(x: unknown, i: Row) { (x as ${S} | Review).approve(i); }`,
  '`Omit` of other keys keeps the SDK state': lines(
    `interface Pending { state: ${S}; id: string }`,
    "type Mine = Omit<Pending, 'id'> & { extra: Review };",
    'export function ok(p: Mine, i: Row) { p.state.approve(i); }',
  ),
  'an item parameter typed with a union (`item: RunToolApprovalItem | Row`)':
    'export function ok(o: Own, item: RunToolApprovalItem | Row) { o.approve(item); }',
  'an item member written as a union': 'export function ok(o: Own, p: { item: RunToolApprovalItem | Row }) { o.approve(p.item); }',
  'an item of a list of a union iterated': 'export function ok(o: Own, items: (RunToolApprovalItem | Row)[]) { for (const it of items) o.approve(it); }',
};

const none: Record<string, string> = {
  "a tag test leaving the app's alternative": lines(
    `type T = { kind: 'agent'; state: ${S} } | { kind: 'review'; state: Review };`,
    "export function ok(t: T, i: Row) { if (t.kind === 'review') t.state.approve(i); }",
  ),
  "a member written as a union of the app's own types": 'export function ok(p: { state: Review | Other }, i: Row) { p.state.approve(i); }',
  "a parameter typed with a union of the app's own types": 'export function ok(s: Review | Other, i: Row) { s.approve(i); }',
  "a list of a union of the app's own types": 'export function ok(ss: (Review | Other)[], i: Row) { for (const s of ss) s.approve(i); }',
  "`Omit` of the SDK state's keys, intersected with the app's state": lines(
    `interface Pending { state: ${S}; item: RunToolApprovalItem; id: string }`,
    "type Mine = Omit<Pending, 'state' | 'item'> & { state: Review };",
    'export function ok(p: Mine, i: Row) { p.state.approve(i); }',
  ),
  "`Pick` of other keys, intersected with the app's state": lines(
    `interface Pending { state: ${S}; id: string }`,
    "type Mine = Pick<Pending, 'id'> & { state: Review };",
    'export function ok(p: Mine, i: Row) { p.state.approve(i); }',
  ),
  "an untagged union of the app's own objects": lines(
    'type T = { state: Review } | { state: Other };',
    'export function ok(t: T, i: Row) { t.state.approve(i); }',
  ),
};

describe('a union with the SDK state among its alternatives, not narrowed away', () => {
  for (const [name, server] of Object.entries(one)) it(`one sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(1));
  for (const [name, server] of Object.entries(none)) it(`no sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(0));
});

describe("a run's input that may be a state is not taken for a resume", () => {
  // a resume skips the context check: the input must be surely a state (every alternative), not maybe one
  it('one run-without-context finding: a member written `string | RunState`', () => {
    expect(runInputFindings(`p: { input: string | ${S} }`, 'p.input')).toBe(1);
  });
  it('control: a member written `RunState` resumes (no finding)', () => {
    expect(runInputFindings(`p: { input: ${S} }`, 'p.input')).toBe(0);
  });
});

describe('an `in` test and `Extract`/`Exclude` narrow a union as TypeScript does (tsc agrees on each)', () => {
  const TASK = `type Task = { kind: 'agent'; state: ${S} } | { kind: 'review'; reviewer: string; state: Review };`;
  const none: Record<string, string> = {
    "a const holding the member's name (`K in t`)": lines(
      TASK,
      "const K = 'reviewer';",
      'export function ok(t: Task, i: Row) { if (K in t) t.state.approve(i); }',
    ),
    'interfaces as the alternatives': lines(
      `interface AgentTask { kind: 'agent'; state: ${S} }`,
      "interface ReviewTask { kind: 'review'; reviewer: string; state: Review }",
      "export function ok(t: AgentTask | ReviewTask, i: Row) { if ('reviewer' in t) t.state.approve(i); }",
    ),
    'aliases of object types as the alternatives': lines(
      `type AgentTask = { kind: 'agent'; state: ${S} };`,
      "type ReviewTask = { kind: 'review'; reviewer: string; state: Review };",
      "export function ok(t: AgentTask | ReviewTask, i: Row) { if ('reviewer' in t) t.state.approve(i); }",
    ),
    "a member only the SDK kind requires, tested absent (`!('auto' in t)`)": lines(
      `type T = { kind: 'agent'; auto: boolean; state: ${S} } | { kind: 'review'; state: Review };`,
      "export function ok(t: T, i: Row) { if (!('auto' in t)) t.state.approve(i); }",
    ),
  };
  const one: Record<string, string> = {
    "a member no alternative declares (`'extra' in t` leaves every one)": lines(
      TASK,
      "export function ok(t: Task, i: Row) { if ('extra' in t) t.state.approve(i); }",
    ),
    'a member the SDK kind has optionally, tested absent': lines(
      `type T = { kind: 'agent'; reviewer?: string; state: ${S} } | { kind: 'review'; reviewer: string; state: Review };`,
      "export function ok(t: T, i: Row) { if (!('reviewer' in t)) t.state.approve(i); }",
    ),
    'a member the SDK kind has optionally, tested present': lines(
      `type T = { kind: 'agent'; reviewer?: string; state: ${S} } | { kind: 'review'; reviewer: string; state: Review };`,
      "export function ok(t: T, i: Row) { if ('reviewer' in t) t.state.approve(i); }",
    ),
    'an SDK kind with an index signature (it may hold any member)': lines(
      `type T = { kind: 'agent'; state: ${S}; [k: string]: unknown } | { kind: 'review'; reviewer: string; state: Review };`,
      "export function ok(t: T, i: Row) { if ('reviewer' in t) t.state.approve(i); }",
    ),
    'an SDK kind whose interface extends a base that declares the member': lines(
      'interface Base { reviewer: string }',
      `interface AgentTask extends Base { kind: 'agent'; state: ${S} }`,
      "interface ReviewTask { kind: 'review'; reviewer: string; state: Review }",
      "export function ok(t: AgentTask | ReviewTask, i: Row) { if ('reviewer' in t) t.state.approve(i); }",
    ),
    'a member the SDK kind has optionally through its base, tested absent': lines(
      'interface Base { reviewer?: string }',
      `interface AgentTask extends Base { kind: 'agent'; state: ${S} }`,
      "interface ReviewTask { kind: 'review'; reviewer: string; state: Review }",
      "export function ok(t: AgentTask | ReviewTask, i: Row) { if (!('reviewer' in t)) t.state.approve(i); }",
    ),
    'an `in` test of another object': lines(TASK, "export function ok(t: Task, u: Task, i: Row) { if ('reviewer' in u) t.state.approve(i); }"),
    // a disjunction of `in` tests is read as unsure: read as a value test, `auto: true` would be taken out
    'a disjunction of `in` tests of one member': lines(
      `type T = { kind: 'agent'; auto: true; state: ${S} } | { kind: 'review'; state: Review };`,
      "export function ok(t: T, i: Row) { if ('auto' in t || 'auto' in t) t.state.approve(i); }",
    ),
    '`Exclude` of a tag the SDK kind does not have leaves the SDK kind': lines(
      `type T = { state: ${S} } | { kind: 'review'; state: Review };`,
      "export function ok(t: Exclude<T, { kind: 'review' }>, i: Row) { t.state.approve(i); }",
    ),
  };
  for (const [name, server] of Object.entries(none)) it(`no sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(0));
  for (const [name, server] of Object.entries(one)) it(`one sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(1));
});
