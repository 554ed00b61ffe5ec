// `npm run bench -- policy`. First the policy loader against the `yaml` package's own parse of the
// same text (its floor: the loader parses with it, then walks the nodes, checks them and hashes the
// normalized policy), on a small realistic policy and on one near the 256 KiB cap, in this process.
//
// Then issue 25's figures: `test` of 10,000 cases against the compiled decision functions alone,
// `replay` of 100,000 calls against reading them (JSON Lines, and a SQLite store's decision log),
// and issue 36's `diff` against the time to load both policies (the largest fixture policy, and two
// 200-action policies). Method: every side is timed in a fresh `node` process
// (bench/lib/policy-side.mjs), one per side per round, so no side inherits another's JIT feedback:
// timed in one process, the side timed second ran on call sites the first had made polymorphic,
// and the same loop moved by up to 2x with the order alone. In its process a side builds its
// inputs (the same for both sides of a figure), warms up on its own work (a quarter of the runs, at least 0.5 s), then times its runs by
// the process's CPU time (every thread, GC helpers too) and by the wall clock; setup and start-up
// are not timed. The rounds interleave the sides and alternate their order. A figure is the median
// of the per-round ratios with their range [min–max], and the load average is printed with it: on
// a shared machine the wall clock mostly measures the wait for a core, CPU time is the figure to trust.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { LineCounter, parseDocument } from 'yaml';
import { ACTIONS, CALLS, CASES } from './lib/policy-sizes.mjs';
import { sized } from './lib/size.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { parsePolicy, MAX_POLICY_BYTES } = await import(pathToFileURL(path.join(root, 'dist/policy/load.js')).href);
const dist = (f) => import(pathToFileURL(path.join(root, 'dist', f)).href);

const small = readFileSync(path.join(root, 'fixtures/refund-desk/ctrlrun.yaml'), 'utf8');
const action = (i) =>
  `  a${i}.refund:\n    effect: "refund:{id}"\n    rules:\n      - when: { amount_gte: 1, amount_lte: ${i}, currency_in: [usd, eur] }\n        decision: allow\n      - decision: approve\n`;
const chunks = ['schema: ctrlrun.policy/v6\nactions:\n'];
for (let i = 0, n = chunks[0].length; n < sized(MAX_POLICY_BYTES - 400, 16_384); i++) {
  chunks.push(action(i));
  n += chunks.at(-1).length;
}
const large = chunks.join('');

function perRun(fn, runs) {
  for (let i = 0; i < Math.max(1, runs / 10); i++) fn(); // warm up
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) fn();
  return (performance.now() - t0) / runs;
}

/** A count as the labels write it: 10,000. */
const n = (count) => count.toLocaleString('en');
const median = (list) => [...list].sort((a, b) => a - b)[list.length >> 1];
const sideScript = path.join(root, 'bench/lib/policy-side.mjs');

/** One side timed in a new `node` process (bench/lib/policy-side.mjs): its per-run CPU and wall ms. */
function timeSide(side, runs, file) {
  const args = [sideScript, side, String(runs), ...(file === undefined ? [] : [file])];
  const out = execFileSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out.trim().split('\n').at(-1));
}

/**
 * Each side timed in a fresh process per round (warmed up there on its own work, so no side runs
 * on code the JIT shaped for another), the sides interleaved round by round with the order
 * alternated (a load spike falls on one round, not on one side), by CPU time and by the wall
 * clock. A figure is the median of the per-round ratios to the first side, with their range.
 */
