import { describe, expect, it } from 'vitest';
import { run } from '../../src/runtime/index.js';
import { agentWith, assistantMessage, refTool, refundCall, scripted, setup } from './helpers.js';

const BEYOND = (id: string) => `{"payment_id":"pay_${id}","amount":500000,"ref":9007199254740993}`; // approve band
const EXACT = (id: string) => `{"payment_id":"pay_${id}","amount":500000,"ref":7}`;

/** Issue 21, item 5: a pause that cannot be filed where it pauses is told to the developer, once per control. */
describe('a paused call the control cannot file at the pause is told to the developer, once', () => {
  it('two such pauses: nothing filed, one line naming the action and control.request', async () => {
    const lines: string[] = [];
    const s = setup({ notice: (line) => lines.push(line) });
    const { tool, calls } = refTool(s);
    for (const id of ['c1', 'c2']) {
      const paused = await run(agentWith(scripted([refundCall(BEYOND(id), id)], [assistantMessage('done')]), [tool]), 'refund', {
        context: { user: 'alice' },
      });
      expect(paused.interruptions).toHaveLength(1);
    }
    expect(calls).toEqual([]);
    expect(await s.store.listRequests()).toEqual([]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('a call to stripe.refund paused');
    expect(lines[0]).toContain('integer beyond 2^53');
    expect(lines[0]).toContain('control.request(result.state)');
  });

  it('a pause filed where it pauses says nothing', async () => {
    const lines: string[] = [];
    const s = setup({ notice: (line) => lines.push(line) });
    const { tool } = refTool(s);
    await run(agentWith(scripted([refundCall(EXACT('c3'), 'c3')], [assistantMessage('done')]), [tool]), 'refund', { context: { user: 'alice' } });
    expect((await s.store.listRequests()).map((r) => r.callId)).toEqual(['c3']);
    expect(lines).toEqual([]);
  });
});
