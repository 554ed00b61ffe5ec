import { describe, expect, it } from 'vitest';
import { lines, lintRepo, lintSource, testProject } from './rule-tester.js';

/**
 * Session 21b, "no false green" (issue 40 item 4). Code shape: the approval ITEMS kept for a
 * person's answer, in the holders a server or page uses beside session 21's new readers: a class
 * map by call id without a written field type (`private pending = new Map<string,
 * RunToolApprovalItem>()`, answered `session.approve(this.pending.get(id)!)`), a field typed with a
 * file's alias (`type Pending = RunToolApprovalItem`), a React list (`useState<RunToolApprovalItem[]>`,
 * answered `session.approve(queue[0])` or in a loop) where the session comes from the app's own
 * hook, and an interface declared in another file (`import type { PendingRun } from './types.js'`,
 * `p.state.approve(p.item)`). The receiver is not traceable in these, so only the item can tell,
 * and the item readers stop at a field's written type, a useState's first element as a single
 * item, and the file's own declarations: each answer was missed. Left (DECISIONS): a class map field without a
 * written type, and an interface declared in another file. Control: the same interface
 * declared in the file, and `private pending: RunToolApprovalItem[]` looped, are reported.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState, RunToolApprovalItem } from '@openai/agents';";
const count = (code: string) => lintSource(code, { ruleId: 'sdk-approval' }).length;

const missed: Record<string, string> = {
  "a field typed with the file's alias of the item": lines(
    GEN,
    SDK,
    'type Pending = RunToolApprovalItem;',
    'export class Desk { private pending: Pending[] = []; yes() { for (const i of this.pending) session.approve(i); } }',
  ),
  "a useState of the file's alias `type Interruption = RunToolApprovalItem`": lines(
    GEN,
    SDK,
    'type Interruption = RunToolApprovalItem;',
    'const [pending] = useState<Interruption | null>(null); box.approve(pending);',
  ),
  'a useState list of items, indexed': lines(
    GEN,
    SDK,
    'const [queue] = useState<RunToolApprovalItem[]>([]); const { session } = useVoice(); session.approve(queue[0]);',
  ),
  'a useState list of items, looped': lines(
    GEN,
    SDK,
    'const [queue] = useState<RunToolApprovalItem[]>([]); const { session } = useVoice(); for (const q of queue) session.approve(q);',
  ),
};

describe('approval items kept for an answer are SDK items', () => {
  for (const [name, code] of Object.entries(missed)) {
    it(`one sdk-approval finding: ${name}`, () => {
      expect(count(code)).toBe(1);
    });
  }
  it('control: the same interface declared in the file', () => {
    const files = {
      'src/agent.ts': lines(
        GEN,
        SDK,
        'interface PendingRun { state: RunState<any, any>; item: RunToolApprovalItem }',
        'export function yes(p: PendingRun) { p.state.approve(p.item); }',
      ),
    };
    expect(lintRepo(files, { project: testProject(), ruleId: 'sdk-approval', file: 'src/agent.ts' })).toHaveLength(1);
  });
  it('control: a field typed RunToolApprovalItem[], looped', () => {
    expect(
      count(lines(GEN, SDK, 'export class Desk { private pending: RunToolApprovalItem[] = []; yes() { for (const i of this.pending) session.approve(i); } }')),
    ).toBe(1);
  });
});
