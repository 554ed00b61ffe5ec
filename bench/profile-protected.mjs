// A profiling harness for the runtime's per-call cost (not a bench: it prints no ratio). Runs the
// protected allow call of bench/runtime.bench.mjs through the real Runner many times (or, with
// `plain` as the first argument, a plain tool(); with `gated`, a tool whose guardrail and
// needsApproval do nothing; `nolog` and `nowrite` write less: bench/lib/allow-sides.mjs), so
// `node --cpu-prof bench/profile-protected.mjs` shows where a protected call's time goes.
// Imports from dist/ (`npm run build` first).
//   node bench/profile-protected.mjs [side=protected] [runs=4000]
import { Agent, Runner } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import { sideTool } from './lib/allow-sides.mjs';

process.env.OPENAI_AGENTS_DISABLE_TRACING = '1';
const side = process.argv[2] ?? 'protected';
const runs = Number(process.argv[3] ?? 4000);
const made = sideTool(side);
const steps = [];
for (let i = 0; i < runs; i++) steps.push([functionCall('refund', { payment_id: `pay_${i}`, amount: 500 }, { callId: `c${i}` })], [assistantMessage('done')]);
const agent = new Agent({ name: 'bench', model: new ScriptedModel(steps), tools: [made] });
const runner = new Runner({ tracingDisabled: true });
const t0 = process.hrtime.bigint();
for (let i = 0; i < runs; i++) await runner.run(agent, 'refund', { context: { user: 'alice' } });
console.log(`${side}: ${(Number(process.hrtime.bigint() - t0) / runs / 1e3).toFixed(0)} µs/run`);
