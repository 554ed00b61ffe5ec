import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Session 24 (issue 40 item 4, from the red team's session 23 cases): the file imports the SDK's
 * RunState, but the name at the answer is the app's own: a local type alias in the function, or
 * the function's or class's own type parameter, shadows the import (TypeScript's scopes). The
 * answer is on the app's own object: no sdk-approval finding. The other way round, a type the
 * function declares that IS the SDK's (a local alias, a type parameter constrained to it) is read
 * as the file's top-level ones are: one finding. Control: the same function without the shadowing
 * name.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;
const OWN = '{ approve(x: unknown): void }';
const STATE = 'RunState<any, any>';

describe("a name shadowing the SDK's RunState", () => {
  it('control: the SDK import read (one finding)', () => expect(lint('export function ok(s: RunState<any, any>, i: Row) { s.approve(i); }')).toBe(1));
  const none: Record<string, string> = {
    'a type alias in the function': `export function ok(i: Row) { type RunState = ${OWN}; const s: RunState = get(); s.approve(i); }`,
    "the function's type parameter": `export function ok<RunState extends ${OWN}>(s: RunState, i: Row) { s.approve(i); }`,
    "the class's type parameter": `export class Desk<RunState extends ${OWN}> { private state?: RunState; ok(i: Row) { this.state!.approve(i); } }`,
    "an interface's type parameter": lines(`interface Box<RunState> { state: RunState }`, `export function ok(b: Box<${OWN}>, i: Row) { b.state.approve(i); }`),
    'an interface in the function hiding the top-level one': lines(
      `interface Entry { state: ${STATE} }`,
      `export function ok(i: Row) { interface Entry { state: ${OWN} } const e: Entry = get(); e.state.approve(i); }`,
    ),
  };
  for (const [name, server] of Object.entries(none)) it(`no sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(0));
});

describe("a type the function declares that is the SDK's", () => {
  const one: Record<string, string> = {
    "a local alias of the SDK's state": `export function ok(i: Row) { type S = ${STATE}; const s: S = get(); s.approve(i); }`,
    "a type parameter constrained to the SDK's state": `export function ok<S extends ${STATE}>(s: S, i: Row) { s.approve(i); }`,
    "a local alias whose member is the SDK's state": `export function ok(i: Row) { type Entry = { state: ${STATE} }; const e: Entry = get(); e.state.approve(i); }`,
    "a local interface whose member is the SDK's state": `export function ok(i: Row) { interface Entry { state: ${STATE} } const e: Entry = get(); e.state.approve(i); }`,
    "a local class whose field is the SDK's state": `export function ok(i: Row) { class Entry { state!: ${STATE} } const e: Entry = get(); e.state.approve(i); }`,
    "a type parameter whose constraint's member is the SDK's state": `export function ok<E extends { state: ${STATE} }>(e: E, i: Row) { e.state.approve(i); }`,
    "a sibling function's local type does not hide the import": lines(
      `function other() { type RunState = ${OWN}; return 0; }`,
      `export function ok(s: ${STATE}, i: Row) { other(); s.approve(i); }`,
    ),
    "the function body's type does not reach its parameters": `export function ok(s: ${STATE}, i: Row) { type RunState = ${OWN}; s.approve(i); }`,
  };
  for (const [name, server] of Object.entries(one)) it(`one sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(1));
});
