import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Red team, session 25 (issue 40 item 4, silent break): written types the member and shape readers
 * (written-members.ts, type-shapes.ts) do not walk, each typing the receiver as the SDK's `RunState`
 * for TypeScript (checked with tsc against the SDK this repo installs): the global `ReturnType` and
 * `Awaited` wrappers (only `Readonly`, `Partial`, `Required`, `NonNullable`, `Pick`, `Omit` are read),
 * a conditional type alias, an interface's `get` accessor, an interface method's return, an interface
 * in a `namespace` (`App.Pending`), a class's constructor parameter property read from outside
 * (`this.state` is read), a computed literal key (`['state']: RunState`), and a local holding a call
 * of a declared function (`const p = load()`). `sdk-approval` finds nothing, so the codemod rewrites
 * the tool with no conflict. Each is one finding.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const S = 'RunState<any, any>';
const PENDING = `interface Pending { state: ${S} }`;
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

const cases: Record<string, string> = {
  '`ReturnType<typeof load>` of a declared function': lines(
    PENDING,
    'declare function load(): Pending;',
    'export function ok(p: ReturnType<typeof load>, i: Row) { p.state.approve(i); }',
  ),
  '`Awaited<Promise<Pending>>`': lines(PENDING, 'export function ok(p: Awaited<Promise<Pending>>, i: Row) { p.state.approve(i); }'),
  "a conditional type alias (`StateOf<'agent'>`)": lines(
    'interface Review { approve(i: Row): void }',
    `type StateOf<K> = K extends 'agent' ? ${S} : Review;`,
    "export function ok(s: StateOf<'agent'>, i: Row) { s.approve(i); }",
  ),
  'an interface’s `get` accessor (`get state(): RunState`)': lines(
    `interface Pending { get state(): ${S} }`,
    'export function ok(p: Pending, i: Row) { p.state.approve(i); }',
  ),
  'an interface method’s return (`p.current().approve(i)`)': lines(
    `interface Pending { current(): ${S} }`,
    'export function ok(p: Pending, i: Row) { p.current().approve(i); }',
  ),
  'an interface in a `namespace` (`p: App.Pending`)': lines(
    `namespace App { export interface Pending { state: ${S} } }`,
    'export function ok(p: App.Pending, i: Row) { p.state.approve(i); }',
  ),
  'a constructor parameter property read from outside (`h.state`)': lines(
    `class Holder { constructor(public state: ${S}) {} }`,
    'export function ok(h: Holder, i: Row) { h.state.approve(i); }',
  ),
  "a computed literal key (`['state']: RunState`)": lines(
    `interface Pending { ['state']: ${S} }`,
    'export function ok(p: Pending, i: Row) { p.state.approve(i); }',
  ),
  'a local holding a declared function’s result (`const p = load()`)': lines(
    PENDING,
    'declare function load(): Pending;',
    'export function ok(i: Row) { const p = load(); p.state.approve(i); }',
  ),
};

describe('written types the shape readers do not walk (red team, session 25)', () => {
  for (const [name, server] of Object.entries(cases)) it(`one sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(1));
  it('control: one sdk-approval finding through an intersection, an abstract member, a static member', () => {
    expect(
      lint(lines('interface Base { id: string }', `type Pending = Base & { state: ${S} };`, 'export function ok(p: Pending, i: Row) { p.state.approve(i); }')),
    ).toBe(1);
    expect(lint(lines(`abstract class Base { abstract state: ${S} }`, 'export function ok(p: Base, i: Row) { p.state.approve(i); }'))).toBe(1);
    expect(lint(lines(`class Holder { static current: ${S} }`, 'export function ok(i: Row) { Holder.current.approve(i); }'))).toBe(1);
  });
});
