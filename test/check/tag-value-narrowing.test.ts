import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Issue 40 item 4 (session 24): a tagged union's tag written as an enum member, a number or a
 * boolean, tested as TypeScript narrows it (`===`, `!==`, a switch's case and default, a truthiness
 * test). A tag test whose value may or may not equal the alternative's tag (an enum member beside a
 * string tag, members of two enums) and a truthiness test of a tag that is no boolean literal leave
 * the reading unsure: any alternative being the SDK's makes one finding (fail closed).
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const S = 'RunState<any, any>';
const REVIEW = 'interface Review { approve(i: Row): void }';
const lint = (...server: string[]) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, REVIEW, ...server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

const ENUM = lines(
  "enum Kind { Agent = 'agent', Review = 'review' }",
  "enum Other { Agent = 'agent', Review = 'review' }",
  `type Task = { kind: Kind.Agent; state: ${S} } | { kind: Kind.Review; state: Review };`,
);
const STRING = `type Task = { kind: 'agent'; state: ${S} } | { kind: 'review'; state: Review };`;
const NUMBER = `type Task = { v: 1; state: ${S} } | { v: 2; state: Review };`;
const BOOL = `type Task = { sdk: true; state: ${S} } | { sdk: false; state: Review };`;
const fn = (body: string) => `export function ok(t: Task, i: Row) { ${body} }`;

const one: Record<string, string[]> = {
  'an enum tag tested `=== Kind.Agent`': [ENUM, fn('if (t.kind === Kind.Agent) t.state.approve(i);')],
  "an enum member beside a string tag (`=== Kind.Review` of `kind: 'review'`)": [
    "enum Kind { Review = 'review' }",
    STRING,
    fn('if (t.kind === Kind.Review) t.state.approve(i);'),
  ],
  'a member of another enum (`=== Other.Review` of `kind: Kind.Review`)': [ENUM, fn('if (t.kind === Other.Review) t.state.approve(i);')],
  'a number tag tested `=== 1`': [NUMBER, fn('if (t.v === 1) t.state.approve(i);')],
  // the reader does not tell `===` from `==`, where `1 == '1'`: a string test of a number tag is unsure
  "a string test of a number tag (`=== 'review'` of `kind: 1`)": [
    `type Task = { kind: 1; state: ${S} } | { kind: 'review'; state: Review };`,
    fn("if (t.kind === 'review') t.state.approve(i);"),
  ],
  "an unsure alternative's state a type parameter (`state: T` of `Task<RunState>`)": [
    "enum Kind { Review = 'review' }",
    "type Task<T> = { kind: 'agent'; state: T } | { kind: Kind.Review; state: Review };",
    `export function ok(t: Task<${S}>, i: Row) { if (t.kind === Kind.Review) t.state.approve(i); }`,
  ],
  'a boolean tag tested truthy (`if (t.sdk)`)': [BOOL, fn('if (t.sdk) t.state.approve(i);')],
  'a truthiness test of a tag no literal writes (`if (t.state)`)': [STRING, fn('if (t.state) t.state.approve(i);')],
  'a disjunction of truthiness tests (`t.state || t.state`)': [STRING, fn('if (t.state || t.state) t.state.approve(i);')],
};

const none: Record<string, string[]> = {
  'an enum tag tested `!== Kind.Agent`': [ENUM, fn('if (t.kind !== Kind.Agent) t.state.approve(i);')],
  "an enum switch's default after `case Kind.Agent`": [ENUM, fn('switch (t.kind) { case Kind.Agent: break; default: t.state.approve(i); }')],
  'a number tag tested `!== 1`': [NUMBER, fn('if (t.v !== 1) t.state.approve(i);')],
  'a boolean tag tested `=== false`': [BOOL, fn('if (t.sdk === false) t.state.approve(i);')],
  "a boolean tag's falsy branch (`if (t.sdk) … else …`)": [BOOL, fn('if (t.sdk) return; else t.state.approve(i);')],
};

describe('a tag written as an enum member, a number or a boolean (session 24)', () => {
  for (const [name, server] of Object.entries(one)) it(`one sdk-approval finding: ${name}`, () => expect(lint(...server)).toBe(1));
  for (const [name, server] of Object.entries(none)) it(`no sdk-approval finding: ${name}`, () => expect(lint(...server)).toBe(0));
});
