import { describe, expect, it } from 'vitest';
import { lines, lintSource } from './rule-tester.js';

/**
 * Red team (session 22, scan/map-values.ts `mapValueType`): a map's value is read only for a type
 * written literally `Map<K, V>` / `ReadonlyMap<K, V>` or `new Map<K, V>()`. Sessions kept per
 * connection in a `WeakMap<Socket, RealtimeSession>`, or a map typed through a file-local alias
 * (`type Sessions = Map<string, RealtimeSession>`, as the written-type rule already reads for the
 * SDK's own names) are not read: the answer is not reported (a silent break where the tools are
 * protected). Control: the same layout with `new Map<…>` is reported.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import { RealtimeSession } from '@openai/agents/realtime';";
const findings = (code: string) => lintSource(lines(GEN, SDK, code), { ruleId: 'sdk-approval' });

describe("an SDK session read from a class's map", () => {
  it('control: `new Map<string, RealtimeSession>()` is reported', () => {
    expect(
      findings(
        'export class Desk { private sessions = new Map<string, RealtimeSession>(); go(id: string, step: Step) { this.sessions.get(id)!.approve(step); } }',
      ),
    ).toHaveLength(1);
  });

  it('`new WeakMap<Socket, RealtimeSession>()` is reported', () => {
    expect(
      findings(
        'export class Desk { private sessions = new WeakMap<object, RealtimeSession>(); go(ws: object, step: Step) { this.sessions.get(ws)!.approve(step); } }',
      ),
    ).toHaveLength(1);
  });

  it('a field typed with a file-local alias of `Map<string, RealtimeSession>` is reported', () => {
    expect(
      findings(
        'type Sessions = Map<string, RealtimeSession>; export class Desk { private sessions: Sessions = new Map(); go(id: string, step: Step) { this.sessions.get(id)!.approve(step); } }',
      ),
    ).toHaveLength(1);
  });
});
