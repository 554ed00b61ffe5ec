import { describe, expect, it } from 'vitest';
import { run } from '../../src/runtime/index.js';
import { agentWith, assistantMessage, refundCall, refundTool, scripted, setup } from './helpers.js';

const SMALL = { payment_id: 'pay_1', amount: 5_000 }; // allow band

/** Issue 21, item 4: `run(agent, input)` with no context is refused, and the developer is told once. */
describe('the first refusal for want of a principal is told to the developer, once per control', () => {
  it('two runs with no context: every call refused (no_principal), one line naming the missing context', async () => {
    const lines: string[] = [];
    const s = setup({ notice: (line) => lines.push(line) });
    const { tool, calls } = refundTool(s);
    for (const id of ['c1', 'c2']) {
      const model = scripted([refundCall(SMALL, id)], [assistantMessage('cannot')]);
      const result = await run(agentWith(model, [tool]), 'refund pay_1');
      expect(result.finalOutput).toBe('cannot');
    }
    expect(calls).toEqual([]);
    expect((await s.store.listReceipts()).map((r) => r.reason)).toEqual(['no_principal', 'no_principal']);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('refused (no_principal)');
    expect(lines[0]).toContain('run() was called without `context`');
    expect(lines[0]).toContain("{ context: { user: '<id>' } }");
  });

  it('a context without the principal: the line does not blame a missing context; a second control tells its own', async () => {
    const first: string[] = [];
    const second: string[] = [];
    const a = setup({ notice: (line) => first.push(line) });
    const b = setup({ notice: (line) => second.push(line) });
    for (const [s, id] of [
      [a, 'c1'],
      [b, 'c2'],
    ] as const) {
      const { tool } = refundTool(s);
      await run(agentWith(scripted([refundCall(SMALL, id)], [assistantMessage('no')]), [tool]), 'refund', { context: { tenant: 'acme' } as never });
    }
    expect(first).toHaveLength(1);
    expect(second).toHaveLength(1);
    expect(first[0]).toContain('returned no principal.');
    expect(first[0]).not.toContain('without `context`');
  });

  it('a run with a principal says nothing', async () => {
    const lines: string[] = [];
    const s = setup({ notice: (line) => lines.push(line) });
    const { tool, calls } = refundTool(s);
    await run(agentWith(scripted([refundCall(SMALL, 'c1')], [assistantMessage('done')]), [tool]), 'refund', { context: { user: 'alice' } });
    expect(calls).toHaveLength(1);
    expect(lines).toEqual([]);
  });
});
