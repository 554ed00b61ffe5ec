// A profiling harness for this library's own per-call work, without the Runner (not a bench: it
// prints microseconds, no ratio). Drives a protected tool's three SDK hooks the way the Runner does
// for one allowed call (needsApproval, the input guardrail, invoke with details.toolCall) and the
// same hooks of a tool whose guardrail and needsApproval do nothing, alternating, so
// `node --cpu-prof bench/profile-core.mjs` shows where the difference goes. Imports from dist/.
import { RunContext, tool } from '@openai/agents';
import { z } from 'zod';
import { bindProtectedTool, createControl, memoryStore } from '../dist/runtime/index.js';

process.env.OPENAI_AGENTS_DISABLE_TRACING = '1';
const n = Number(process.argv[2] ?? 20000);
const only = process.argv[3];
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
const tools = {
  gated: tool({ name: 'refund', description: 'refund', parameters, inputGuardrails: [allowGuardrail], needsApproval: async () => false, execute }),
  protected: bindProtectedTool(createControl({ store: memoryStore(), identity: (rc) => rc.context.user, receiptKey: null }), policy)('stripe.refund', {
    name: 'refund',
    description: 'refund',
    parameters,
    execute,
  }),
};
async function once(t, i) {
  const context = new RunContext({ user: 'alice' });
  const args = `{"payment_id":"pay_${i}","amount":500}`;
  const toolCall = { type: 'function_call', callId: `c${i}`, name: 'refund', arguments: args, status: 'completed' };
  if (await t.needsApproval(context, JSON.parse(args), toolCall.callId)) throw new Error('needs approval');
  for (const g of t.inputGuardrails) if ((await g.run({ context, agent: undefined, toolCall })).behavior.type !== 'allow') throw new Error('refused');
  if ((await t.invoke(context, args, { toolCall })) !== 'refunded') throw new Error('did not run');
}
const names = only ? [only] : Object.keys(tools);
const ns = Object.fromEntries(names.map((k) => [k, 0]));
for (let i = 0; i < n; i++) {
  for (const k of names) {
    const t0 = process.hrtime.bigint();
    await once(tools[k], i);
    if (i >= n / 4) ns[k] += Number(process.hrtime.bigint() - t0);
  }
}
const us = Object.fromEntries(names.map((k) => [k, ns[k] / (n * 0.75) / 1e3]));
console.log(
  names.map((k) => `${k} ${us[k].toFixed(1)} µs/call`).join(', ') +
    (us.gated && us.protected ? `; the library's own ${(us.protected - us.gated).toFixed(1)} µs` : ''),
);
