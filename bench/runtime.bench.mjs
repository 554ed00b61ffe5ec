// The runtime's per-call cost: the compiled decision function (ns/call), and a protectedTool allow
// call through the real Runner versus a plain tool() in the same run (ratio). Imports from dist/.
import { Agent, Runner, tool } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import { z } from 'zod';
import { bindProtectedTool, createControl, memoryStore } from '../dist/runtime/index.js';

/** The shape the generator emits for `stripe.refund` (SPEC §2): straight-line rules. */
function decideRefund(args) {
  const amount = args !== null && typeof args === 'object' ? args.amount : undefined;
  if (typeof amount === 'number' && Number.isInteger(amount) && amount >= 0 && amount <= 100000) return { decision: 'allow', rule: 0, reason: 'rule_matched' };
  if (typeof amount === 'number' && Number.isInteger(amount) && amount <= 1000000) return { decision: 'approve', rule: 1, reason: 'rule_matched' };
  return { decision: 'deny', rule: 2, reason: 'rule_matched' };
}

const policy = {
  hash: 'b'.repeat(64),
  mode: 'enforce',
  actions: {
    'stripe.refund': {
      id: 'stripe.refund',
      decide: decideRefund,
      controls: [],
      approvalsRequired: 1,
      maxAttempts: 1,
    },
  },
  tools: { refund: 'stripe.refund' },
};

function benchDecision() {
  const inputs = [{ amount: 5 }, { amount: 500000 }, { amount: 5.5 }, { amount: 99999999 }, {}, null];
  const n = 2_000_000;
  let sink = 0;
  for (let i = 0; i < 100_000; i++) sink += decideRefund(inputs[i % inputs.length]).rule ?? 0; // warm up
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) sink += decideRefund(inputs[i % inputs.length]).rule ?? 0;
  const ns = Number(process.hrtime.bigint() - start) / n;
  return { ns, sink };
}

/** An agent whose scripted model calls `refund` once per run, `runs` times. */
function agentFor(t, runs) {
  const steps = [];
  for (let i = 0; i < runs; i++) {
    steps.push([functionCall('refund', { payment_id: `pay_${i}`, amount: 500 }, { callId: `c${i}` })], [assistantMessage('done')]);
  }
  return new Agent({ name: 'bench', model: new ScriptedModel(steps), tools: [t] });
}

const parameters = z.object({ payment_id: z.string(), amount: z.number().int() });
const executed = { plain: 0, protected: 0 };
const plainTool = () => tool({ name: 'refund', description: 'refund', parameters, execute: async () => (executed.plain++, 'refunded') });
const protectedTool = () => {
  const control = createControl({ store: memoryStore(), identity: (rc) => rc.context.user });
  return bindProtectedTool(control, policy)('stripe.refund', { name: 'refund', description: 'refund', parameters, execute: async () => (executed.protected++, 'refunded') });
};

export async function run() {
  process.env.OPENAI_AGENTS_DISABLE_TRACING = '1';
  const d = benchDecision();
  console.log(`decision function: ${d.ns.toFixed(1)} ns/call (2,000,000 calls, mixed allow/approve/deny/invalid inputs)`);

  // Runs alternate one by one (plain, protected, protected, plain, ...) so drift (JIT warm-up, GC,
  // other processes on the machine) hits both sides alike; each side's time is summed.
  const warmup = 300;
  const runs = 1500;
  const runner = new Runner({ tracingDisabled: true });
  const plainAgent = agentFor(plainTool(), warmup + runs);
  const guardedAgent = agentFor(protectedTool(), warmup + runs);
  const once = async (agent) => {
    const start = process.hrtime.bigint();
    await runner.run(agent, 'refund', { context: { user: 'alice' } });
    return Number(process.hrtime.bigint() - start);
  };
  for (let i = 0; i < warmup; i++) {
    await once(plainAgent);
    await once(guardedAgent);
  }
  let plainNs = 0;
  let guardedNs = 0;
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      plainNs += await once(plainAgent);
      guardedNs += await once(guardedAgent);
    } else {
      guardedNs += await once(guardedAgent);
      plainNs += await once(plainAgent);
    }
  }
  if (executed.plain !== executed.protected) throw new Error(`bench: the bodies ran ${executed.plain} vs ${executed.protected} times`);
  const p = plainNs / runs / 1e6;
  const g = guardedNs / runs / 1e6;
  console.log(`Runner, one allow call per run (${runs} interleaved runs each after ${warmup} warm-up, memory store): plain tool() ${p.toFixed(3)} ms/run, protectedTool ${g.toFixed(3)} ms/run`);
  console.log(`protectedTool / tool() ratio: ${(g / p).toFixed(2)}x  (overhead ${((g - p) * 1000).toFixed(0)} µs per allow call)`);
}
