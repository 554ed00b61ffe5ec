import { describe, expect, it } from 'vitest';
import { lines, lintSource } from './rule-tester.js';

/**
 * Red team (session 22, scan/this-fields.ts `thisClassAt`): `this` names the nearest enclosing
 * class "with only arrow functions between", but a method of an object literal (or a static method)
 * rebinds `this` too: the loop stops at a `function` only. Inside `{ state: engine, go(step) {
 * this.state.approve(step) } }` written in a class method, `this.state` is the object's own
 * `state` (the app's engine), not the class's RunState field; the session's new readers
 * (`const { state } = this`, `this.sessions.get(id)`) inherit the same reading. Each is reported
 * as an SDK answer: a false alarm. Control: the same call in the class method itself is reported.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import { RealtimeSession, type RunState } from '@openai/agents';";
const findings = (code: string) => lintSource(lines(GEN, SDK, code), { ruleId: 'sdk-approval' });

describe("`this` of an object literal's method in a class with an SDK field of the same name", () => {
  it('control: `this.state.approve` in the class method is reported', () => {
    expect(findings('export class Desk { private state?: RunState<any, any>; go(step: Step) { this.state!.approve(step); } }')).toHaveLength(1);
  });

  it("no finding: `this.state` in an object literal's method", () => {
    expect(
      findings(
        'export class Desk { private state?: RunState<any, any>; routes() { return { state: engine, go(step: Step) { this.state.approve(step); } }; } }',
      ),
    ).toEqual([]);
  });

  it("no finding: `const { state } = this` in an object literal's method", () => {
    expect(
      findings(
        'export class Desk { private state?: RunState<any, any>; routes() { return { state: engine, go(step: Step) { const { state } = this; state.approve(step); } }; } }',
      ),
    ).toEqual([]);
  });

  it("no finding: `this.sessions.get(id)` in an object literal's method", () => {
    expect(
      findings(
        'export class Desk { private sessions = new Map<string, RealtimeSession>(); routes() { return { sessions: engines, go(id: string, step: Step) { this.sessions.get(id)!.approve(step); } }; } }',
      ),
    ).toEqual([]);
  });

  it("no finding: `this.state` in an object literal's getter or setter", () => {
    expect(
      findings(
        'export class Desk { private state?: RunState<any, any>; routes() { return { state: engine, get go() { return this.state.approve(step); }, set to(step: Step) { this.state.approve(step); } }; } }',
      ),
    ).toEqual([]);
  });

  it('no finding: `this.state` in a static block', () => {
    expect(findings('export class Desk { state?: RunState<any, any>; static state = engine; static { this.state.approve(step); } }')).toEqual([]);
  });

  it('control: `this.state` in an arrow function of a class method keeps the instance', () => {
    expect(findings('export class Desk { private state?: RunState<any, any>; go(step: Step) { return () => this.state!.approve(step); } }')).toHaveLength(1);
  });

  it('no finding: `this.state` in a static method, where a static field of the app shares the name', () => {
    expect(findings('export class Desk { state?: RunState<any, any>; static state = engine; static go(step: Step) { this.state.approve(step); } }')).toEqual(
      [],
    );
  });
});
