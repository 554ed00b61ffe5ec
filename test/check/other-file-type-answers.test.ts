import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Session 23, answers whose receiver's type is written in another file of the app (issue 40 item 4,
 * "the app keeps working"). Code shape: a server keeps its paused runs in a type its `types.ts`
 * declares (`export interface Pending { state: RunState }`), or re-exports the SDK's types from its
 * own `sdk.ts` (`export type { RunState } from '@openai/agents'`), and answers `p.state.approve(i)`.
 * Each was a silent break (the readers followed a type only inside the file). Control (no false
 * alarm): the same layouts where the other file's type is the app's own give no finding, and a
 * barrel's own `RunState` shadows its `export *` of the SDK.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK_TYPE = "import type { RunState } from '@openai/agents';";
const SDK_VALUE = "import { RunState } from '@openai/agents';";
const OWN = "import type { RunState } from './engine.js';";
const ENGINE = 'export interface RunState { approve(x: unknown): void }\n';

const lint = (files: Record<string, string>, server: string) =>
  lintRepo(
    { 'src/engine.ts': ENGINE, ...files, 'src/server.ts': lines(GEN, server) },
    { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' },
  ).length;

/** Layouts: the other file's text (given its import of RunState) and the server's. */
const layouts: Record<string, { types: (imp: string) => string; server: string }> = {
  'a parameter typed with an interface of another file': {
    types: (imp) => lines(imp, 'export interface Pending { state: RunState<any, any>; note: string }'),
    server: "import type { Pending } from './types.js';\nexport function ok(p: Pending, i: Row) { p.state.approve(i); }",
  },
  'a parameter typed with a type alias of another file': {
    types: (imp) => lines(imp, 'export type Pending = { state: RunState<any, any> };'),
    server: "import type { Pending } from './types.js';\nexport function ok(p: Pending, i: Row) { p.state.approve(i); }",
  },
  'a value import of the type': {
    types: (imp) => lines(imp, 'export interface Pending { state: RunState<any, any> }'),
    server: "import { Pending } from './types.js';\nexport function ok(p: Pending, i: Row) { p.state.approve(i); }",
  },
  'a parameter typed with a class of another file': {
    types: (imp) => lines(imp, 'export class Pending { state!: RunState<any, any>; note = 1 }'),
    server: "import type { Pending } from './types.js';\nexport function ok(p: Pending, i: Row) { p.state.approve(i); }",
  },
  'a class field typed with an interface of another file': {
    types: (imp) => lines(imp, 'export interface Pending { state: RunState<any, any> }'),
    server: "import type { Pending } from './types.js';\nexport class Desk { private job?: Pending; ok(i: Row) { this.job!.state.approve(i); } }",
  },
  'a class field typed with an alias of the state in another file': {
    types: (imp) => lines(imp, 'export type Paused = RunState<any, any>;'),
    server: "import type { Paused } from './types.js';\nexport class Desk { private state?: Paused; ok(i: Row) { this.state!.approve(i); } }",
  },
  'a type re-exported by a second file': {
    types: (imp) => lines(imp, 'export interface Pending { state: RunState<any, any> }'),
    server: "import type { Pending } from './index.js';\nexport function ok(p: Pending, i: Row) { p.state.approve(i); }",
  },
  'a namespace import of the types file': {
    types: (imp) => lines(imp, 'export interface Pending { state: RunState<any, any> }'),
    server: "import type * as t from './types.js';\nexport function ok(p: t.Pending, i: Row) { p.state.approve(i); }",
  },
};
const INDEX = "export type { Pending } from './types.js';\n";

describe('a receiver typed in another file of the app', () => {
  for (const [name, { types, server }] of Object.entries(layouts)) {
    it(`one sdk-approval finding: ${name} (import type from the SDK)`, () => {
      expect(lint({ 'src/types.ts': types(SDK_TYPE), 'src/index.ts': INDEX }, server)).toBe(1);
    });
    it(`one sdk-approval finding: ${name} (value import from the SDK)`, () => {
      expect(lint({ 'src/types.ts': types(SDK_VALUE), 'src/index.ts': INDEX }, server)).toBe(1);
    });
    it(`no sdk-approval finding: ${name}, the app's own RunState`, () => {
      expect(lint({ 'src/types.ts': types(OWN), 'src/index.ts': INDEX }, server)).toBe(0);
    });
  }
});

describe("the SDK's types through the app's own barrel", () => {
  const field = 'export class Desk { private state?: RunState<any, any>; ok(x: Row) { this.state!.approve(x); } }';
  const barrels: Record<string, string> = {
    '`export type { RunState } from`': "export type { RunState } from '@openai/agents';\n",
    '`export { type RunState } from`': "export { type RunState } from '@openai/agents';\n",
    'an import exported again by a list': "import type { RunState } from '@openai/agents';\nexport type { RunState };\n",
  };
  for (const [name, barrel] of Object.entries(barrels))
    it(`one sdk-approval finding: a field typed with the barrel's RunState (${name})`, () => {
      expect(lint({ 'src/sdk.ts': barrel }, lines("import type { RunState } from './sdk.js';", field))).toBe(1);
    });
  it('one sdk-approval finding: `import type * as sdk` of the barrel, a field typed `sdk.RunState`', () => {
    const server =
      "import type * as sdk from './sdk.js';\nexport class Desk { private state?: sdk.RunState<any, any>; ok(x: Row) { this.state!.approve(x); } }";
    expect(lint({ 'src/sdk.ts': "export * from '@openai/agents';\n" }, server)).toBe(1);
  });
  it("no sdk-approval finding: `import type * as sdk` of the app's own module", () => {
    const server = "import type * as sdk from './engine.js';\nexport class Desk { private state?: sdk.RunState; ok(x: Row) { this.state!.approve(x); } }";
    expect(lint({}, server)).toBe(0);
  });
});

describe("a barrel's own `RunState` beside its `export *` of the SDK (a local export wins)", () => {
  const BARREL = "export * from '@openai/agents';\nexport class RunState<A, B> { approve(x: unknown) {} }\n";
  const uses: Record<string, string> = {
    'a field typed with a type-only import': lines(
      "import type { RunState } from './sdk.js';",
      'export class Desk { private state?: RunState<any, any>; ok(x: Row) { this.state!.approve(x); } }',
    ),
    'a local made by `new` of a value import': lines(
      "import { RunState } from './sdk.js';",
      'export function ok(x: Row) { const state = new RunState<any, any>(); state.approve(x); }',
    ),
  };
  for (const [name, server] of Object.entries(uses)) {
    it(`no sdk-approval finding: ${name}`, () => {
      expect(lint({ 'src/sdk.ts': BARREL }, server)).toBe(0);
    });
    it(`one sdk-approval finding: ${name}, the barrel without its own class (control)`, () => {
      expect(lint({ 'src/sdk.ts': "export * from '@openai/agents';\n" }, server)).toBe(1);
    });
  }
});

describe('a field a base class of another file declares', () => {
  const BASE = (imp: string) =>
    lines(imp, 'export class BaseDesk { protected state?: RunState<any, any>; protected last?: RunResult<any, any>; protected item?: RunToolApprovalItem }');
  const SDK_BASE = "import type { RunResult, RunState, RunToolApprovalItem } from '@openai/agents';";
  const OWN_BASE = "import type { RunResult, RunState, RunToolApprovalItem } from './engine.js';";
  const uses: Record<string, string> = {
    '`this.state`': 'ok(i: Row) { this.state!.approve(i); }',
    '`this.last!.state` of a run result': 'ok(i: Row) { this.last!.state.approve(i); }',
    '`this.item` as the item': 'ok() { box.approve(this.item!); }',
  };
  const engine =
    'export interface RunState { approve(x: unknown): void }\nexport interface RunResult { state: RunState }\nexport interface RunToolApprovalItem { id: string }\n';
  for (const [name, method] of Object.entries(uses)) {
    const server = `import { BaseDesk } from './base.js';\nexport class Desk extends BaseDesk { ${method} }`;
    it(`one sdk-approval finding: ${name}`, () => {
      expect(lint({ 'src/base.ts': BASE(SDK_BASE) }, server)).toBe(1);
    });
    it(`no sdk-approval finding: ${name}, the base's own types`, () => {
      expect(lint({ 'src/base.ts': BASE(OWN_BASE), 'src/engine.ts': engine }, server)).toBe(0);
    });
  }
});

describe('a map type alias of another file (`type Runs = Map<string, RunState>`)', () => {
  const types = (imp: string) => lines(imp, 'export type Runs = Map<string, RunState<any, any>>;');
  const uses: Record<string, string> = {
    'a class field': 'export class Desk { private runs: Runs = new Map(); ok(id: string, i: Row) { this.runs.get(id)!.approve(i); } }',
    'a parameter': 'export function ok(runs: Runs, id: string, i: Row) { runs.get(id)!.approve(i); }',
  };
  for (const [name, use] of Object.entries(uses)) {
    const server = lines("import type { Runs } from './types.js';", use);
    it(`one sdk-approval finding: ${name}`, () => {
      expect(lint({ 'src/types.ts': types(SDK_TYPE) }, server)).toBe(1);
    });
    it(`no sdk-approval finding: ${name}, the app's own RunState`, () => {
      expect(lint({ 'src/types.ts': types(OWN) }, server)).toBe(0);
    });
  }
});
