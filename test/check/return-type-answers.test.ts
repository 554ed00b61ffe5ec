import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/** `ReturnType<…>` read from what is written (written-returns.ts `returnedType`): of `typeof load`, or of a function type. */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const TYPES = lines('interface Review { approve(i: Row): void }', 'interface Pending { state: RunState<any, any> }', 'interface Mine { state: Review }');
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, TYPES, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;
const USE = 'export function ok(p: ReturnType<typeof load>, i: Row) { p.state.approve(i); }';

describe('ReturnType', () => {
  it.each([
    ['of a function with a body', lines('function load(): Pending { return {} as Pending; }', USE)],
    ['of a `const` holding an arrow', lines('const load = (): Pending => ({}) as Pending;', USE)],
    ['of a `const` holding a function expression', lines('const load = function (): Pending { return {} as Pending; };', USE)],
    ['of a variable written with a function type', lines('declare const load: () => Pending;', USE)],
    ['of the last overload', lines('declare function load(x: string): Mine;', 'declare function load(): Pending;', USE)],
    [
      'of the last overload before the implementation',
      lines('function load(x: string): Mine;', 'function load(): Pending;', 'function load(x?: string): any { return x; }', USE),
    ],
    ['of a `const` holding a parenthesized arrow', lines('const load = ((): Pending => ({}) as Pending);', USE)],
    ['of a parenthesized function type', 'export function ok(p: ReturnType<(() => Pending)>, i: Row) { p.state.approve(i); }'],
    ['of a function type', 'export function ok(p: ReturnType<() => Pending>, i: Row) { p.state.approve(i); }'],
    [
      'the state itself, as the receiver',
      lines('declare function get(): RunState<any, any>;', 'export function ok(s: ReturnType<typeof get>, i: Row) { s.approve(i); }'),
    ],
    [
      'a list of states, by element',
      lines('declare function all(): RunState<any, any>[];', 'export function ok(ss: ReturnType<typeof all>, i: Row) { ss[0].approve(i); }'),
    ],
  ])('one sdk-approval finding: %s', (_, server) => expect(lint(server)).toBe(1));

  it.each([
    ["of a function returning the app's own", lines('declare function load(): Mine;', USE)],
    ["of a `const` arrow returning the app's own", lines('const load = (): Mine => ({}) as Mine;', USE)],
    ["of a variable written with a function type returning the app's own", lines('declare const load: () => Mine;', USE)],
    ["of overloads whose last returns the app's own", lines('declare function load(): Pending;', 'declare function load(x: string): Mine;', USE)],
    [
      "the app's own state, as the receiver",
      lines('declare function get(): Review;', 'export function ok(s: ReturnType<typeof get>, i: Row) { s.approve(i); }'),
    ],
    [
      "a list of the app's own, by element",
      lines('declare function all(): Review[];', 'export function ok(ss: ReturnType<typeof all>, i: Row) { ss[0].approve(i); }'),
    ],
  ])('no sdk-approval finding: %s', (_, server) => expect(lint(server)).toBe(0));
});
