// The runtime's per-call cost: the compiled decision function (ns/call), and a protectedTool allow
// call through the real Runner versus a plain tool() in the same run (ratio). Imports from dist/.
import { Agent, Runner, tool } from '@openai/agents';
import * as otel from '@opentelemetry/api';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import { z } from 'zod';
import os from 'node:os';
import { parseArguments, plainArguments } from '../dist/runtime/arguments.js';
import { canonicalHash } from '../dist/runtime/canonical.js';
import { decideCall } from '../dist/runtime/decide.js';
import { floorTool } from './lib/allow-sides.mjs';
import { everythingFloorBody, generatedRefund, observeEverything, otelFloorBody, protectedRefund } from './lib/traced-sides.mjs';
import { sized } from './lib/size.mjs';

/** Before issue 12, the shape the generator emitted for `stripe.refund`: the baseline of the decision figure. */
function decideRefundBefore(args) {
  const amount = args !== null && typeof args === 'object' ? args.amount : undefined;
  if (typeof amount === 'number' && Number.isInteger(amount) && amount >= 0 && amount <= 100000) return { decision: 'allow', rule: 0, reason: 'rule_matched' };
  if (typeof amount === 'number' && Number.isInteger(amount) && amount <= 1000000) return { decision: 'approve', rule: 1, reason: 'rule_matched' };
  return { decision: 'deny', rule: 2, reason: 'rule_matched' };
}

// The timing loop's source: each measurement gets its own copy (below), so the call `fn(...)` in
// it sees one function only. A shared loop would be inlined for the first function timed and then
// go polymorphic, which made the first-timed baseline look several times faster than it is.
const LOOP = `return function nsPerCall(fn, inputs, n, warm) {
  let sink = 0;
  for (let i = 0; i < warm; i++) sink += fn(inputs[i % inputs.length]) ? 1 : 0; // warm up
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) sink += fn(inputs[i % inputs.length]) ? 1 : 0;
  return { ns: Number(process.hrtime.bigint() - start) / n, sink };
}`;

let loops = 0;
/** Rounds of the decision figures (each a median of these). */
const DECISION_ROUNDS = sized(5, 1);
function nsPerCall(fn, inputs, n = 2_000_000) {
  // A unique comment per copy: V8 caches `new Function` by its source text, feedback included, so
  // identical copies would share one (polymorphic) call site again.
  return new Function('process', `${LOOP} // copy ${++loops}`)(process)(fn, inputs, sized(n, n / 1000), sized(100_000, 100));
}

/** The median of `rounds` measurements of each named function, interleaved round by round. */
function medians(rounds, measures) {
  const runs = Object.fromEntries(Object.keys(measures).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) for (const [k, m] of Object.entries(measures)) runs[k].push(m().ns);
  return Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, { ns: [...v].sort((a, b) => a - b)[v.length >> 1], all: v }]));
}

const refundAction = generatedRefund();

