// One side of a policy.bench.mjs figure, timed in a process of its own so that no side inherits
// another's JIT feedback (call sites made polymorphic, code optimized for the other side's shapes).
// `node policy-side.mjs <side> <runs> [file]`: builds the side's inputs (the same, deterministic,
// for every side of a figure), warms the side up on them, times `runs` runs and prints one JSON
// line: the per-run CPU time of this process (every thread, GC helpers too) and wall time, in ms.
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import { ACTIONS, CALLS, CASES, WARM_MS } from './policy-sizes.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const dist = (f) => import(pathToFileURL(path.join(root, 'dist', f)).href);
const { parsePolicy } = await dist('policy/load.js');
const { createDecider } = await dist('policy-test/decider.js');

const small = readFileSync(path.join(root, 'fixtures/refund-desk/ctrlrun.yaml'), 'utf8');
/** The candidate of both replays: the refund band widened, so some recorded allows and approvals change. */
const loosened = () => createDecider(parsePolicy(small.replace('amount_lte: 10000 }', 'amount_lte: 50000 }'), 'ctrlrun.yaml').value);

/** The refund-desk policy's decision for a refund of `amount` (its three rules, written out here). */
const expected = (amount) => (amount >= 1 && amount <= 10_000 ? 'allow' : amount >= 1 && amount <= 1_000_000 ? 'approve' : 'deny');

/**
 * 10,000 test cases of one action over the whole amount range, and the decider. A suite CI runs
 * passes: each case expects what the policy decides. `failing`: every case expects allow, so
 * 98.5% fail (the suite of the session 10 figures); the calls are the same.
 */
async function testInputs(failing = false) {
  const { parseTestFile } = await dist('policy-test/cases.js');
  const decider = createDecider(parsePolicy(small, 'ctrlrun.yaml').value);
  const amounts = Array.from({ length: CASES }, (_, i) => (i * 137) % 1_200_000);
  const suiteText = [
    'schema: ctrlrun.policy-test/v1',
    'cases:',
    ...amounts.map(
      (a) => `  - { action: stripe.refund, args: { payment_id: ch_${a}, amount: ${a} }, expect: { decision: ${failing ? 'allow' : expected(a)} } }`,
    ),
  ].join('\n');
  const suite = parseTestFile(suiteText, 'ctrlrun.test.yaml').value;
  return { suite, decider };
}

/** 100,000 recorded calls as JSON Lines text. */
const jsonLines = () =>
  Array.from({ length: CALLS }, (_, i) =>
    JSON.stringify({ action: 'stripe.refund', args: { payment_id: `ch_${i}`, amount: (i * 37) % 1_200_000 }, decision: 'allow' }),
  ).join('\n');

/** A policy of ACTIONS actions (200; the text), each with its own band. */
function manyActionsText(band) {
  const lines = ['schema: ctrlrun.policy/v6', 'actions:'];
  for (let i = 0; i < ACTIONS; i++) {
    lines.push(
      `  a${i}.refund:\n    effect: "refund:{id}"\n    rules:\n      - when: { amount_gte: 1, amount_lte: ${band + i}, currency_in: [usd, eur] }\n        decision: allow\n      - decision: approve`,
    );
  }
  return lines.join('\n');
}

/** Two policies of 200 actions, every action's band different. */
const manyActions = (band) => parsePolicy(manyActionsText(band), `p${band}.yaml`).value;

/**
 * The largest policy in the fixtures (operators of every kind, data labels, nested values) and a
 * change of it: every comparison's bound one higher, every approve an allow.
 */
function largestTexts() {
  const text = readFileSync(path.join(root, 'fixtures/generate/operators/ctrlrun.yaml'), 'utf8');
  const changed = text.replace(/(_(?:lt|lte|gt|gte): )(\d+)/g, (_m, k, n) => `${k}${Number(n) + 1}`).replace(/decision: approve/g, 'decision: allow');
  return [text, changed];
}

/** `diff`'s figures: its inputs as texts, the time to load both its baseline. */
const pairs = { largest: largestTexts, 200: () => [manyActionsText(1000), manyActionsText(2000)] };
const loadSide = (pair) => async () => {
  const [a, b] = pairs[pair]();
  return () => parsePolicy(a, 'a.yaml').value.hash.length + parsePolicy(b, 'b.yaml').value.hash.length;
};
const diffSide = (pair, compiled) => async () => {
  const { diffPolicies } = await dist('policy-test/diff.js');
  const [a, b] = pairs[pair]().map((t, i) => parsePolicy(t, `${i}.yaml`).value);
  // `compiled`: the two generated modules made beforehand, so the figure is the decision procedure and its witnesses' confirmation
  const deciders = compiled ? [createDecider(a), createDecider(b)] : undefined;
  return () => diffPolicies(a, b, deciders ? { deciders } : {}).summary.regions;
};

