import { describe, expect, it } from 'vitest';
import { lines, lintSource } from './rule-tester.js';

/**
 * Red team 21b, "no false green" (issue 40 item 4). Code shape: a chat or voice session kept in a
 * class, as session 21's this-fields.ts now reads it, but written in the other ordinary ways:
 * a field initialised without a written type (`private session = new RealtimeSession(agent)`,
 * `private state = RunState.fromString(agent, saved)` is a Promise: skipped), a getter
 * (`get state(): RunState<…>`), an ES private field (`#state?: RunState<…>`), a field declared in
 * a base class (`protected state?` in `BaseChat`), the run's result in a field
 * (`private last?: RunResult<…>` answered with `this.last!.state.approve(item)`), a map of results
 * or states in a field (`this.runs.get(id)!.state.approve(item)`), and the field destructured
 * (`const { state } = this`). thisFieldType reads only a PropertyDeclaration's (or parameter
 * property's) written type in the class itself, and `x.state` is followed only to a run() call or
 * a local typed RunResult, so each answer is missed: the codemod says 0 conflicts and check is
 * green while the app's answers authorize nothing. Control: `private state?: RunState<…>` with
 * `this.state!.approve(item)` is reported.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunResult, RunState } from '@openai/agents';";
const RT = "import { RealtimeSession } from '@openai/agents/realtime';";
const count = (code: string) => lintSource(code, { ruleId: 'sdk-approval' }).length;

const missed: Record<string, string> = {
  'a field initialised with new RealtimeSession(agent), no written type': lines(
    GEN,
    RT,
    'export class Voice { private session = new RealtimeSession(agent); yes(item: Ticket) { this.session.approve(item); } }',
  ),
  'a getter typed RunState': lines(
    GEN,
    SDK,
    'export class Desk { private s?: RunState<any, any>; get state(): RunState<any, any> { return this.s!; } go(item: Row) { this.state.approve(item); } }',
  ),
  'an ES private field #state': lines(GEN, SDK, 'export class Desk { #state?: RunState<any, any>; go(item: Row) { this.#state!.approve(item); } }'),
  'a field declared in the base class': lines(
    GEN,
    SDK,
    'class BaseChat { protected state?: RunState<any, any>; }',
    'export class Desk extends BaseChat { go(item: Row) { this.state!.approve(item); } }',
  ),
  "the run's result in a typed field: this.last!.state.approve(item)": lines(
    GEN,
    SDK,
    'export class Desk { private last?: RunResult<any, any>; go(item: Row) { this.last!.state.approve(item); } }',
  ),
  'a typed field map of states: this.runs.get(id)!.state.approve(item)': lines(
    GEN,
    SDK,
    'export class Desk { private runs: Map<string, { state: RunState<any, any> }> = new Map(); go(id: string, item: Row) { this.runs.get(id)!.state.approve(item); } }',
  ),
  'a field map of results made by new Map<string, RunResult>()': lines(
    GEN,
    SDK,
    'export class Desk { private runs = new Map<string, RunResult<any, any>>(); go(id: string, item: Row) { this.runs.get(id)!.state.approve(item); } }',
  ),
  'the field destructured: const { state } = this': lines(
    GEN,
    SDK,
    'export class Desk { private state?: RunState<any, any>; go(item: Row) { const { state } = this; state!.approve(item); } }',
  ),
};

describe("a session class's answers written in the other ordinary ways are the SDK's", () => {
  for (const [name, code] of Object.entries(missed)) {
    it(`one sdk-approval finding: ${name}`, () => {
      expect(count(code)).toBe(1);
    });
  }
  it('control: a field typed RunState, this.state!.approve(item)', () => {
    expect(count(lines(GEN, SDK, 'export class Desk { private state?: RunState<any, any>; go(item: Row) { this.state!.approve(item); } }'))).toBe(1);
  });
  it('control: the field read into a local, const s = this.state!', () => {
    expect(count(lines(GEN, SDK, 'export class Desk { private state?: RunState<any, any>; go(item: Row) { const s = this.state!; s.approve(item); } }'))).toBe(
      1,
    );
  });
});