function benchDecision() {
  // Typed arguments (already values): the decision function alone, before and after, same inputs.
  const typed = [{ amount: 5 }, { amount: 500000 }, { amount: 'x' }, { amount: 99999999 }, {}, { amount: 7n ** 30n }];
  const noBigint = typed.map((a) => (typeof a.amount === 'bigint' ? { amount: 1.5 } : a));
  const withId = typed.map((a) => ({ ...a, payment_id: 'pay_1' }));
  const texts = [
    '{"payment_id":"pay_1","amount":5}',
    '{"payment_id":"pay_2","amount":500000,"note":"partial refund for order 1234"}',
    '{"payment_id":"pay_3","amount":123456789012345678901234567890}',
    '{"payment_id":"pay_4","amount":5.5}',
  ];
  const allowed = texts.slice(0, 2);
  const m = medians(DECISION_ROUNDS, {
    before: () => nsPerCall(decideRefundBefore, noBigint),
    after: () => nsPerCall(refundAction.decide, typed),
    afterNoBigint: () => nsPerCall(refundAction.decide, noBigint),
    call: () => nsPerCall((a) => decideCall(refundAction, a), withId),
    // The model's JSON text: the lossless parse and argument check (what the runtime adds per call), against JSON.parse.
    lossless: () => nsPerCall((t) => parseArguments(t).ok, texts, 400_000),
    plain: () => nsPerCall((t) => JSON.parse(t) !== null, texts, 400_000),
    // One stage of an allowed call (the guardrail, or the execute wrapper), its argument work alone:
    // before, the model's text was parsed three times (JSON.parse for the schema check, the lossless
    // parse to decide, the lossless parse again to hash); now once (the schema check reads the
    // lossless value with integers as numbers), then hashed.
    threeParses: () =>
      nsPerCall(
        (t) => {
          JSON.parse(t);
          const decided = parseArguments(t);
          const hashed = parseArguments(t);
          return decided.ok && hashed.ok && canonicalHash(hashed.value) !== '';
        },
        allowed,
        200_000,
      ),
    oneParse: () =>
      nsPerCall(
        (t) => {
          const checked = parseArguments(t);
          return checked.ok && plainArguments(checked.value) !== null && canonicalHash(checked.value) !== '';
        },
        allowed,
        200_000,
      ),
  });
  const { before, after, afterNoBigint, call, lossless, plain, threeParses, oneParse } = m;
  // Other processes slow whole rounds alike: the median of the per-round ratios is the steadier figure.
  const ratios = after.all.map((x, i) => x / before.all[i]);
  const ratio = [...ratios].sort((a, b) => a - b)[ratios.length >> 1];
  return { before, after, afterNoBigint, ratio, call, lossless, plain, threeParses, oneParse };
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
const executed = { plain: 0, guardrail: 0, gated: 0, floor: 0, protected: 0, tracedOff: 0, traced: 0, tracedSdk: 0, tracedOtel: 0, otelFloor: 0, allFloor: 0 };
const body = (side) => async () => {
  executed[side]++;
  return 'refunded';
};
const plainTool = () => tool({ name: 'refund', description: 'refund', parameters, execute: body('plain') });
// What the SDK itself costs for the two hooks a protected tool uses, with hooks that do nothing:
// a tool input guardrail that allows, and a needsApproval function that answers false.
const allowGuardrail = { type: 'tool_input', name: 'noop', run: async () => ({ behavior: { type: 'allow' } }) };
const guardrailTool = () => tool({ name: 'refund', description: 'refund', parameters, inputGuardrails: [allowGuardrail], execute: body('guardrail') });
const gatedTool = () =>
  tool({ name: 'refund', description: 'refund', parameters, inputGuardrails: [allowGuardrail], needsApproval: async () => false, execute: body('gated') });
const protectedTool = (side = 'protected', telemetry = undefined) => protectedRefund(telemetry, body(side));

export async function run() {
  process.env.OPENAI_AGENTS_DISABLE_TRACING = '1';
  const d = benchDecision();
  console.log(
    `decision function, typed arguments (medians of ${DECISION_ROUNDS} rounds of ${sized('2,000,000', '2,000')} calls, mixed allow/approve/deny/odd inputs): generated ${d.after.ns.toFixed(1)} ns/call (${d.afterNoBigint.ns.toFixed(1)} with the bigint input replaced by 1.5, as the baseline gets); the pre-issue-12 shape ${d.before.ns.toFixed(1)} ns/call (median per-round ratio ${d.ratio.toFixed(2)}x); rounds: ${d.after.all.map((x) => x.toFixed(1)).join(' ')} / ${d.before.all.map((x) => x.toFixed(1)).join(' ')}`,
  );
  console.log(`decideCall (resource and effect templates, then the rules): ${d.call.ns.toFixed(1)} ns/call`);
  console.log(
    `lossless parse + argument check of the model's JSON (paid once per stage, before any decision): ${d.lossless.ns.toFixed(0)} ns/call; JSON.parse of the same texts: ${d.plain.ns.toFixed(0)} ns/call (ratio ${(d.lossless.ns / d.plain.ns).toFixed(1)}x)`,
  );
  console.log(
    `argument work of one stage of an allowed call: parsed once ${d.oneParse.ns.toFixed(0)} ns; parsed three times (before) ${d.threeParses.ns.toFixed(0)} ns (ratio ${(d.oneParse.ns / d.threeParses.ns).toFixed(2)}x)`,
  );

  // 1,500 warm-up runs a side: this library's functions run once or twice a call (the SDK's many
  // times), so V8 optimizes most of them only after a few hundred runs; with 300, 45 to 90 more
  // compilations than the floor's fell inside the measured runs (--trace-opt), a one-time cost
  // counted as the per-call one. After 1,500 the two sides compile alike (about 20 apart in 2,000 runs).
  const r = await benchRunner(...sized([100, 20, 1500], [2, 4, 10]));
  console.log(
    `Runner, one allow call per run, memory store (${r.rounds} rounds of ${r.perRound} runs per side, each round the sides in a rotated order and then back in reverse, ${r.perRound / 2} runs a block, after ${r.warmup} warm-up runs each; medians over rounds): ` +
      `plain tool() ${fmtSide(r, 'plain')}; SDK-hook-only baseline (no-op input guardrail + needsApproval answering false, no policy) ${fmtSide(r, 'gated')}; ` +
      `no-op guardrail alone ${fmtSide(r, 'guardrail')}; records floor (the baseline's hooks, no policy, a body writing an allowed call's two receipts and log entry) ${fmtSide(r, 'floor')}; protectedTool ${fmtSide(r, 'protected')}; ` +
      `traced run, telemetry off ${fmtSide(r, 'tracedOff')}; traced run, the SDK's traces and OpenTelemetry on ${fmtSide(r, 'traced')}`,
  );
  console.log(
    `noise: load average ${r.load[0]} at start, ${r.load[1]} at end (${os.availableParallelism()} cores); each ratio below is the median of the per-round ratios [their interquartile range] (a 95% confidence interval of that median, from the order statistics)`,
  );
  for (const clock of ['cpu', 'wall']) {
    const q = r.ratios[clock];
    const line = (name, k) => `${name} ${q[k].median.toFixed(3)}x [${q[k].q1.toFixed(3)}-${q[k].q3.toFixed(3)}] (${q[k].lo.toFixed(3)}-${q[k].hi.toFixed(3)})`;
    console.log(
      `${clock === 'cpu' ? 'CPU time (process user+system; steadier on a shared machine)' : 'wall time'}: ${line('protectedTool / tool()', 'protectedPlain')}; ` +
        `${line("protectedTool / SDK-hook-only baseline (this library's own part)", 'protectedGated')}; ${line("SDK-hook-only baseline / tool() (the SDK's own cost of the hooks)", 'gatedPlain')}; ` +
        `${line('records floor / tool() (what the records alone cost)', 'floorPlain')}; ${line('protectedTool / records floor (everything else the library does)', 'protectedFloor')}; ` +
        `protected - plain ${q.protectedPlainUs.toFixed(0)} µs, protected - baseline ${q.protectedGatedUs.toFixed(0)} µs per call`,
    );
    console.log(
      `${clock === 'cpu' ? 'CPU time' : 'wall time'}, tracing and OpenTelemetry on (the target is 1.05x): ${line("protectedTool recording into the SDK's traces and OpenTelemetry / the same traced run with the control's telemetry off", 'tracedOff')}; ` +
        `${line("the SDK's traces alone / off", 'tracedSdk')}; ${line('OpenTelemetry alone / off', 'tracedOtel')}; ` +
        `${line('its floor (one span, two events, a count, by hand) / off', 'otelFloor')}; ${line('OpenTelemetry alone / its floor', 'otelOverFloor')}; ` +
        `${line('everything on / everything off (the SDK tracing the run too)', 'tracedAll')}`,
    );
    // item 5's rule: its 1.05x is below OpenTelemetry's own floor, so the target is 1.05x of the floor with everything on
    console.log(
      `${clock === 'cpu' ? 'CPU time' : 'wall time'}, against the floor with everything on (the target is 1.05x): ` +
        `${line("protectedTool recording into the SDK's traces and OpenTelemetry / the floor with everything on (the control's telemetry off, a body making the SDK's two custom spans and OpenTelemetry's span, events and count by hand)", 'tracedOverFloor')}; ` +
        `${line('that floor / telemetry off', 'allFloorOff')}`,
    );
  }
}

const fmtSide = (r, side) => `${(r.median.wall[side] / 1000).toFixed(3)} ms wall / ${(r.median.cpu[side] / 1000).toFixed(3)} ms CPU`;

/**
 * The quartiles of `values`, and a 95% confidence interval of their median from the order
 * statistics (the k-th smallest and largest, k from the binomial's normal approximation): how
 * well the rounds pin the median down, where the interquartile range says how much one round moves.
 */
function quartiles(values) {
  const v = [...values].sort((a, b) => a - b);
  const at = (p) => v[Math.min(v.length - 1, Math.floor(p * v.length))];
  const k = Math.max(0, Math.floor(v.length / 2 - (1.96 * Math.sqrt(v.length)) / 2));
  return { q1: at(0.25), median: at(0.5), q3: at(0.75), lo: v[k], hi: v[v.length - 1 - k] };
}

/**
 * The sides through the real Runner, `rounds` rounds of `perRound` runs each: in a round each side
 * runs a block of half its runs in a rotated order, then a second block in the reverse order, so
 * a drift within the round (JIT, GC, other processes) hits every side alike and two sides compared
 * run close in time. Each block is timed by the wall clock and by the process's CPU time; a side's
 * figure is the median over rounds, a ratio the median of the per-round ratios (a busy round slows
 * every side in it). Many short rounds, not a few long ones: the median is pinned down by their
 * number, and a burst of other work spoils one round, not a fifteenth of the figure.
 */
export async function benchRunner(rounds = 100, perRound = 20, warmup = 1500) {
  const load = [os.loadavg()[0].toFixed(1)];
  const runner = new Runner({ tracingDisabled: true });
  observeEverything();
  const traced = new Runner({ tracingDisabled: false });
  const total = warmup + rounds * 2 * Math.max(1, Math.floor(perRound / 2));
  const sides = {
    plain: agentFor(plainTool(), total),
    guardrail: agentFor(guardrailTool(), total),
    gated: agentFor(gatedTool(), total),
    floor: agentFor(floorTool(body('floor')), total),
    protected: agentFor(protectedTool(), total),
    tracedOff: agentFor(protectedTool('tracedOff', false), total),
    traced: agentFor(protectedTool('traced', { openTelemetry: otel }), total),
    // each half alone: the SDK's traces (the default), OpenTelemetry without them
    tracedSdk: agentFor(protectedTool('tracedSdk', {}), total),
    tracedOtel: agentFor(protectedTool('tracedOtel', { sdkTracing: false, openTelemetry: otel }), total),
    // the control's telemetry off, its body doing by hand what OpenTelemetry is asked for the call
    otelFloor: agentFor(protectedRefund(false, otelFloorBody(body('otelFloor'))), total),
    // the same, with the SDK's custom spans by hand too: the floor of everything on (item 5's rule when its 1.05x is below OpenTelemetry's own floor)
    allFloor: agentFor(protectedRefund(false, everythingFloorBody(body('allFloor'))), total),
  };
  const runnerOf = (n) => (n.startsWith('traced') || n.endsWith('Floor') ? traced : runner);
  const names = Object.keys(sides);
  const block = async (agent, n, name) => {
    const by = runnerOf(name);
    const wall = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    for (let i = 0; i < n; i++) await by.run(agent, 'refund', { context: { user: 'alice' } });
    const used = process.cpuUsage(cpu);
    return { wall: Number(process.hrtime.bigint() - wall) / 1e3 / n, cpu: (used.user + used.system) / n };
  };
  for (let i = 0; i < warmup / 10; i++) for (const n of names) await block(sides[n], 10, n);
  const per = { wall: Object.fromEntries(names.map((n) => [n, []])), cpu: Object.fromEntries(names.map((n) => [n, []])) };
  const half = Math.max(1, Math.floor(perRound / 2));
  for (let round = 0; round < rounds; round++) {
    const order = names.map((_, j) => names[(round + j) % names.length]);
    const sum = Object.fromEntries(names.map((n) => [n, { wall: 0, cpu: 0 }]));
    for (const n of [...order, ...[...order].reverse()]) {
      const t = await block(sides[n], half, n);
      sum[n].wall += t.wall / 2;
      sum[n].cpu += t.cpu / 2;
    }
    for (const n of names) {
      per.wall[n].push(sum[n].wall);
      per.cpu[n].push(sum[n].cpu);
    }
  }
  const counts = new Set(Object.values(executed));
  if (counts.size !== 1) throw new Error(`bench: the bodies ran ${JSON.stringify(executed)} times`);
  load.push(os.loadavg()[0].toFixed(1));
  const median = {};
  const ratios = {};
  for (const clock of ['wall', 'cpu']) {
    const t = per[clock];
    median[clock] = Object.fromEntries(names.map((n) => [n, quartiles(t[n]).median]));
    const over = (a, b) => quartiles(t[a].map((x, i) => x / t[b][i]));
    const minus = (a, b) => quartiles(t[a].map((x, i) => x - t[b][i])).median;
    ratios[clock] = {
      protectedPlain: over('protected', 'plain'),
      protectedGated: over('protected', 'gated'),
      gatedPlain: over('gated', 'plain'),
      floorPlain: over('floor', 'plain'),
      protectedFloor: over('protected', 'floor'),
      tracedOff: over('traced', 'tracedOff'),
      tracedSdk: over('tracedSdk', 'tracedOff'),
      tracedOtel: over('tracedOtel', 'tracedOff'),
      otelFloor: over('otelFloor', 'tracedOff'),
      otelOverFloor: over('tracedOtel', 'otelFloor'),
      tracedOverFloor: over('traced', 'allFloor'),
      allFloorOff: over('allFloor', 'tracedOff'),
      tracedAll: over('traced', 'protected'),
      protectedPlainUs: minus('protected', 'plain'),
      protectedGatedUs: minus('protected', 'gated'),
    };
  }
  return { rounds, perRound, warmup, load, median, ratios };
}