/** Each side: its inputs made once, then a function timed per run (its result returned so the work is used). */
const sides = {
  // `test`'s baseline: the compiled decision work on the same calls (the arguments checked, the
  // action's compiled rules and templates run), each decision made in full (a ring of the last 64
  // holds it, so the compiler cannot drop what is not read) and dying young
  async alone() {
    const { suite, decider } = await testInputs();
    const { checkArguments } = await dist('runtime/arguments.js');
    const { decideCall } = await dist('runtime/decide.js');
    const action = decider.compiled.actions['stripe.refund'];
    const argsList = suite.cases.map((c) => c.args);
    const ring = new Array(64).fill(null);
    return () => {
      let allowed = 0;
      let i = 0;
      for (const a of argsList) {
        const checked = checkArguments(a);
        if (!checked.ok) continue;
        const d = decideCall(action, checked.value);
        ring[i++ & 63] = d;
        if (d.decision === 'allow') allowed += 1;
      }
      return allowed;
    };
  },
  // the decider's own call per case (the action looked up, the arguments checked, decideCall,
  // the authority step), the decisions dying young as the baseline's
  async decide() {
    const { suite, decider } = await testInputs();
    const ring = new Array(64).fill(null);
    return () => {
      let allowed = 0;
      let i = 0;
      for (const c of suite.cases) {
        const d = decider.decide(c);
        ring[i++ & 63] = d;
        if (d.decision === 'allow') allowed += 1;
      }
      return allowed;
    };
  },
  // the decider's call per case with every decision kept, as `test` keeps them for its report
  async kept() {
    const { suite, decider } = await testInputs();
    return () => {
      const kept = [];
      for (const c of suite.cases) kept.push({ case: c, actual: decider.decide(c) });
      return kept.length;
    };
  },
  // `ctrlrun-gen test`'s run: each case decided, compared, counted, the coverage; every result kept for the report
  async test() {
    const { suite, decider } = await testInputs();
    const { runTests } = await dist('policy-test/run-tests.js');
    return () => runTests(suite, decider).passed;
  },
  // the same run of a suite whose every case expects allow: 98.5% of them fail, each with its mismatch list
  async 'test-failing'() {
    const { suite, decider } = await testInputs(true);
    const { runTests } = await dist('policy-test/run-tests.js');
    return () => runTests(suite, decider).failed;
  },
  // JSON Lines replay's baseline: reading the calls (the file's parse)
  async 'jsonl-read'() {
    const { parseCallsFile } = await dist('policy-test/calls-file.js');
    const lines = jsonLines();
    loosened();
    return () => parseCallsFile(lines, 'calls.jsonl').calls.length;
  },
  async 'jsonl-replay'() {
    const { parseCallsFile } = await dist('policy-test/calls-file.js');
    const { replayCalls } = await dist('policy-test/replay.js');
    const lines = jsonLines();
    const candidate = loosened();
    return () => replayCalls(parseCallsFile(lines, 'calls.jsonl').calls, candidate, null).summary.changed;
  },
  // `replay --store`'s baseline: the same rows read through the store, in the same pages
  async 'store-read'(file) {
    const { sqliteStore } = await dist('runtime/sqlite.js');
    const { STORE_PAGE } = await dist('policy-test/store-calls.js');
    const reader = sqliteStore({ path: file });
    loosened();
    return async () => {
      let n = 0;
      for (let afterSeq = 0; ; ) {
        const page = await reader.listDecisions({ afterSeq, limit: STORE_PAGE });
        n += page.length;
        if (page.length < STORE_PAGE) return n;
        afterSeq = page[page.length - 1].seq;
      }
    };
  },
  // the rows read, each call id's first entry kept (a set of the ids, as replay keeps) and its
  // arguments parsed and checked as the runtime parses them: what replay does before any decision
  async 'store-parse'(file) {
    const { sqliteStore } = await dist('runtime/sqlite.js');
    const { STORE_PAGE } = await dist('policy-test/store-calls.js');
    const { parseArguments } = await dist('runtime/arguments.js');
    const reader = sqliteStore({ path: file });
    loosened();
    return async () => {
      const seen = new Set();
      let n = 0;
      for (let afterSeq = 0; ; ) {
        const page = await reader.listDecisions({ afterSeq, limit: STORE_PAGE });
        for (const e of page) {
          const size = seen.size;
          if (seen.add(e.call_id).size !== size && parseArguments(e.args).ok) n += 1;
        }
        if (page.length < STORE_PAGE) return n;
        afterSeq = page[page.length - 1].seq;
      }
    };
  },
  // what `replay --store` runs: the pages read, each call re-decided as it is read, the summary
  async 'store-replay'(file) {
    const { sqliteStore } = await dist('runtime/sqlite.js');
    const { replayStoreCalls } = await dist('policy-test/store-calls.js');
    const reader = sqliteStore({ path: file });
    const candidate = loosened();
    return async () => (await replayStoreCalls(reader, candidate)).summary.changed;
  },
  async diff() {
    const { diffPolicies } = await dist('policy-test/diff.js');
    const a = manyActions(1000);
    const b = manyActions(2000);
    return () => diffPolicies(a, b).actions?.length;
  },
  'load-largest': loadSide('largest'),
  'diff-largest': diffSide('largest', false),
  'procedure-largest': diffSide('largest', true),
  'load-200': loadSide('200'),
  'diff-200': diffSide('200', false),
  'procedure-200': diffSide('200', true),
};

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const [name, runsText, file] = process.argv.slice(2);
if (!Object.hasOwn(sides, name)) throw new Error(`no side ${name}; sides: ${Object.keys(sides).join(', ')}`);
const runs = Number(runsText);
const f = await sides[name](file);
// warmed up for a quarter of the runs and at least 0.5 s, so the optimizing compiler (which works
// on a thread of its own, at its own pace) is done before the clock starts
let sink = 0;
const warmUntil = performance.now() + WARM_MS;
for (let i = 0; i < Math.max(1, Math.ceil(runs / 4)) || performance.now() < warmUntil; i++) sink += Number(await f()) || 0;
const [c0, w0] = [cpuMs(), performance.now()];
for (let i = 0; i < runs; i++) sink += Number(await f()) || 0;
const [cpu, wall] = [(cpuMs() - c0) / runs, (performance.now() - w0) / runs];
process.stdout.write(`${JSON.stringify({ side: name, cpu, wall, sink, load: os.loadavg()[0] })}\n`);
