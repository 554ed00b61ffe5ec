import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/** A call of a member whose written type says what it returns (written-returns.ts): a method, a function-typed property. */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const S = 'RunState<any, any>';
const TYPES = lines('interface Review { approve(i: Row): void }', `interface Pending { state: ${S} }`);
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, TYPES, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;
const CALL = 'export function ok(h: Holder, i: Row) { h.current().approve(i); }';

describe("a member call's written return type", () => {
  it.each([
    ['a type literal’s method', `export function ok(h: { current(): ${S} }, i: Row) { h.current().approve(i); }`],
    ['a property of function type', lines(`interface Holder { current: () => ${S} }`, CALL)],
    ['a property of a parenthesized function type', lines(`interface Holder { current: (() => ${S}) }`, CALL)],
    [
      'a property of function type or `null`',
      lines(`interface Holder { current: (() => ${S}) | null }`, 'export function ok(h: Holder, i: Row) { h.current?.().approve(i); }'),
    ],
    [
      'a local holding the call',
      lines(`interface Holder { current(): ${S} }`, 'export function ok(h: Holder, i: Row) { const s = h.current(); s.approve(i); }'),
    ],
    [
      'a method of either branch of an undecided conditional type',
      lines(
        `type HolderOf<K> = K extends 'agent' ? { current(): ${S} } : { current(): Review };`,
        'export function ok(h: HolderOf<string>, i: Row) { h.current().approve(i); }',
      ),
    ],
    [
      'a member of what the call returns',
      lines('interface Holder { current(): Pending }', 'export function ok(h: Holder, i: Row) { h.current().state.approve(i); }'),
    ],
  ])('one sdk-approval finding: %s', (_, server) => expect(lint(server)).toBe(1));

  it.each([
    ["an interface's method returning the app's own", lines('interface Holder { current(): Review }', CALL)],
    ["a type literal's method returning the app's own", 'export function ok(h: { current(): Review }, i: Row) { h.current().approve(i); }'],
    ["a property of function type returning the app's own", lines('interface Holder { current: () => Review }', CALL)],
    [
      "a member of the app's own the call returns",
      lines('interface Holder { current(): { state: Review } }', 'export function ok(h: Holder, i: Row) { h.current().state.approve(i); }'),
    ],
  ])('no sdk-approval finding: %s', (_, server) => expect(lint(server)).toBe(0));
});
