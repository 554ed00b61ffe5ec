// The policy loader against the `yaml` package's own parse of the same text (its floor: the loader
// parses with it, then walks the nodes, checks them and hashes the normalized policy), on a small
// realistic policy and on one near the 256 KiB cap. Ratios, measured in the same run.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { LineCounter, parseDocument } from 'yaml';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { parsePolicy, MAX_POLICY_BYTES } = await import(pathToFileURL(path.join(root, 'dist/policy/load.js')).href);
const dist = (f) => import(pathToFileURL(path.join(root, 'dist', f)).href);
const { createDecider } = await dist('policy-test/decider.js');
const { parseTestFile } = await dist('policy-test/cases.js');
const { runTests } = await dist('policy-test/run-tests.js');
const { parseCallsFile } = await dist('policy-test/calls-file.js');
const { replayCalls } = await dist('policy-test/replay.js');
const { diffPolicies } = await dist('policy-test/diff.js');
const { checkArguments } = await dist('runtime/arguments.js');
const { decideCall } = await dist('runtime/decide.js');

const small = readFileSync(path.join(root, 'fixtures/refund-desk/ctrlrun.yaml'), 'utf8');
const action = (i) =>
  `  a${i}.refund:\n    effect: "refund:{id}"\n    rules:\n      - when: { amount_gte: 1, amount_lte: ${i}, currency_in: [usd, eur] }\n        decision: allow\n      - decision: approve\n`;
