// A profiling harness for the allow path through the real Runner (not a bench: no verdict). Runs
// two sides of bench/lib/allow-sides.mjs (default: the records floor and the runtime bench's
// protectedTool) in blocks alternated in one process, each block under its own CPU profile (the
// inspector's sampling profiler) and its own count of garbage-collection time, so the two sides'
// profiles come from the same stretch of the machine's load. Prints each side's CPU time a run, its
// GC time a run, and the functions whose self time differs most between the sides (µs a run).
// PROFILE=0: no profiler, the CPU and GC figures alone (the profiler's own cost is about as much
// again as the runs'). Node's flags pass through, e.g. `--invocation-count-for-turbofan=300` to
// see the sides with their functions optimized early. Imports dist/ (build first).
//   node bench/profile-runner.mjs [sides=floor,refund] [blocks=20] [runs a block=500] [top=40]
import { Session } from 'node:inspector/promises';
import { PerformanceObserver } from 'node:perf_hooks';
import { Agent, Runner } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import { sideTool } from './lib/allow-sides.mjs';

process.env.OPENAI_AGENTS_DISABLE_TRACING = '1';
const sides = (process.argv[2] ?? 'floor,refund').split(',');
const blocks = Number(process.argv[3] ?? 20);
const perBlock = Number(process.argv[4] ?? 500);
const top = Number(process.argv[5] ?? 40);
const warmup = 1500;
const total = warmup + blocks * perBlock;

const agentFor = (t) => {
  const steps = [];
  for (let i = 0; i < total; i++)
    steps.push([functionCall('refund', { payment_id: `pay_${i}`, amount: 500 }, { callId: `c${i}` })], [assistantMessage('done')]);
  return new Agent({ name: 'bench', model: new ScriptedModel(steps), tools: [t] });
};
const agents = Object.fromEntries(sides.map((s) => [s, agentFor(sideTool(s))]));
const runner = new Runner({ tracingDisabled: true });
const profiling = process.env.PROFILE !== '0';
// the collections, attributed afterwards to the block whose time they started in (the observer is called late)
const collections = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) collections.push(e);
}).observe({ entryTypes: ['gc'] });
const windows = [];

for (let i = 0; i < warmup / 10; i++) for (const s of sides) for (let j = 0; j < 10; j++) await runner.run(agents[s], 'refund', { context: { user: 'alice' } });

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 50 });
const self = Object.fromEntries(sides.map((s) => [s, new Map()]));
// samples with this library's frame (dist/runtime/) or the floor's body (allow-sides.mjs) on the stack: the tools' own work, callees included
const own = Object.fromEntries(sides.map((s) => [s, 0]));
const isOwn = (f) => f.url.includes('/dist/runtime/') || f.url.endsWith('/bench/lib/allow-sides.mjs');
const cpu = Object.fromEntries(sides.map((s) => [s, 0]));
const system = Object.fromEntries(sides.map((s) => [s, 0]));
const key = (f) => `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(dist|node_modules)\//, '$1/')}:${f.lineNumber + 1}`;
for (let b = 0; b < blocks; b++) {
  for (const s of b % 2 ? [...sides].reverse() : sides) {
    if (profiling) await session.post('Profiler.start');
    const from = performance.now();
    const used = process.cpuUsage();
    for (let i = 0; i < perBlock; i++) await runner.run(agents[s], 'refund', { context: { user: 'alice' } });
    const t = process.cpuUsage(used);
    windows.push({ s, from, to: performance.now() });
    cpu[s] += t.user + t.system;
    system[s] += t.system;
    if (!profiling) continue;
    const { profile } = await session.post('Profiler.stop');
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const ownMemo = new Map();
    const ownStack = (id) => {
      if (ownMemo.has(id)) return ownMemo.get(id);
      const n = byId.get(id);
      const p = parent.get(id);
      const v = isOwn(n.callFrame) || (p !== undefined && ownStack(p));
      ownMemo.set(id, v);
      return v;
    };
    const deltas = profile.timeDeltas;
    for (let i = 0; i < profile.samples.length; i++) {
      const k = key(byId.get(profile.samples[i]).callFrame);
      // a sample stands for the time until the next one
      self[s].set(k, (self[s].get(k) ?? 0) + (deltas[i + 1] ?? 50));
      if (ownStack(profile.samples[i])) own[s] += deltas[i + 1] ?? 50;
    }
  }
}
session.disconnect();
await new Promise((r) => setTimeout(r, 100));
const gc = Object.fromEntries(sides.map((s) => [s, { ms: 0, count: 0, major: 0 }]));
for (const e of collections) {
  const w = windows.find((x) => e.startTime >= x.from && e.startTime < x.to);
  if (!w) continue;
  gc[w.s].ms += e.duration;
  gc[w.s].count++;
  if (e.detail?.kind !== 1) gc[w.s].major++;
}
const runs = blocks * perBlock;
for (const s of sides) {
  const sampled = [...self[s].values()].reduce((a, b) => a + b, 0);
  console.log(
    `${s}: CPU ${(cpu[s] / runs).toFixed(1)} µs a run (system ${(system[s] / runs).toFixed(1)}); ${profiling ? `sampled ${(sampled / runs).toFixed(1)} µs, ${(own[s] / runs).toFixed(1)} µs of it under the tool's own frames; ` : ''}GC ${((gc[s].ms * 1000) / runs).toFixed(1)} µs a run (${gc[s].count} collections, ${gc[s].major} not scavenges)`,
  );
}
if (profiling && sides.length === 2) {
  const [a, b] = sides;
  const keys = new Set([...self[a].keys(), ...self[b].keys()]);
  const diff = [...keys].map((k) => [k, ((self[b].get(k) ?? 0) - (self[a].get(k) ?? 0)) / runs, (self[b].get(k) ?? 0) / runs]);
  diff.sort((x, y) => Math.abs(y[1]) - Math.abs(x[1]));
  console.log(`self time, ${b} - ${a}, µs a run (and ${b}'s own):`);
  for (const [k, d, own] of diff.slice(0, top)) console.log(`  ${d.toFixed(2).padStart(7)} ${own.toFixed(2).padStart(7)}  ${k}`);
}
