// A profiling harness for telemetry's per-call cost (not a bench: it prints no ratio). Runs the
// protected allow call of bench/runtime.bench.mjs through a traced Runner (the SDK's traces to a
// processor that drops them, OpenTelemetry's SDK registered with a batch span processor and a
// metric reader, as the bench sets them up), with the control's telemetry on (`on`, the default)
// or off (`off`), or off with a body doing by hand what the two are asked (`floor`: the bench's floor
// with everything on, bench/lib/traced-sides.mjs), so `node --cpu-prof bench/profile-telemetry.mjs on` shows where its time goes.
// Imports from dist/ (`npm run build` first).
//   node bench/profile-telemetry.mjs [on|off|floor] [runs=3000]
import { Agent, Runner } from '@openai/agents';
import * as otel from '@opentelemetry/api';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import { everythingFloorBody, observeEverything, protectedRefund } from './lib/traced-sides.mjs';

const side = process.argv[2] ?? 'on';
const runs = Number(process.argv[3] ?? 3000);
observeEverything();
const made =
  side === 'floor'
    ? protectedRefund(
        false,
        everythingFloorBody(async () => 'refunded'),
      )
    : protectedRefund(side === 'on' ? { openTelemetry: otel } : false);
const steps = [];
for (let i = 0; i < runs; i++) steps.push([functionCall('refund', { payment_id: `pay_${i}`, amount: 500 }, { callId: `c${i}` })], [assistantMessage('done')]);
const agent = new Agent({ name: 'bench', model: new ScriptedModel(steps), tools: [made] });
const runner = new Runner({ tracingDisabled: false });
const cpu = process.cpuUsage();
for (let i = 0; i < runs; i++) await runner.run(agent, 'refund', { context: { user: 'alice' } });
const used = process.cpuUsage(cpu);
console.log(`telemetry ${side}: ${((used.user + used.system) / runs).toFixed(0)} µs CPU/run`);
