import { describe, expect, it } from 'vitest';
import { lines, lintSource } from './rule-tester.js';

/**
 * Session 22 (issue 40 item 4, "the app keeps working"). Code shape: a server or a voice page that
 * keeps its runs in a class, as session 21's red team left them: a field with no written type but
 * an initializer (`session = new RealtimeSession(agent)`, `runs = new Map<string, RunResult>()`
 * answered `this.runs.get(id)!.state.approve(item)`, `pending = new Map<string,
 * RunToolApprovalItem>()` answered `session.approve(this.pending.get(id)!)`), an ES private field
 * `#state`, a getter typed `RunState`, a field declared in a base class of the file, `this.last!.state`
 * of `last?: RunResult`, and `const { state } = this`. Each answer was unseen: the codemod rewrote
 * the tool and check stayed green while every approved call was refused. Control (no false alarm):
 * the same layouts over the app's own types named like the SDK's are not answers.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK =
  "import { type RunResult, type RunState, type RunToolApprovalItem } from '@openai/agents';\nimport { RealtimeSession } from '@openai/agents/realtime';\nimport * as rt from '@openai/agents/realtime';";
const OWN =
  "import type { RunResult, RunState, RunToolApprovalItem } from './jobs.js';\nimport { RealtimeSession } from './voice.js';\nimport * as rt from './voice.js';";
const count = (code: string) => lintSource(code, { ruleId: 'sdk-approval' }).length;

const layouts: Record<string, string> = {
  'a field made by `new RealtimeSession(agent)`':
    'export class Voice { private session = new RealtimeSession(agent); ok(x: Row) { this.session.approve(x); } }',
  'a field map of run results, `this.runs.get(id)!.state`':
    'export class Desk { private runs = new Map<string, RunResult<any, any>>(); ok(id: string, x: Row) { this.runs.get(id)!.state.approve(x); } }',
  'a field typed as a map of sessions, `this.sessions.get(id)!`':
    'export class Desk { private sessions: Map<string, RealtimeSession> = new Map(); ok(id: string, x: Row) { this.sessions.get(id)!.approve(x); } }',
  'a field map of items, `session.approve(this.pending.get(id)!)`':
    'export class Desk { private pending = new Map<string, RunToolApprovalItem>(); ok(id: string) { session.approve(this.pending.get(id)!); } }',
  'an ES private field `#state`': 'export class Desk { #state?: RunState<any, any>; ok(x: Row) { this.#state!.approve(x); } }',
  'a getter typed RunState': 'export class Desk { get state(): RunState<any, any> { return load(); } ok(x: Row) { this.state.approve(x); } }',
  'a field declared in a base class of the file':
    'class Base { protected state?: RunState<any, any>; }\nexport class App extends Base { ok(x: Row) { this.state!.approve(x); } }',
  'a field two base classes up':
    'class A { state?: RunState<any, any>; }\nclass B extends A {}\nexport class App extends B { ok(x: Row) { this.state!.approve(x); } }',
  '`this.last!.state` of `last?: RunResult`': 'export class Desk { private last?: RunResult<any, any>; ok(x: Row) { this.last!.state.approve(x); } }',
  '`const { state } = this`': 'export class Desk { private state?: RunState<any, any>; ok(x: Row) { const { state } = this; state!.approve(x); } }',
  '`const { state } = this` read in a nested function':
    'export class Desk { private state?: RunState<any, any>; ok(xs: Row[]) { const { state } = this; xs.forEach(function (x) { state!.approve(x); }); } }',
  '`this.entry!.state` of a field typed with an object type':
    'export class Desk { private entry?: { state: RunState<any, any> }; ok(x: Row) { this.entry!.state.approve(x); } }',
  '`pending.get(id)!.state` read in place':
    'const pending = new Map<string, { state: RunState<any, any> }>();\nexport function ok(id: string, x: Row) { pending.get(id)!.state.approve(x); }',
  'a field made by `new rt.RealtimeSession(agent)` of a namespace import':
    'export class Voice { private session = new rt.RealtimeSession(agent); ok(x: Row) { this.session.approve(x); } }',
  '`const { pending } = this` looped':
    'export class Desk { private pending: RunToolApprovalItem[] = []; ok() { const { pending } = this; for (const i of pending) box.approve(i); } }',
};

describe('answers through a class, in the layouts session 21 left', () => {
  for (const [name, layout] of Object.entries(layouts)) {
    it(`one sdk-approval finding: ${name}`, () => {
      expect(count(lines(GEN, SDK, layout))).toBe(1);
    });
  }
});

describe("control: the same layouts over the app's own types are no answers", () => {
  for (const [name, layout] of Object.entries(layouts)) {
    it(`no sdk-approval finding: ${name}`, () => {
      expect(count(lines(GEN, OWN, layout))).toBe(0);
    });
  }
  it('no sdk-approval finding: a RealtimeSession class declared in the file, made in a field', () => {
    const code = lines(
      GEN,
      'class RealtimeSession { approve(x: Row) {} }',
      'export class V { private s = new RealtimeSession(); ok(x: Row) { this.s.approve(x); } }',
    );
    expect(count(code)).toBe(0);
  });
  it("no sdk-approval finding: `const { state } = job` in a class with a field `state` (not this's)", () => {
    const code = lines(GEN, SDK, 'export class Desk { private state?: RunState<any, any>; ok(job: Job, x: Row) { const { state } = job; state.approve(x); } }');
    expect(count(code)).toBe(0);
  });
  it("no sdk-approval finding: a map's keys are not its items (`api.approve(this.pending.keys())`)", () => {
    const code = lines(GEN, SDK, 'export class Desk { private pending = new Map<string, RunToolApprovalItem>(); ok() { api.approve(this.pending.keys()); } }');
    expect(count(code)).toBe(0);
  });
  it('no sdk-approval finding: a base class imported from another module (not read)', () => {
    const code = lines(GEN, SDK, "import { Base } from './base.js';", 'export class App extends Base { ok(x: Row) { this.state!.approve(x); } }');
    expect(count(code)).toBe(0);
  });
  it('no sdk-approval finding: `const { state } = this` in a plain function (its own `this`)', () => {
    const code = lines(
      GEN,
      SDK,
      'export class Desk { private state?: RunState<any, any>; }',
      'export function ok(this: any, x: Row) { const { state } = this; state.approve(x); }',
    );
    expect(count(code)).toBe(0);
  });
});
