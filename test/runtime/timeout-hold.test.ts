import { describe, expect, it } from 'vitest';
import { run } from '../../src/runtime/index.js';
import { z } from 'zod';
import { agentWith, assistantMessage, functionCall, scripted, setup, toolOutputSeen } from './helpers.js';

// Issue 14.8: `timeoutMs` on a tool with no `effect`: the model read "timed out", called again, and
// the body ran twice at once. A timed-out body still holds its call until it settles.

const SMALL = { payment_id: 'pay_1', amount: 500 };
const call = (args: Record<string, unknown>, callId: string) => functionCall('pay', args, { callId });

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('a timed-out body keeps holding its call (issue 14.8)', () => {
  it('the retry after a timeout is refused while the first body runs; the model reads why; after it settles, a call runs', async () => {
    const s = setup();
    const first = gate();
    let running = 0;
    let maxRunning = 0;
    let settled!: () => void;
    const firstDone = new Promise<void>((resolve) => (settled = resolve));
    const calls: Array<{ amount: number }> = [];
    // an action with no `effect:` (the helpers' stripe.charge.read allows every call)
    const tool = s.protectedTool('stripe.charge.read', {
      name: 'pay',
      description: 'Pay out',
      parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
      timeoutMs: 50,
      execute: async (args) => {
        const isFirst = calls.push(args) === 1;
        running++;
        maxRunning = Math.max(maxRunning, running);
        if (isFirst) await first.opened;
        running--;
        if (isFirst) settled();
        return 'paid';
      },
    });
    const model = scripted([call(SMALL, 'c1')], [call(SMALL, 'c2')], [call({ ...SMALL, amount: 501 }, 'c3')], [assistantMessage('done')]);
    const result = await run(agentWith(model, [tool]), 'pay', { context: { user: 'alice' } });
    expect(result.finalOutput).toBe('done');
    expect(toolOutputSeen(model, 1, 'c1')).toMatch(/timed out/);
    expect(toolOutputSeen(model, 2, 'c2')).toContain('an earlier call with the same arguments timed out and its body is still running');
    // other arguments are another call: not held
    expect(toolOutputSeen(model, 3, 'c3')).toBe('paid');
    expect(calls.map((c) => c.amount)).toEqual([500, 501]);
    const receipts = await s.store.listReceipts();
    expect(receipts.filter((r) => r.call_id === 'c2').map((r) => [r.result, r.reason])).toEqual([['refused', 'still_running']]);

    first.open();
    await firstDone;
    await new Promise((r) => setTimeout(r, 20));
    const again = scripted([call(SMALL, 'c4')], [assistantMessage('ok')]);
    await run(agentWith(again, [tool]), 'pay', { context: { user: 'alice' } });
    expect(toolOutputSeen(again, 1, 'c4')).toBe('paid');
    expect(calls).toHaveLength(3);
    expect(maxRunning).toBe(2); // the 500 body and the 501 body; never two 500 bodies at once
  });
});
