// Two builds of the runtime in one process, their allowed refund calls alternated (not a bench of
// `npm run bench`: it prints figures, no verdict). On a loaded machine two processes run under
// different loads (one CPU profile read the same native hash at twice the time of another's), so
// a build is compared with another only when their calls interleave in one process: `base` is the
// other checkout's protected tool (its bench/lib and dist/, built), `this` this checkout's, beside
// a plain tool() and the records floor (bench/lib/allow-sides.mjs).
//   node bench/compare-builds.mjs <other checkout> runner [rounds=150] [perRound=20] [warmup=1500]
//     through the real Runner, blocks in a rotated order then reversed (as the runtime bench), CPU and wall
//   node bench/compare-builds.mjs <other checkout> hooks [calls=40000]
//     the three SDK hooks of one allowed call (allowedCall), blocks of 200 alternated, CPU time a call
// Each figure is a median over blocks or rounds [its interquartile range]; the load average is printed.
import { Agent, RunContext, Runner, tool } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';

process.env.OPENAI_AGENTS_DISABLE_TRACING = '1';
const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [other, mode = 'runner', ...sizes] = process.argv.slice(2);
if (!other || !['runner', 'hooks'].includes(mode)) throw new Error('usage: node bench/compare-builds.mjs <other checkout> [runner|hooks] [sizes…]');
const sidesOf = async (root) => import(pathToFileURL(path.join(path.resolve(root), 'bench/lib/traced-sides.mjs')).href);
const base = await sidesOf(other);
const mine = await sidesOf(here);
const { allowedCall, floorTool, sideTool } = await import(pathToFileURL(path.join(here, 'bench/lib/allow-sides.mjs')).href);

const quartiles = (values) => {
  const v = [...values].sort((a, b) => a - b);
  const at = (p) => v[Math.min(v.length - 1, Math.floor(p * v.length))];
  return [at(0.25), at(0.5), at(0.75)];
};
const ratio = (t, a, b) => fmt(quartiles(t[a].map((x, i) => x / t[b][i])), 3, 'x');
const minus = (t, a, b) => fmt(quartiles(t[a].map((x, i) => x - t[b][i])), 2, ' µs');
const fmt = ([q1, m, q3], d, unit) => `${m.toFixed(d)}${unit} [${q1.toFixed(d)}-${q3.toFixed(d)}]`;
const load = [os.loadavg()[0].toFixed(1)];

if (mode === 'hooks') {
  const calls = Number(sizes[0] ?? 40_000);
  const tools = { gated: sideTool('gated'), floor: floorTool(async () => 'refunded'), base: base.protectedRefund(), this: mine.protectedRefund() };
  const names = Object.keys(tools);
  const per = Object.fromEntries(names.map((k) => [k, []]));
  const block = 200;
  for (let b = 0; b < calls / block; b++) {
    for (const k of b % 2 ? [...names].reverse() : names) {
      const cpu = process.cpuUsage();
      for (let i = 0; i < block; i++) await allowedCall(tools[k], new RunContext({ user: 'alice' }), b * block + i);
      const used = process.cpuUsage(cpu);
      if (b >= calls / block / 3) per[k].push((used.user + used.system) / block); // the first third warms up
    }
  }
  load.push(os.loadavg()[0].toFixed(1));
  console.log(`hooks, CPU µs a call (load ${load.join(' -> ')}): ${names.map((k) => `${k} ${fmt(quartiles(per[k]), 2, '')}`).join(', ')}`);
  console.log(
    `this - base ${minus(per, 'this', 'base')}; base - floor ${minus(per, 'base', 'floor')}; this - floor ${minus(per, 'this', 'floor')}; floor - gated ${minus(per, 'floor', 'gated')}`,
  );
} else {
  const [rounds, perRound, warmup] = [Number(sizes[0] ?? 150), Number(sizes[1] ?? 20), Number(sizes[2] ?? 1500)];
  const parameters = z.object({ payment_id: z.string(), amount: z.number().int() });
  const body = async () => 'refunded';
  const total = warmup + rounds * perRound;
  const agentFor = (t) => {
    const steps = [];
    for (let i = 0; i < total; i++)
      steps.push([functionCall('refund', { payment_id: `pay_${i}`, amount: 500 }, { callId: `c${i}` })], [assistantMessage('done')]);
    return new Agent({ name: 'bench', model: new ScriptedModel(steps), tools: [t] });
  };
  const sides = {
    plain: agentFor(tool({ name: 'refund', description: 'refund', parameters, execute: body })),
    floor: agentFor(floorTool(body)),
    base: agentFor(base.protectedRefund(undefined, body)),
    this: agentFor(mine.protectedRefund(undefined, body)),
  };
  const names = Object.keys(sides);
  const runner = new Runner({ tracingDisabled: true });
  const block = async (agent, n) => {
    const wall = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    for (let i = 0; i < n; i++) await runner.run(agent, 'refund', { context: { user: 'alice' } });
    const used = process.cpuUsage(cpu);
    return { wall: Number(process.hrtime.bigint() - wall) / 1e3 / n, cpu: (used.user + used.system) / n };
  };
  for (let i = 0; i < warmup / 10; i++) for (const n of names) await block(sides[n], 10);
  const per = { wall: Object.fromEntries(names.map((n) => [n, []])), cpu: Object.fromEntries(names.map((n) => [n, []])) };
  for (let r = 0; r < rounds; r++) {
    const order = names.map((_, j) => names[(r + j) % names.length]);
    const sum = Object.fromEntries(names.map((n) => [n, { wall: 0, cpu: 0 }]));
    for (const n of [...order, ...[...order].reverse()]) {
      const t = await block(sides[n], perRound / 2);
      sum[n].wall += t.wall / 2;
      sum[n].cpu += t.cpu / 2;
    }
    for (const n of names) for (const clock of ['wall', 'cpu']) per[clock][n].push(sum[n][clock]);
  }
  load.push(os.loadavg()[0].toFixed(1));
  console.log(`Runner, ${rounds} rounds of ${perRound} runs a side after ${warmup} (load ${load.join(' -> ')})`);
  for (const clock of ['cpu', 'wall']) {
    const t = per[clock];
    console.log(
      `${clock}: ${names.map((n) => `${n} ${quartiles(t[n])[1].toFixed(0)} µs`).join(', ')}; this / base ${ratio(t, 'this', 'base')}; ` +
        `base / floor ${ratio(t, 'base', 'floor')}; this / floor ${ratio(t, 'this', 'floor')}; floor / plain ${ratio(t, 'floor', 'plain')}; ` +
        `this - plain ${minus(t, 'this', 'plain')}; floor - plain ${minus(t, 'floor', 'plain')}; this - floor ${minus(t, 'this', 'floor')}`,
    );
  }
}