function fresh(fullRounds, fullRuns, names, file) {
  const [rounds, runs] = [sized(fullRounds, 1), sized(fullRuns, 1)];
  const times = { cpu: Object.fromEntries(names.map((n) => [n, []])), wall: Object.fromEntries(names.map((n) => [n, []])) };
  for (let r = 0; r < rounds; r++) {
    for (const n of r % 2 === 0 ? names : [...names].reverse()) {
      const t = timeSide(n, runs, file);
      times.cpu[n].push(t.cpu);
      times.wall[n].push(t.wall);
    }
  }
  const ratio = (clock, base, other) => {
    const list = times[clock][other].map((t, i) => t / times[clock][base][i]).sort((a, b) => a - b);
    return { median: median(list), min: list[0], max: list.at(-1) };
  };
  const m = (base, other) => {
    const of = (clock) => ({ ms: { [base]: median(times[clock][base]), [other]: median(times[clock][other]) }, ratio: ratio(clock, base, other) });
    return { cpu: of('cpu'), wall: of('wall') };
  };
  return { of: m, times, counts: `${rounds} rounds of ${runs} runs` };
}

/** `1.42x [1.30–1.61] (12 ms vs 8 ms; ...)`: the median per-round ratio, its range, the sides' medians and their ratio. */
function figure(m, [a, b]) {
  const side = (clock) => `${m[clock].ms[b].toFixed(1)} ms vs ${m[clock].ms[a].toFixed(1)} ms`;
  const r = (clock) => `${m[clock].ratio.median.toFixed(2)}x [${m[clock].ratio.min.toFixed(2)}–${m[clock].ratio.max.toFixed(2)}]`;
  // a process's JIT varies from the next one's, apart from the load: the ratio of the sides' medians is the steadier figure
  const ofMedians = (m.cpu.ms[b] / m.cpu.ms[a]).toFixed(2);
  return `CPU ${r('cpu')} (${side('cpu')}; ratio of the medians ${ofMedians}x); wall ${r('wall')} (${side('wall')})`;
}

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

export async function run() {
  console.log(`load average at start: ${load()} (${os.availableParallelism()} cores); ratios: the median of per-round ratios [their range]`);
  for (const [name, text, runs] of [
    ['refund-desk policy', small, sized(2000, 20)],
    [`${(large.length / 1024).toFixed(0)} KiB policy`, large, sized(5, 1)],
  ]) {
    const yamlOnly = perRun(
      () => parseDocument(text, { keepSourceTokens: true, uniqueKeys: false, prettyErrors: false, lineCounter: new LineCounter() }),
      runs,
    );
    const loader = perRun(() => {
      const r = parsePolicy(text, 'ctrlrun.yaml');
      if (r.value === undefined) throw new Error('bench policy did not load');
    }, runs);
    console.log(
      `${name}: parsePolicy ${(loader / yamlOnly).toFixed(2)}x the yaml package's parseDocument alone (${loader.toFixed(2)} ms vs ${yamlOnly.toFixed(2)} ms)`,
    );
  }
  policyAsCode();
  await replayFromSqlite();
  console.log(`load average at end: ${load()}`);
}

/**
 * Issue 25: `replay` of 100,000 calls from a SQLite store's decision log (the store's own pages,
 * entries turned into calls, each re-decided as its page is read, the summary: `replayStoreCalls`,
 * what `replay --store` runs) against reading the same rows through the store (`listDecisions` in
 * the same pages). A step between says where the rest goes: the rows read, each call id's first
 * entry kept and its arguments parsed as the runtime parses them (what replay does before it decides).
 * The rows are written in one transaction as the store chains them (100,000 separate appends would
 * measure fsync, not replay).
 */
