// A profiling harness for this library's own per-call work, without the Runner (not a bench: it
// prints microseconds, no ratio). Drives a protected tool's three SDK hooks the way the Runner does
// for one allowed call (needsApproval, the input guardrail, invoke with details.toolCall) and the
// same hooks of a tool whose guardrail and needsApproval do nothing, alternating, so
// `node --cpu-prof bench/profile-core.mjs` shows where the difference goes. Imports from dist/.
import { RunContext } from '@openai/agents';
import { allowedCall, sideTool } from './lib/allow-sides.mjs';

process.env.OPENAI_AGENTS_DISABLE_TRACING = '1';
const n = Number(process.argv[2] ?? 20000);
const only = process.argv[3];
const tools = { gated: sideTool('gated'), protected: sideTool('protected') };
const once = (t, i) => allowedCall(t, new RunContext({ user: 'alice' }), i);
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
