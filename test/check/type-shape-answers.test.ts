import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Issue 40 item 4 (silent break): the SDK's RunState held in a type shape, the object's type written
 * as an intersection, a nested object member, an array or tuple element, a `Record`, a wrapper
 * (`Readonly`, `Partial`, `Pick`), an indexed access type, a generic given the state (or defaulting
 * to it). Each is one finding, in the same file and, where the red team wrote it, in another file
 * of the app. The same shapes holding the app's own `RunState` are no answer.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const OWN = "import type { RunState } from './engine.js';";
const ENGINE = { 'src/engine.ts': 'export class RunState { approve(x: unknown) {} }\n' };
const lint = (files: Record<string, string>, server: string) =>
  lintRepo({ ...files, 'src/server.ts': lines(GEN, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

/** The red team's shapes (session 23), each in the same file and in another file. */
const shapes: Record<string, { decl: string; use: string }> = {
  'an intersection': {
    decl: 'export type Pending = { id: string } & { state: RunState<any, any> };',
    use: 'export function ok(p: Pending, i: Row) { p.state.approve(i); }',
  },
  'a nested object member': {
    decl: 'export interface Pending { job: { state: RunState<any, any> } }',
    use: 'export function ok(p: Pending, i: Row) { p.job.state.approve(i); }',
  },
  'an array element': {
    decl: 'export interface Pending { state: RunState<any, any> }',
    use: 'export function ok(ps: Pending[], i: Row) { ps[0].state.approve(i); }',
  },
  'a Record': { decl: 'export type Pending = Record<string, RunState<any, any>>;', use: "export function ok(r: Pending, i: Row) { r['a'].approve(i); }" },
  'a Readonly wrapper': {
    decl: 'export type Pending = Readonly<{ state: RunState<any, any> }>;',
    use: 'export function ok(p: Pending, i: Row) { p.state.approve(i); }',
  },
};

describe('the SDK state inside a type shape (red team, session 23)', () => {
  for (const [name, { decl, use }] of Object.entries(shapes)) {
    it(`one sdk-approval finding: ${name}, same file`, () => expect(lint({}, lines(SDK, decl, use))).toBe(1));
    it(`one sdk-approval finding: ${name}, another file`, () =>
      expect(lint({ 'src/types.ts': lines(SDK, decl) }, lines("import type { Pending } from './types.js';", use))).toBe(1));
  }
});

const PENDING = 'interface Pending { state: RunState<any, any> }';
const STATE = 'RunState<any, any>';
/** More shapes, each written in the file that answers: [declarations, use]. */
const more: Record<string, [string, string]> = {
  'a Partial wrapper': [`type P = Partial<${PENDING.slice(18)}>;`, 'export function ok(p: P, i: Row) { p.state!.approve(i); }'],
  'a Pick of an interface': [lines(PENDING, "type P = Pick<Pending, 'state'>;"), 'export function ok(p: P, i: Row) { p.state.approve(i); }'],
  "a Record's member read by name (`r.a`)": [`type R = Record<string, ${STATE}>;`, 'export function ok(r: R, i: Row) { r.a.approve(i); }'],
  "an indexed access type as a member (`job: Full['job']`)": [
    `interface Full { job: { state: ${STATE} } }\ninterface P { job: Full['job'] }`,
    'export function ok(p: P, i: Row) { p.job.state.approve(i); }',
  ],
  "an indexed access type as the member read (`state: Full['state']`)": [
    `interface Full { state: ${STATE} }\ninterface P { state: Full['state'] }`,
    'export function ok(p: P, i: Row) { p.state.approve(i); }',
  ],
  "an alias of an indexed access type (`type P = Full['job']`)": [
    `interface Full { job: { state: ${STATE} } }\ntype P = Full['job'];`,
    'export function ok(p: P, i: Row) { p.state.approve(i); }',
  ],
  "a parameter typed `Full['items'][number]`": [
    `interface Full { items: ${STATE}[] }`,
    "export function ok(s: Full['items'][number], i: Row) { s.approve(i); }",
  ],
  "a parameter typed `Pending['state']`": [PENDING, "export function ok(s: Pending['state'], i: Row) { s.approve(i); }"],
  'a generic interface given the state': ['interface Box<T> { state: T }', `export function ok(p: Box<${STATE}>, i: Row) { p.state.approve(i); }`],
  'a generic alias whose member is `T | null`': ['type Box<T> = { state: T | null };', `export function ok(p: Box<${STATE}>, i: Row) { p.state!.approve(i); }`],
  'a generic intersecting its parameter (`T & { id: string }`)': [
    'type Tagged<T> = T & { id: string };',
    `export function ok(p: Tagged<{ state: ${STATE} }>, i: Row) { p.state.approve(i); }`,
  ],
  "a generic's default naming an earlier parameter": [
    `interface Box<T, U = T> { state: U }`,
    `export function ok(p: Box<${STATE}>, i: Row) { p.state.approve(i); }`,
  ],
  'a `ReadonlyArray` element': [PENDING, 'export function ok(ps: ReadonlyArray<Pending>, i: Row) { ps[0].state.approve(i); }'],
  'an `Array` element': [PENDING, 'export function ok(ps: Array<Pending>, i: Row) { ps[0].state.approve(i); }'],
  'a `readonly T[]` element': [PENDING, 'export function ok(ps: readonly Pending[], i: Row) { ps[0].state.approve(i); }'],
  'a tuple element': [PENDING, 'export function ok(ps: [Pending, string], i: Row) { ps[0].state.approve(i); }'],
  'a named tuple element': [PENDING, 'export function ok(ps: [first: Pending], i: Row) { ps[0].state.approve(i); }'],
  'a tuple of lists (`ps[0][0].state`)': [PENDING, 'export function ok(ps: [Pending[], string], i: Row) { ps[0][0].state.approve(i); }'],
  "a named tuple's rest element": [PENDING, 'export function ok(ps: [first: string, ...rest: Pending[]], i: Row) { ps[1].state.approve(i); }'],
  "a tuple's optional element": [PENDING, 'export function ok(ps: [Pending?], i: Row) { ps[0]!.state.approve(i); }'],
  "a tuple's rest element": [PENDING, 'export function ok(ps: [string, ...Pending[]], i: Row) { ps[1].state.approve(i); }'],
  'a list of lists (`ps[0][1].state`)': [PENDING, 'export function ok(ps: Pending[][], i: Row) { ps[0][1].state.approve(i); }'],
  'an index signature read by a key (`r[id]`)': [`type R = { [id: string]: ${STATE} };`, 'export function ok(r: R, id: string, i: Row) { r[id].approve(i); }'],
  "an index signature read by a literal key (`r['a']`)": [`interface R { [id: string]: ${STATE} }`, "export function ok(r: R, i: Row) { r['a'].approve(i); }"],
  'a Record of pending entries (`r[id].state`)': [PENDING, 'export function ok(r: Record<string, Pending>, id: string, i: Row) { r[id].state.approve(i); }'],
  "an element of an indexed access type (`Full['items']`)": [
    `interface Full { items: ${STATE}[] }`,
    "export function ok(l: Full['items'], i: Row) { l[0].approve(i); }",
  ],
  'an element of a list that may be undefined (`ps![0]`)': [PENDING, 'export function ok(ps: Pending[] | undefined, i: Row) { ps![0].state.approve(i); }'],
  "a member read by a literal key (`p['state']`)": [PENDING, "export function ok(p: Pending, i: Row) { p['state'].approve(i); }"],
  "an element of a wrapper's list (`Readonly<Pending[]>`)": [PENDING, 'export function ok(ps: Readonly<Pending[]>, i: Row) { ps[0].state.approve(i); }'],
  'a generic list alias given the item': [
    'type List<T> = T[];',
    'export function ok(ps: List<Pending>, i: Row) { ps[0].state.approve(i); }'.replace('Pending', `{ state: ${STATE} }`),
  ],
  'a generic wrapper given the list (`Frozen<Pending[]>`)': [
    lines(PENDING, 'type Frozen<L> = Readonly<L>;'),
    'export function ok(ps: Frozen<Pending[]>, i: Row) { ps[0].state.approve(i); }',
  ],
  "a class field's Record (`this.states[id]`)": [
    '',
    `export class Desk { private states: Record<string, ${STATE}> = {}; ok(id: string, i: Row) { this.states[id].approve(i); } }`,
  ],
  'a local held from an element (`const s = r[id]`)': [
    `type R = Record<string, ${STATE}>;`,
    'export function ok(r: R, id: string, i: Row) { const s = r[id]; s.approve(i); }',
  ],
};

describe('more type shapes holding the SDK state', () => {
  for (const [name, [decl, use]] of Object.entries(more)) it(`one sdk-approval finding: ${name}`, () => expect(lint({}, lines(SDK, decl, use))).toBe(1));
});

describe('a generic of another file', () => {
  it('one sdk-approval finding: a generic alias of another file given the state (`Box<RunState>`)', () =>
    expect(
      lint(
        { 'src/types.ts': 'export type Box<T> = { state: T };\n' },
        lines(SDK, "import type { Box } from './types.js';", `export function ok(p: Box<${STATE}>, i: Row) { p.state.approve(i); }`),
      ),
    ).toBe(1));
  it('one sdk-approval finding: a list alias of another file (`ps[0]`)', () =>
    expect(
      lint(
        { 'src/types.ts': lines(SDK, `export type States = ${STATE}[];`) },
        lines("import type { States } from './types.js';", 'export function ok(ps: States, i: Row) { ps[0].approve(i); }'),
      ),
    ).toBe(1));
  it('one sdk-approval finding: a list alias of another file read through a namespace import (`t.States`)', () =>
    expect(
      lint(
        { 'src/types.ts': lines(SDK, `export type States = ${STATE}[];`) },
        lines("import type * as t from './types.js';", 'export function ok(ps: t.States, i: Row) { ps[0].approve(i); }'),
      ),
    ).toBe(1));
  it("one sdk-approval finding: an index signature of another file's interface", () =>
    expect(
      lint(
        { 'src/types.ts': lines(SDK, `export interface States { [id: string]: ${STATE} }`) },
        lines("import type { States } from './types.js';", 'export function ok(r: States, id: string, i: Row) { r[id].approve(i); }'),
      ),
    ).toBe(1));
});

/** The same shapes holding the app's own `RunState` (a workflow engine's): no answer. */
const own: Record<string, [Record<string, string>, string]> = {
  'an intersection': [ENGINE, lines(OWN, 'type P = { id: string } & { state: RunState };', 'export function ok(p: P, i: Row) { p.state.approve(i); }')],
  'a nested object member': [ENGINE, lines(OWN, 'interface P { job: { state: RunState } }', 'export function ok(p: P, i: Row) { p.job.state.approve(i); }')],
  'an array element': [ENGINE, lines(OWN, 'interface P { state: RunState }', 'export function ok(ps: P[], i: Row) { ps[0].state.approve(i); }')],
  'a Record': [ENGINE, lines(OWN, "export function ok(r: Record<string, RunState>, i: Row) { r['a'].approve(i); }")],
  'a Readonly wrapper': [ENGINE, lines(OWN, 'type P = Readonly<{ state: RunState }>;', 'export function ok(p: P, i: Row) { p.state.approve(i); }')],
  "a parameter typed `P['state']`": [ENGINE, lines(OWN, 'interface P { state: RunState }', "export function ok(s: P['state'], i: Row) { s.approve(i); }")],
  "a generic given the app's state over an SDK default": [
    { ...ENGINE, 'src/types.ts': lines(SDK, `export interface Box<T = ${STATE}> { state: T }`) },
    lines(OWN, "import type { Box } from './types.js';", 'export function ok(p: Box<RunState>, i: Row) { p.state.approve(i); }'),
  ],
  "a generic whose parameter is named RunState, given the app's state": [
    { ...ENGINE, 'src/types.ts': lines(SDK, 'export interface Box<RunState> { state: RunState }') },
    lines(
      "import type { RunState as Mine } from './engine.js';",
      "import type { Box } from './types.js';",
      'export function ok(p: Box<Mine>, i: Row) { p.state.approve(i); }',
    ),
  ],
  "a tuple of the app's states": [ENGINE, lines(OWN, 'export function ok(ps: [RunState, RunState], i: Row) { ps[0].approve(i); }')],
};

describe("the app's own RunState in a type shape is no answer", () => {
  for (const [name, [files, server]] of Object.entries(own)) it(`no sdk-approval finding: ${name}`, () => expect(lint(files, server)).toBe(0));
});