async function replayFromSqlite() {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { DatabaseSync } = await import('node:sqlite');
  const { sqliteStore } = await dist('runtime/sqlite.js');
  const { chainedEntry } = await dist('runtime/decision-log.js');
  const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-bench-replay-'));
  const file = path.join(dir, 'state.db');
  try {
    const body = (i) => ({
      at: 1_700_000_000_000 + i,
      action: 'stripe.refund',
      tool: 'refund',
      call_id: `c${i}`,
      args: `{"amount":${(i * 37) % 1_200_000},"payment_id":"ch_${i}"}`,
      hashed: [],
      args_hash: '0'.repeat(64),
      principal: { agent: 'desk', user: null },
      environment: 'production',
      task: null,
      decision: 'allow',
      rule: 0,
      reason: 'rule[0]',
      effect_key: `refund:ch_${i}`,
      resource: `payment:ch_${i}`,
      policy_hash: 'sha256:x',
      mode: 'enforce',
      result: 'allowed',
      receipt_seq: i + 1,
      receipt_hash: '0'.repeat(64),
    });
    const store = sqliteStore({ path: file });
    let last = await store.appendDecision(body(0));
    await store.close();
    const db = new DatabaseSync(file);
    const insert = db.prepare('INSERT INTO decisions (seq, at, action, hash, entry) VALUES (?, ?, ?, ?, ?)');
    db.exec('BEGIN');
    for (let i = 1; i < CALLS; i++) {
      last = chainedEntry(body(i), last);
      insert.run(last.seq, last.at, last.action, last.hash, JSON.stringify(last));
    }
    db.prepare('UPDATE decision_head SET seq = ?, hash = ? WHERE id = 1').run(last.seq, last.hash);
    db.exec('COMMIT');
    db.close();

    const f = fresh(7, 3, ['store-read', 'store-parse', 'store-replay'], file);
    console.log(`replay --store, ${n(CALLS)} calls from SQLite, against reading the same rows through the store (${f.counts}; load ${load()}):`);
    console.log(`  replay: ${figure(f.of('store-read', 'store-replay'), ['store-read', 'store-replay'])}`);
    console.log(`  read + first of each call id + arguments parsed: ${figure(f.of('store-read', 'store-parse'), ['store-read', 'store-parse'])}`);
    console.log(`  replay against that: ${figure(f.of('store-parse', 'store-replay'), ['store-parse', 'store-replay'])}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Issue 25: `test` of 10,000 cases against the compiled decision functions alone (the same calls,
 * checked and decided, nothing kept), with two steps between them that say where the rest goes:
 * the decider's own call per case (`decide`), and that call with every decision kept, as `test`
 * keeps them for its report (`kept`). Then `replay` of 100,000 recorded calls against reading them
 * (the JSON Lines parse), and `diff` against loading both policies it compares (issue 36).
 */
function policyAsCode() {
  const t = fresh(9, 100, ['alone', 'decide', 'kept', 'test', 'test-failing']);
  console.log(`test, ${n(CASES)} cases, against the compiled decision functions alone (${t.counts}; load ${load()}):`);
  for (const side of ['test', 'decide', 'kept', 'test-failing']) console.log(`  ${side}: ${figure(t.of('alone', side), ['alone', side])}`);

  const j = fresh(5, 3, ['jsonl-read', 'jsonl-replay']);
  console.log(
    `replay, ${n(CALLS)} calls (JSON Lines), against reading them (${j.counts}; load ${load()}): ${figure(j.of('jsonl-read', 'jsonl-replay'), ['jsonl-read', 'jsonl-replay'])}`,
  );

  // issue 36: the exact diff against the time to load both policies; `procedure` is the diff with
  // the two generated modules compiled beforehand (the decision procedure and its witnesses'
  // confirmation), the rest of `diff` is compiling them
  for (const [pair, what, runs] of [
    ['largest', 'the largest fixture policy (generate/operators) and a change of it', 20],
    ['200', `two ${ACTIONS}-action policies (every action changed)`, 3],
  ]) {
    const m = fresh(5, runs, [`load-${pair}`, `procedure-${pair}`, `diff-${pair}`]);
    console.log(`diff of ${what}, against loading both (${m.counts}; load ${load()}):`);
    for (const side of [`procedure-${pair}`, `diff-${pair}`])
      console.log(`  ${side.split('-')[0]}: ${figure(m.of(`load-${pair}`, side), [`load-${pair}`, side])}`);
  }
}
