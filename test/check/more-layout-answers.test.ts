import { describe, expect, it } from 'vitest';
import { lines, lintRepo, lintSource, testProject } from './rule-tester.js';

/**
 * Session 22, more answer layouts (issue 40 item 4, "the app keeps working"). Code shape: a server
 * or a voice page answering its interruptions through the SDK in layouts the readers left unseen:
 * a type-only import of the SDK's `RunState` through the app's own barrel, a field destructured
 * from `this` (`const { runs } = this; runs.get(id)!.state`) or from a field (`const { state } =
 * this.entry!`), a map made by `new Map()` with no type arguments whose values are the SDK's
 * sessions, a static field (`Desk.state`), and `import sdk = require('@openai/agents')` then a field
 * typed `sdk.RunState`. Each was a silent break (the codemod rewrote the tool, check stayed green,
 * every approved call refused). Control (no false alarm): the same layouts over the app's own
 * types of the same names give no finding.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK =
  "import { type RunResult, type RunState, type RunToolApprovalItem } from '@openai/agents';\nimport { RealtimeSession } from '@openai/agents/realtime';";
const OWN = "import type { RunResult, RunState, RunToolApprovalItem } from './jobs.js';\nimport { RealtimeSession } from './voice.js';";
const count = (code: string) => lintSource(code, { ruleId: 'sdk-approval' }).length;

const layouts: Record<string, string> = {
  '`const { runs } = this; runs.get(id)!.state`':
    'export class Desk { private runs = new Map<string, RunResult<any, any>>(); ok(id: string, x: Row) { const { runs } = this; runs.get(id)!.state.approve(x); } }',
  '`const { sessions } = this; sessions.get(id)!` of a typed field':
    'export class Desk { private sessions: Map<string, RealtimeSession> = new Map(); ok(id: string, x: Row) { const { sessions } = this; sessions.get(id)!.approve(x); } }',
  '`const { state } = this.entry!` of a field typed with an object type':
    'export class Desk { private entry?: { state: RunState<any, any> }; ok(x: Row) { const { state } = this.entry!; state.approve(x); } }',
  '`const { state } = this.last!` of `last?: RunResult`':
    'export class Desk { private last?: RunResult<any, any>; ok(x: Row) { const { state } = this.last!; state.approve(x); } }',
  '`const { item } = this.entry!` of a field typed with an object type':
    'export class Desk { private entry?: { item: RunToolApprovalItem }; ok() { const { item } = this.entry!; box.approve(item); } }',
  'a static field read by the class name inside the class':
    'export class Desk { static state?: RunState<any, any>; static ok(x: Row) { Desk.state!.approve(x); } }',
  'a static field read by the class name outside the class':
    'export class Desk { static state?: RunState<any, any>; }\nexport function ok(x: Row) { Desk.state!.approve(x); }',
  'a static field read as `this.state` in a static method':
    'export class Desk { static state?: RunState<any, any>; static ok(x: Row) { this.state!.approve(x); } }',
  '`new Map()` whose values are set from `new RealtimeSession(…)`':
    'export class Voice { private sessions = new Map(); open(id: string) { this.sessions.set(id, new RealtimeSession(agent)); } ok(id: string, x: Row) { this.sessions.get(id)!.approve(x); } }',
  '`new Map()` whose values are set from a local made by `new RealtimeSession(…)`':
    'export class Voice { private sessions = new Map(); open(id: string) { const s = new RealtimeSession(agent); this.sessions.set(id, s); } ok(id: string, x: Row) { this.sessions.get(id)?.approve(x); } }',
};

describe('answers in the layouts the readers left unseen', () => {
  for (const [name, layout] of Object.entries(layouts)) {
    it(`one sdk-approval finding: ${name}`, () => {
      expect(count(lines(GEN, SDK, layout))).toBe(1);
    });
  }
});

describe('an untyped `new Map()` of items the class fills from a run', () => {
  it('one sdk-approval finding: `session.approve(this.pending.get(id)!)` of items set from `result.interruptions`', () => {
    const code = lines(
      GEN,
      SDK,
      'export class Desk { private pending = new Map(); hold(result: Res) { for (const i of result.interruptions) this.pending.set(i.name, i); } ok(id: string) { box.approve(this.pending.get(id)!); } }',
    );
    expect(count(code)).toBe(1);
  });
});

describe("control: the same layouts over the app's own types are no answers", () => {
  for (const [name, layout] of Object.entries(layouts)) {
    it(`no sdk-approval finding: ${name}`, () => {
      expect(count(lines(GEN, OWN, layout))).toBe(0);
    });
  }
  it('no sdk-approval finding: `new Map()` whose values are set from an app object', () => {
    const code = lines(
      GEN,
      SDK,
      'export class Voice { private sessions = new Map(); open(id: string) { this.sessions.set(id, new Client(id)); } ok(id: string, x: Row) { this.sessions.get(id)!.approve(x); } }',
    );
    expect(count(code)).toBe(0);
  });
  it("no sdk-approval finding: `new Map()` set in a plain function's own `this`, not the class's", () => {
    const code = lines(
      GEN,
      SDK,
      'export class Voice { private sessions = new Map(); open(id: string) { hook(function (this: Other) { this.sessions.set(id, new RealtimeSession(agent)); }); } ok(id: string, x: Row) { this.sessions.get(id)!.approve(x); } }',
    );
    expect(count(code)).toBe(0);
  });
  it('no sdk-approval finding: `new Map()` whose items are set from app rows', () => {
    const code = lines(
      GEN,
      SDK,
      'export class Desk { private pending = new Map(); hold(rows: Row[]) { for (const r of rows) this.pending.set(r.id, r); } ok(id: string) { box.approve(this.pending.get(id)!); } }',
    );
    expect(count(code)).toBe(0);
  });
  it('no sdk-approval finding: a static field of another class of the same name elsewhere (not this one)', () => {
    const code = lines(GEN, SDK, 'export class Desk { state?: RunState<any, any>; }', 'export function ok(x: Row) { Desk.state!.approve(x); }');
    expect(count(code)).toBe(0);
  });
});

describe('`import sdk = require(…)` of the SDK', () => {
  const field = 'export class Desk { private state?: sdk.RunState<any, any>; ok(x: Row) { this.state!.approve(x); } }';
  it('one sdk-approval finding: a field typed `sdk.RunState`', () => {
    expect(count(lines(GEN, "import sdk = require('@openai/agents');", field))).toBe(1);
  });
  it("no sdk-approval finding: the app's own module imported so", () => {
    expect(count(lines(GEN, "import sdk = require('./jobs.js');", field))).toBe(0);
  });
});

describe("a type-only import through the app's own barrel", () => {
  const uses: Record<string, string> = {
    'a class field': 'export class Desk { private state?: RunState<any, any>; ok(x: Row) { this.state!.approve(x); } }',
    'a local': 'export function ok(x: Row) { const state: RunState<any, any> = load(); state.approve(x); }',
    'a map field': 'export class Desk { private runs = new Map<string, RunState<any, any>>(); ok(id: string, x: Row) { this.runs.get(id)!.approve(x); } }',
  };
  const barrels: Record<string, string> = {
    'export *': "export * from '@openai/agents';\n",
    'a named re-export': "export { RunState } from '@openai/agents';\n",
  };
  const lint = (barrel: string, importLine: string, use: string) =>
    lintRepo({ 'src/sdk.ts': barrel, 'src/agent.ts': lines(GEN, importLine, use) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/agent.ts' })
      .length;
  for (const [useName, use] of Object.entries(uses))
    for (const [barrelName, barrel] of Object.entries(barrels)) {
      it(`one sdk-approval finding: ${useName}, \`import type\` (${barrelName})`, () => {
        expect(lint(barrel, "import type { RunState } from './sdk.js';", use)).toBe(1);
      });
      it(`one sdk-approval finding: ${useName}, \`import { type RunState }\` (${barrelName})`, () => {
        expect(lint(barrel, "import { type RunState } from './sdk.js';", use)).toBe(1);
      });
    }
  for (const [useName, use] of Object.entries(uses))
    it(`no sdk-approval finding: ${useName}, the barrel's own RunState`, () => {
      expect(
        lint(
          "export { Agent, run } from '@openai/agents';\nexport class RunState<A, B> { approve(x: unknown) {} }\n",
          "import type { RunState } from './sdk.js';",
          use,
        ),
      ).toBe(0);
    });
});
