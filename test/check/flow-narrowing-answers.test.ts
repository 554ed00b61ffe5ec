import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Session 25 (issue 40 item 4): narrowings of a tagged union TypeScript makes by flow — a `const`
 * holding a test, a tag a `const` pattern took, `switch (true)`, an `if` that leaves the block —
 * and a value assigned again only where it cannot reach the use. A test read through a `let`, or
 * an object that may change between the test and the use, is unsure (fail closed: the SDK's kind
 * is one finding). A miss is a silent break; each "none" a false alarm if reported.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const OWN = '{ approve(x: unknown): void }';
const TASK = `type Task = { kind: 'agent'; state: RunState<any, any> } | { kind: 'review'; state: ${OWN} } | { kind: 'audit'; state: ${OWN} };`;
const lint = (body: string) =>
  lintRepo(
    { 'src/server.ts': lines(GEN, SDK, TASK, `export function ok(t: Task, u: Task, ts: Task[], i: Row) { ${body} }`) },
    { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' },
  ).length;
const CHAIN = 'const a = t.kind === "review"; const b = a; const c = b; const d = c; const e = d; const f = e; const g = f;';

describe('a narrowing by flow', () => {
  const one: Record<string, string> = {
    'a negated `const` test (`!notAgent`)': "const notAgent = t.kind !== 'agent'; if (!notAgent) t.state.approve(i);",
    'a `let` holding the test': "let isReview = t.kind === 'review'; if (isReview) t.state.approve(i);",
    'a `const` test of another binding of the name': "const isReview = t.kind === 'review'; ts.forEach((t: Task) => { if (isReview) t.state.approve(i); });",
    'a test held deeper than TypeScript follows': `${CHAIN} if (g) t.state.approve(i);`,
    'a renamed destructured tag (`const { kind: k } = t`)': "const { kind: k } = t; if (k === 'agent') t.state.approve(i);",
    'a tag a `let` pattern took': "let { kind } = t; if (kind === 'review') t.state.approve(i);",
    'a `switch` on a destructured tag': "const { kind } = t; switch (kind) { case 'agent': t.state.approve(i); }",
    "`switch (true)`'s `default` past the app kinds":
      "switch (true) { case t.kind === 'review': case t.kind === 'audit': break; default: t.state.approve(i); }",
    '`switch (true)` with `default` falling into a case': "switch (true) { default: case t.kind === 'review': t.state.approve(i); }",
    "an early `return` on the else side (`if (t.kind === 'agent') { … } else return;`)": "if (t.kind === 'agent') { log(); } else return; t.state.approve(i);",
    'two early `continue`s of the app kinds in a loop':
      "for (const x of ts) { if (x.kind === 'review') continue; if (x.kind === 'audit') continue; x.state.approve(i); }",
    '`t` assigned after an early `return`': "if (t.kind === 'agent') return; t = u; t.state.approve(i);",
    "`t` assigned in a switch's case": "switch (t.kind) { case 'review': t = u; t.state.approve(i); }",
    'an early exit both of whose sides leave': "if (t.kind !== 'agent') { if (i) return; else throw i; } t.state.approve(i);",
    // session 26: where no test leaves the app's kinds alone, the agent's state may reach the answer
    'a `default` a case falls into (`case review: default:`)':
      "switch (true) { case t.kind === 'audit': break; case t.kind === 'review': default: t.state.approve(i); }",
    'an early `return` after the use leaves every kind': "t.state.approve(i); if (t.kind !== 'agent') return;",
    'an early exit on neither side leaves every kind': "if (t.kind !== 'agent') { log(); } t.state.approve(i);",
  };
  for (const [name, body] of Object.entries(one)) it(`one sdk-approval finding: ${name}`, () => expect(lint(body)).toBe(1));

  const none: Record<string, string> = {
    'a `const` test of the app kind': "const isReview = t.kind === 'review'; if (isReview) t.state.approve(i);",
    'a `const` test held five deep': 'const a = t.kind === "review"; const b = a; const c = b; const d = c; if (d) t.state.approve(i);',
    'a destructured tag of the app kind': "const { kind } = t; if (kind === 'review') t.state.approve(i);",
    '`switch (true)` cases of the app kinds': "switch (true) { case t.kind === 'review': case t.kind === 'audit': t.state.approve(i); }",
    "`switch (true)`'s `default` past the agent kind and one app kind":
      "switch (true) { case t.kind === 'agent': case t.kind === 'audit': break; default: t.state.approve(i); }",
    'an early `return` of the agent kind': "if (t.kind === 'agent') return; t.state.approve(i);",
    "an early `throw` in a block (`if (t.kind === 'agent') { log(); throw i; }`)": "if (t.kind === 'agent') { log(); throw i; } t.state.approve(i);",
  };
  for (const [name, body] of Object.entries(none)) it(`no sdk-approval finding: ${name}`, () => expect(lint(body)).toBe(0));
});
