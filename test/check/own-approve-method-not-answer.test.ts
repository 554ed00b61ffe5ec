import { describe, expect, it } from 'vitest';
import { lines, lintSource } from './rule-tester.js';

/**
 * Red team 21b, "no false alarm" (issue 40 item 3). Code shape: a chat session class that already
 * does what the rule's hint says. Its own `approve(item)` method answers through the Control
 * (`control.approve(this.state!, item, { approver })`), and `approveAll()` calls it for each item
 * of its typed field `private pending: RunToolApprovalItem[]`: `for (const i of this.pending) await
 * this.approve(i)`. Wrapping the answer in a method of one's own class is the ordinary way to
 * write it. Session 21 reads the field's written type, so the item is an SDK item, and any
 * `.approve(item)` of one is reported, even `this.approve(i)` whose body is in the same class
 * and calls the Control: the user did the migration and check stays red. Control: the same class
 * whose `approve` calls `this.state!.approve(i)` is reported at that line only.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState, RunToolApprovalItem } from '@openai/agents';";
const desk = (body: string) =>
  lines(
    GEN,
    SDK,
    'export class Desk {',
    '  private state?: RunState<any, any>;',
    '  private pending: RunToolApprovalItem[] = [];',
    `  async approve(i: RunToolApprovalItem) { ${body} }`,
    '  async approveAll() { for (const i of this.pending) await this.approve(i); }',
    '}',
  );
const lineCols = (code: string) => lintSource(code, { ruleId: 'sdk-approval' }).map((f) => `${f.line}`);

describe("a class's own approve method that answers through the Control", () => {
  it('no sdk-approval finding at `this.approve(i)`', () => {
    expect(lineCols(desk('await control.approve(this.state!, i, { approver: "ana" });'))).toEqual([]);
  });
  it('control: the method answering through the SDK is reported in its body (line 6)', () => {
    expect(lineCols(desk('this.state!.approve(i);'))).toContain('6');
  });
});
