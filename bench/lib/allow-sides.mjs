// The tools of the profiling harnesses (profile-protected, profile-stages, profile-core), one a side:
// `plain`, a tool(); `gated`, a tool() whose input guardrail and needsApproval do nothing (what the
// SDK itself costs for the two hooks a protected tool uses); `protected`, a protected tool on a
// memory store, the decision log on; and two that write less, to say what each write costs:
// `nolog` (decisionLog: false) and `nowrite` (no log, and a store whose receipt write only numbers
// the receipt: no copy, no canonical JSON, no hash). Each allows the bench's refund call.
import { tool } from '@openai/agents';
import { z } from 'zod';
import { bindProtectedTool, createControl, memoryStore } from '../../dist/runtime/index.js';

export const SIDES = ['plain', 'gated', 'protected', 'nolog', 'nowrite'];

const policy = {
  hash: 'b'.repeat(64),
  mode: 'enforce',
  actions: {
    'stripe.refund': {
      id: 'stripe.refund',
      decide: (args) =>
        typeof args?.amount === 'number' && args.amount <= 100000
          ? { decision: 'allow', rule: 0, reason: 'rule_matched' }
          : { decision: 'deny', rule: 1, reason: 'rule_matched' },
      controls: [],
      approvalsRequired: 1,
      maxAttempts: 1,
    },
  },
  tools: { refund: 'stripe.refund' },
};
const parameters = z.object({ payment_id: z.string(), amount: z.number().int() });
const execute = async () => 'refunded';
const allowGuardrail = { type: 'tool_input', name: 'noop', run: async () => ({ behavior: { type: 'allow' } }) };

function noWriteStore() {
  const store = memoryStore();
  let seq = 0;
  store.appendReceipt = async (body) => ({ ...body, seq: ++seq, prev_hash: '', hash: '' });
  return store;
}

const protectedWith = (options) =>
  bindProtectedTool(createControl({ identity: (rc) => rc.context.user, receiptKey: null, ...options }), policy)('stripe.refund', {
    name: 'refund',
    description: 'refund',
    parameters,
    execute,
  });

/** A new tool of one side (each call: a new control and store). */
export function sideTool(side) {
  switch (side) {
    case 'plain':
      return tool({ name: 'refund', description: 'refund', parameters, execute });
    case 'gated':
      return tool({ name: 'refund', description: 'refund', parameters, inputGuardrails: [allowGuardrail], needsApproval: async () => false, execute });
    case 'protected':
      return protectedWith({ store: memoryStore() });
    case 'nolog':
      return protectedWith({ store: memoryStore(), decisionLog: false });
    case 'nowrite':
      return protectedWith({ store: noWriteStore(), decisionLog: false });
    default:
      throw new Error(`unknown side ${side}: one of ${SIDES.join(', ')}`);
  }
}
