// A profiling harness for the runtime's per-call cost (not a bench: it prints no ratio). Runs the
// protected allow call of bench/runtime.bench.mjs through the real Runner many times (or, with
// `plain` as the first argument, a plain tool(); with `gated`, a tool whose guardrail and
// needsApproval do nothing), so `node --cpu-prof bench/profile-protected.mjs` shows where a
// protected call's time goes. Imports from dist/ (`npm run build` first).
import { Agent, Runner, tool } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import { z } from 'zod';
import { bindProtectedTool, createControl, memoryStore } from '../dist/runtime/index.js';

process.env.OPENAI_AGENTS_DISABLE_TRACING = '1';
const side = process.argv[2] ?? 'protected';
const runs = Number(process.argv[3] ?? 4000);
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
const made =
  side === 'plain'
    ? tool({ name: 'refund', description: 'refund', parameters, execute })
    : side === 'gated'
      ? tool({ name: 'refund', description: 'refund', parameters, inputGuardrails: [allowGuardrail], needsApproval: async () => false, execute })
      : bindProtectedTool(createControl({ store: memoryStore(), identity: (rc) => rc.context.user, receiptKey: null }), policy)('stripe.refund', {
          name: 'refund',
          description: 'refund',
          parameters,
          execute,
        });
const steps = [];
for (let i = 0; i < runs; i++) steps.push([functionCall('refund', { payment_id: `pay_${i}`, amount: 500 }, { callId: `c${i}` })], [assistantMessage('done')]);
const agent = new Agent({ name: 'bench', model: new ScriptedModel(steps), tools: [made] });
const runner = new Runner({ tracingDisabled: true });
const t0 = process.hrtime.bigint();
for (let i = 0; i < runs; i++) await runner.run(agent, 'refund', { context: { user: 'alice' } });
console.log(`${side}: ${(Number(process.hrtime.bigint() - t0) / runs / 1e3).toFixed(0)} µs/run`);