const chunks = ['schema: ctrlrun.policy/v6\nactions:\n'];
for (let i = 0, n = chunks[0].length; n < MAX_POLICY_BYTES - 400; i++) {
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

/** The process's CPU time in ms (every thread, GC helpers too): on a shared machine a round's wall time is mostly the wait for a core. */
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * Each side timed `runs` times per round, the sides interleaved round by round (a load spike or a
 * GC falls on one round), by CPU time and by the wall clock; a figure is the median of the per-round
 * ratios with their range, so a reader can tell a figure from noise. Sides may be async.
 */
async function interleaved(rounds, runs, sides) {
  const names = Object.keys(sides);
  const clocks = { cpu: cpuMs, wall: () => performance.now() };
  const times = Object.fromEntries(Object.keys(clocks).map((c) => [c, Object.fromEntries(names.map((n) => [n, []]))]));
  for (const n of names) await sides[n](); // warm up
  for (let r = 0; r < rounds; r++) {
    // alternate which side goes first
    for (const n of r % 2 === 0 ? names : [...names].reverse()) {
      const f = sides[n];
      const [c0, w0] = [cpuMs(), performance.now()];
      for (let i = 0; i < runs; i++) {
        const x = f();
        if (x instanceof Promise) await x;
      }
      times.cpu[n].push((cpuMs() - c0) / runs);
      times.wall[n].push((performance.now() - w0) / runs);
    }
  }
  const median = (list) => [...list].sort((a, b) => a - b)[list.length >> 1];
  const [base, other] = names;
  const ratio = (clock) => {
    const list = times[clock][other].map((t, i) => t / times[clock][base][i]).sort((a, b) => a - b);
    return { median: median(list), min: list[0], max: list.at(-1) };
  };
  const ms = (clock) => Object.fromEntries(names.map((n) => [n, median(times[clock][n])]));
  return { cpu: { ms: ms('cpu'), ratio: ratio('cpu') }, wall: { ms: ms('wall'), ratio: ratio('wall') } };
}

/** `1.42x [1.30–1.61] (12 ms vs 8 ms)`: the median per-round ratio, its range, the sides' medians. */
function figure(m, [a, b]) {
  const side = (clock) => `${m[clock].ms[b].toFixed(1)} ms vs ${m[clock].ms[a].toFixed(1)} ms`;
  const r = (clock) => `${m[clock].ratio.median.toFixed(2)}x [${m[clock].ratio.min.toFixed(2)}–${m[clock].ratio.max.toFixed(2)}]`;
  return `CPU ${r('cpu')} (${side('cpu')}); wall ${r('wall')} (${side('wall')})`;
}

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

export async function run() {
  console.log(`load average at start: ${load()} (${os.availableParallelism()} cores); ratios: the median of per-round ratios [their range]`);
  for (const [name, text, runs] of [
    ['refund-desk policy', small, 2000],
    [`${(large.length / 1024).toFixed(0)} KiB policy`, large, 5],
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
  await policyAsCode();
  await replayFromSqlite();
  console.log(`load average at end: ${load()}`);
}

/**
 * Issue 25: `replay` of 100,000 calls from a SQLite store's decision log (the store's own pages,
 * entries turned into calls, each re-decided as its page is read, the summary: `replayStoreCalls`,
 * what `replay --store` runs) against reading the same rows through
 * the store (`listDecisions` in the same pages). The rows are written in one transaction as the
 * store chains them (100,000 separate appends would measure fsync, not replay).
 */
export async function replayFromSqlite() {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { DatabaseSync } = await import('node:sqlite');
  const { sqliteStore } = await dist('runtime/sqlite.js');
  const { chainedEntry } = await dist('runtime/decision-log.js');
  const { replayStoreCalls, STORE_PAGE } = await dist('policy-test/store-calls.js');
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
    for (let i = 1; i < 100_000; i++) {
      last = chainedEntry(body(i), last);
      insert.run(last.seq, last.at, last.action, last.hash, JSON.stringify(last));
    }
    db.prepare('UPDATE decision_head SET seq = ?, hash = ? WHERE id = 1').run(last.seq, last.hash);
    db.exec('COMMIT');
    db.close();

    const candidate = createDecider(parsePolicy(small.replace('amount_lte: 10000 }', 'amount_lte: 50000 }'), 'ctrlrun.yaml').value);
    const reader = sqliteStore({ path: file });
    const readRows = async () => {
      let n = 0;
      for (let afterSeq = 0; ; ) {
        const page = await reader.listDecisions({ afterSeq, limit: STORE_PAGE });
        n += page.length;
        if (page.length < STORE_PAGE) return n;
        afterSeq = page[page.length - 1].seq;
      }
    };
    // what `replay --store` runs: the pages read, each call re-decided as it is read, the summary
    const replay = () => replayStoreCalls(reader, candidate);
    const m = await interleaved(7, 1, { read: readRows, replay });
    const result = await replay();
    await reader.close();
    console.log(
      `replay, 100,000 calls from SQLite, against reading the same rows (7 rounds; ${result.replayed} calls, ${result.summary.changed} changed): ${figure(m, ['read', 'replay'])}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Issue 25: `test` of 10,000 cases against the compiled decision functions alone (the same calls,
 * checked and decided, no report), `replay` of 100,000 recorded calls against reading them (the
 * JSON Lines parse), and `diff` of two 200-action policies as a figure.
 */
async function policyAsCode() {
  const policy = parsePolicy(small, 'ctrlrun.yaml').value;
  const decider = createDecider(policy);
  const amounts = Array.from({ length: 10_000 }, (_, i) => (i * 137) % 1_200_000);
  const suiteText = [
    'schema: ctrlrun.policy-test/v1',
    'cases:',
    ...amounts.map((a) => `  - { action: stripe.refund, args: { payment_id: ch_${a}, amount: ${a} }, expect: { decision: allow } }`),
  ].join('\n');
  const suite = parseTestFile(suiteText, 'ctrlrun.test.yaml').value;
  const action = decider.compiled.actions['stripe.refund'];
  const argsList = suite.cases.map((c) => c.args);
  const aloneOnce = () => {
    for (const a of argsList) {
      const checked = checkArguments(a);
      if (checked.ok) decideCall(action, checked.value); // the compiled decision and template functions
    }
  };
  const t = await interleaved(7, 20, { alone: aloneOnce, test: () => runTests(suite, decider) });
  console.log(`test, 10,000 cases, against the compiled decision functions alone (7 rounds of 20 runs): ${figure(t, ['alone', 'test'])}`);

  const lines = Array.from({ length: 100_000 }, (_, i) =>
    JSON.stringify({ action: 'stripe.refund', args: { payment_id: `ch_${i}`, amount: (i * 37) % 1_200_000 }, decision: 'allow' }),
  ).join('\n');
  const candidate = createDecider(parsePolicy(small.replace('amount_lte: 10000 }', 'amount_lte: 50000 }'), 'ctrlrun.yaml').value);
  const j = await interleaved(5, 1, {
    read: () => parseCallsFile(lines, 'calls.jsonl'),
    replay: () => replayCalls(parseCallsFile(lines, 'calls.jsonl').calls, candidate, null),
  });
  console.log(`replay, 100,000 calls (JSON Lines), against reading them (5 rounds): ${figure(j, ['read', 'replay'])}`);

  const many = (band) =>
    [
      'schema: ctrlrun.policy/v6',
      'actions:',
      ...Array.from(
        { length: 200 },
        (_, i) =>
          `  a${i}.refund:\n    effect: "refund:{id}"\n    rules:\n      - when: { amount_gte: 1, amount_lte: ${band + i}, currency_in: [usd, eur] }\n        decision: allow\n      - decision: approve`,
      ),
    ].join('\n');
  const a = parsePolicy(many(1000), 'a.yaml').value;
  const b = parsePolicy(many(2000), 'b.yaml').value;
  const d = [];
  diffPolicies(a, b); // warm up
  for (let round = 0; round < 5; round++) d.push(perRun(() => diffPolicies(a, b), 1));
  d.sort((x, y) => x - y);
  console.log(`diff, two 200-action policies (every action changed): ${d[2].toFixed(0)} ms (median of 5, range ${d[0].toFixed(0)}–${d[4].toFixed(0)})`);
}
