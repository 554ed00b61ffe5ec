import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bindProtectedTool, createControl, memoryStore, run, type CompiledPolicy } from '../../src/runtime/index.js';
import { agentWith, assistantMessage, functionCall, scripted, toolOutputSeen } from '../runtime/helpers.js';

/**
 * PENDING (red team, session 19). SPEC §5.9: every decision and outcome appends one receipt. A call
 * whose arguments a JSON-schema tool refuses gets a `refused` / `invalid_arguments:…` receipt
 * (core/gate.ts, refuseInvalid), but one a zod tool refuses gets none: the guardrail lets it through
 * ("the SDK refuses it before the body", gate.ts checkCall) and the SDK's parse error becomes model
 * text. Nothing runs (right), yet the store has no trace of the call: an audit of the receipts
 * cannot tell that the model tried a transfer to `5`.
 */
const compiled = {
  hash: `sha256:${'e'.repeat(64)}`,
  mode: 'enforce',
  actions: {
    'bank.transfer': {
      id: 'bank.transfer',
      decide: () => ({ decision: 'allow', rule: 0, reason: 'rule[0]' }),
      controls: [],
      approvalsRequired: 1,
      maxAttempts: null,
    },
  },
  tools: { transfer: 'bank.transfer' },
} as unknown as CompiledPolicy;

describe('a call a zod tool refuses: a receipt, as for a JSON-schema tool', () => {
  it('{ to: 5 } for z.string(): nothing runs, the model is told, and a refused receipt is written', async () => {
    const store = memoryStore();
    const control = createControl({ store, identity: () => 'alice' });
    const protectedTool = bindProtectedTool<'bank.transfer'>(control, compiled);
    let ran = 0;
    const transfer = protectedTool('bank.transfer', {
      name: 'transfer',
      description: 'Send money.',
      parameters: z.object({ to: z.string() }),
      execute: async () => {
        ran++;
        return 'sent';
      },
    });
    const model = scripted([functionCall('transfer', { to: 5 }, { callId: 'c1' })], [assistantMessage('done')]);
    await run(agentWith(model, [transfer]), 'pay');
    expect(ran).toBe(0);
    expect(toolOutputSeen(model, 1, 'c1')).toContain('did not run');
    const receipts = await store.listReceipts();
    expect(receipts.map((r) => [r.result, r.reason.split(':')[0]])).toEqual([['refused', 'invalid_arguments']]);
  });
});
