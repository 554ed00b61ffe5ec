import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Issue 40 item 4 (session 25): the shape reader's readings behind the red team's session 24 cases
 * (red24-shape-misses, red24-depth-bound), each way: `Extract`/`Exclude` read as the tag tests they
 * amount to, certain or unsure (fail closed); a walk that ends on cycles, not after a few steps;
 * index signatures, `typeof`, a `Map` held in a member, a global wrapper around a receiver. Each
 * holding the SDK's `RunState` is one finding; holding the app's own type, none.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const S = 'RunState<any, any>';
const REVIEW = 'interface Review { approve(i: Row): void }';
const TASK = lines(REVIEW, `type Task = { kind: 'agent'; state: ${S} } | { kind: 'review'; state: Review };`);
const lint = (server: string, files: Record<string, string> = {}) =>
  lintRepo({ ...files, 'src/server.ts': lines(GEN, SDK, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;
const use = (type: string, read = 't.state') => `export function ok(t: ${type}, i: Row, id: string) { ${read}.approve(i); }`;

const answers: Record<string, string> = {
  '`Extract` of an alternative whose tag is not written as a value (`kind: string`): unsure': lines(
    REVIEW,
    `type Task = { kind: 'agent'; state: ${S} } | { kind: string; state: Review };`,
    use("Extract<Task, { kind: 'agent' }>"),
  ),
  '`Extract` by a named type (`Extract<Task, AgentKind>`): unsure': lines(TASK, "type AgentKind = { kind: 'agent' };", use('Extract<Task, AgentKind>')),
  '`Exclude` by a type of two tags: unsure': lines(TASK, use("Exclude<Task, { kind: 'review'; v: 1 }>")),
  'a member of a member of a recursive interface (`t.parent.parent.state`)': lines(
    `interface Node { parent: Node; state: ${S} }`,
    use('Node', 't.parent.parent.state'),
  ),
  'a generic nested in itself through an alias (`Wrap<Wrap<P>>`)': lines(
    'type Inner<T> = T & { at: number };',
    'type Wrap<T> = Inner<T>;',
    `type P = { state: ${S} };`,
    use('Wrap<Wrap<P>>'),
  ),
  "an interface's index signature read by name (`t.a`)": lines(`interface States { [id: string]: ${S} }`, use('States', 't.a')),
  'a member of a `Map` value held in a member (`t.m.get(id)!.state`)': lines(
    `interface Desk { m: Map<string, { state: ${S} }> }`,
    use('Desk', 't.m.get(id)!.state'),
  ),
  'a `Map` alias held in a member (`m: Sessions`)': lines(`type Sessions = Map<string, ${S}>;`, 'interface Desk { m: Sessions }', use('Desk', 't.m.get(id)!')),
  'a receiver through six renames of `RunState`': lines(
    `type S1 = ${S};`,
    'type S2 = S1;',
    'type S3 = S2;',
    'type S4 = S3;',
    'type S5 = S4;',
    'type S6 = S5;',
    use('S6', 't'),
  ),
  'a local map through five renames of its alias (`m.get(id)!`)': lines(
    `type M1 = Map<string, ${S}>;`,
    'type M2 = M1;',
    'type M3 = M2;',
    'type M4 = M3;',
    'type M5 = M4;',
    'export function ok(m: M5, i: Row, id: string) { m.get(id)!.approve(i); }',
  ),
  'a receiver written `Exclude<RunState | Review, Review>`: unsure': lines(REVIEW, use(`Exclude<${S} | Review, Review>`, 't')),
  'a receiver written `Exclude` of an alias of a union: unsure': lines(REVIEW, `type Both = ${S} | Review;`, use('Exclude<Both, Review>', 't')),
};

const noAnswers: Record<string, string> = {
  "`Extract` of the app's kind (`Extract<Task, { kind: 'review' }>`)": lines(TASK, use("Extract<Task, { kind: 'review' }>")),
  "`Exclude` of the SDK's kind (`Exclude<Task, { kind: 'agent' }>`)": lines(TASK, use("Exclude<Task, { kind: 'agent' }>")),
  "`Extract` by a union of one tag (`{ kind: 'review' } | { kind: 'x' }`)": lines(TASK, use("Extract<Task, { kind: 'review' } | { kind: 'x' }>")),
  "the app's own `NonNullable`": lines(
    REVIEW,
    'type NonNullable<T> = Review;',
    `interface Pending { state?: ${S} }`,
    use("NonNullable<Pending['state']>", 't'),
  ),
  "`typeof` a value of the app's type": lines(REVIEW, 'declare const last: { state: Review };', use('typeof last')),
  "a number's index signature read by a name": lines(`type States = { [i: number]: ${S} };`, use('States', 't.a')),
  "a `Map` of the app's held in a member": lines(REVIEW, 'interface Desk { m: Map<string, Review> }', use('Desk', 't.m.get(id)!')),
};

describe('the shape reader, each way (issue 40, session 25)', () => {
  for (const [name, server] of Object.entries(answers)) it(`one sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(1));
  for (const [name, server] of Object.entries(noAnswers)) it(`no sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(0));
  it('a cycle of aliases, each a union of the next, ends at once (no finding)', () =>
    expect(lint(lines('type A = B | B | B;', 'type B = C | C | C;', 'type C = A | A | A;', use('A')))).toBe(0));
  it('a receiver typed by a cycle of aliases ends (no finding)', () => expect(lint(lines('type S = T;', 'type T = S;', use('S', 't')))).toBe(0));
  it('a local map typed by a cycle of aliases ends (no finding)', () =>
    expect(lint(lines('type M = N;', 'type N = M;', 'export function ok(m: M, i: Row, id: string) { m.get(id)!.approve(i); }'))).toBe(0));
  it('a cycle of interface bases ends (no finding)', () =>
    expect(lint(lines('interface A extends B { id: string }', 'interface B extends A { at: number }', use('A')))).toBe(0));
});
