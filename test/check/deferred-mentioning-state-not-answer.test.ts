import { describe, expect, it } from 'vitest';
import { lines, lintSource } from './rule-tester.js';

/**
 * Red team 21b, "no false alarm" (issue 40 item 3). Code shape: an app that keeps a Promise's
 * `{ resolve, reject }` (a deferred) for a paused run, so that the person's answer can resume it:
 * `private resume?: { resolve: (s: RunState<…>) => void; reject: (e: Error) => void }`, or a
 * `Deferred<RunState<…>>` in a field, an interface member, a map's value or a `useRef`, and on
 * close or timeout `this.resume?.reject(err)`. A server or React page that waits for a human
 * writes this constantly. Session 21's written-type readers (this-fields.ts, written-members.ts,
 * react-state.ts) test the WHOLE written type's text against /RunState|RunContext|RealtimeSession/,
 * so a type that merely mentions `RunState` inside a callback's parameter or a generic argument is
 * taken for a RunState: `deferred.reject(err)` is reported as the SDK's answer (check red, and the
 * codemod keeps the tool as a conflict, see test/codemod/deferred-mentioning-state-no-conflict.test.ts).
 * Control: the same deferreds resolving with a `string` are not reported.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const findings = (code: string) => lintSource(code, { ruleId: 'sdk-approval' }).map((f) => `${f.line}:${f.column} ${f.message}`);

const shapes = (T: string): Record<string, string> => ({
  'a class field `{ resolve, reject }` whose resolve takes the state': lines(
    GEN,
    SDK,
    `export class Chat { private resume?: { resolve: (s: ${T}) => void; reject: (e: Error) => void }; close(err: Error) { this.resume?.reject(err); } }`,
  ),
  'a class field `Deferred<RunState>`': lines(GEN, SDK, `export class Chat { private next?: Deferred<${T}>; close(e: Error) { this.next?.reject(e); } }`),
  "an interface's member `Deferred<RunState>` beside a real `state: RunState`": lines(
    GEN,
    SDK,
    `interface Pending { state: ${T}; done: Deferred<${T}> }`,
    'export function cancel(p: Pending, err: Error) { p.done.reject(err); }',
  ),
  "a map's value member `Deferred<RunState>`": lines(
    GEN,
    SDK,
    `const waiting = new Map<string, { done: Deferred<${T}> }>();`,
    'export function cancel(id: string, err: Error) { const w = waiting.get(id)!; w.done.reject(err); }',
  ),
  'a `useRef<Deferred<RunState> | null>`': lines(GEN, SDK, `const next = useRef<Deferred<${T}> | null>(null); next.current?.reject(err);`),
});

describe('a deferred whose written type mentions RunState is not a RunState', () => {
  for (const [name, code] of Object.entries(shapes('RunState<any, any>'))) {
    it(`no sdk-approval finding: ${name}`, () => {
      expect(findings(code)).toEqual([]);
    });
  }
});

describe('control: the same deferreds of a string', () => {
  for (const [name, code] of Object.entries(shapes('string'))) {
    it(`no sdk-approval finding: ${name}`, () => {
      expect(findings(code)).toEqual([]);
    });
  }
  it('control: a field that IS a RunState is still reported', () => {
    expect(findings(lines(GEN, SDK, 'export class Chat { private state?: RunState<any, any>; go(item: Row) { this.state!.approve(item); } }'))).toHaveLength(1);
  });
});
