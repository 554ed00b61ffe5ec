import { describe, expect, it } from 'vitest';
import { lines, lintSource } from './rule-tester.js';

/**
 * Red team 21b, "no false alarm" (issue 40 item 3). Code shape: an app whose OWN types share a name
 * with the SDK's: a workflow engine's `RunState` (`import type { RunState } from './workflow.js'`, or
 * a class declared in the file) whose steps the app approves with `this.state.approve(step)`; a
 * local `type RunState = { approve(id) }` used as an interface member; a voice app's own
 * `RealtimeSession` wrapper (`./voice.js`) kept in `useRef`; an admin page's REST row type named
 * `ToolApprovalItem` (`./api/approvals.js`) kept in `useState` and sent with `api.approve(row)`.
 * The names are ordinary in an app that runs agents. Session 21's field / member / React readers
 * match the written type's TEXT against the SDK's names and never ask where the name comes from
 * (approval-parameters.ts does, through the file's imports of the SDK), so each is reported as the
 * SDK's answer. Control: the same shapes with the names imported from '@openai/agents' are reported.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const findings = (code: string) => lintSource(code, { ruleId: 'sdk-approval' }).map((f) => `${f.line}:${f.column} ${f.message}`);

const cases = (from: string): Record<string, string> => ({
  'a class field typed RunState': lines(
    GEN,
    `import type { RunState } from '${from}';`,
    'export class Steps { private state: RunState<any, any>; go(step: Step) { this.state.approve(step); } }',
  ),
  'an interface member typed RunState': lines(
    GEN,
    `import type { RunState } from '${from}';`,
    'interface Job { state: RunState<any, any>; step: Step } export function go(job: Job) { job.state.approve(job.step); }',
  ),
  'a useRef of RealtimeSession': lines(
    GEN,
    `import type { RealtimeSession } from '${from}';`,
    'const ref = useRef<RealtimeSession>(null); ref.current.approve(ticket);',
  ),
  'a local made by `new RealtimeSession()`': lines(
    GEN,
    `import { RealtimeSession } from '${from}';`,
    'export function ok(ticket: Ticket) { const voice = new RealtimeSession(agent); voice.approve(ticket); }',
  ),
  'a local restored by `RunState.fromString`': lines(
    GEN,
    `import { RunState } from '${from}';`,
    'export async function ok(step: Step) { const state = await RunState.fromString(flow, saved); state.approve(step); }',
  ),
  'a useState of ToolApprovalItem': lines(
    GEN,
    `import type { ToolApprovalItem } from '${from}';`,
    'const [row] = useState<ToolApprovalItem | null>(null); api.approve(row);',
  ),
});

describe("an app's own types named like the SDK's are the app's", () => {
  for (const [name, code] of Object.entries(cases('./workflow.js'))) {
    it(`no sdk-approval finding: ${name}`, () => {
      expect(findings(code)).toEqual([]);
    });
  }
  it('no sdk-approval finding: a RunState class declared in the file, in a field', () => {
    expect(
      findings(lines(GEN, 'class RunState { approve(step: Step) {} }', 'export class Steps { private s: RunState; go(step: Step) { this.s.approve(step); } }')),
    ).toEqual([]);
  });
  it("no sdk-approval finding: a constructor parameter property typed with the app's RunState", () => {
    expect(
      findings(
        lines(
          GEN,
          "import type { RunState } from './jobs.js';",
          'export class Q { constructor(private readonly state: RunState) {} ok(id: string) { this.state.approve(id); } }',
        ),
      ),
    ).toEqual([]);
  });
  it('no sdk-approval finding: a local type alias RunState as an interface member', () => {
    expect(
      findings(
        lines(
          GEN,
          'type RunState = { approve(id: string): Promise<void> };',
          'interface Job { state: RunState; id: string } export function go(job: Job) { job.state.approve(job.id); }',
        ),
      ),
    ).toEqual([]);
  });
});

describe("control: the same shapes with the SDK's types are reported", () => {
  it('one sdk-approval finding: a field typed through a namespace import of the SDK', () => {
    const code = lines(
      GEN,
      "import * as agents from '@openai/agents';",
      'export class S { private state?: agents.RunState<any, any>; go(r: Row) { this.state!.approve(r); } }',
    );
    expect(findings(code)).toHaveLength(1);
  });
  it("no sdk-approval finding: the same name through a namespace import of the app's module", () => {
    const code = lines(
      GEN,
      "import * as agents from './workflow.js';",
      'export class S { private state?: agents.RunState<any, any>; go(r: Row) { this.state!.approve(r); } }',
    );
    expect(findings(code)).toEqual([]);
  });
  for (const [name, code] of Object.entries(cases('@openai/agents'))) {
    it(`one sdk-approval finding: ${name}`, () => {
      expect(findings(code)).toHaveLength(1);
    });
  }
});
