// The policy loader against the `yaml` package's own parse of the same text (its floor: the loader
// parses with it, then walks the nodes, checks them and hashes the normalized policy), on a small
// realistic policy and on one near the 256 KiB cap. Ratios, measured in the same run.
import { readFileSync } from 'node:fs';
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

export async function run() {
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
  policyAsCode();
  await replayFromSqlite();
}

/**
 * Issue 25: `replay` of 100,000 calls from a SQLite store's decision log (the store's own pages,
 * entries turned into calls, each re-decided, the summary) against reading the same rows through
 * the store (`listDecisions` in the same pages). The rows are written in one transaction as the
 * store chains them (100,000 separate appends would measure fsync, not replay).
 */
export async function replayFromSqlite() {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { DatabaseSync } = await import('node:sqlite');
  const { sqliteStore } = await dist('runtime/sqlite.js');
  const { chainedEntry } = await dist('runtime/decision-log.js');
  const { readStoreCalls, STORE_PAGE } = await dist('policy-test/store-calls.js');
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
    const replay = async () => replayCalls(await readStoreCalls(reader), candidate, null);
    const time = async (fn, runs) => {
      await fn(); // warm up
      const t0 = performance.now();
      for (let i = 0; i < runs; i++) await fn();
      return (performance.now() - t0) / runs;
    };
    // interleaved, so a load spike on the shared machine falls on both
    let read = 0;
    let replayed = 0;
    for (let round = 0; round < 3; round++) {
      read += await time(readRows, 1);
      replayed += await time(replay, 1);
    }
    const result = await replay();
    await reader.close();
    console.log(
      `replay, 100,000 calls from SQLite: ${(replayed / read).toFixed(2)}x reading the same rows (${(replayed / 3).toFixed(0)} ms vs ${(read / 3).toFixed(0)} ms; ${result.replayed} calls, ${result.summary.changed} changed)`,
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
function policyAsCode() {
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
  // interleaved rounds, the median of the per-round ratios: a GC or a load spike falls on one round
  const ratios = [];
  let alone = 0;
  let tests = 0;
  for (let round = 0; round < 7; round++) {
    const a = perRun(aloneOnce, 40);
    const t = perRun(() => runTests(suite, decider), 40);
    ratios.push(t / a);
    alone += a / 7;
    tests += t / 7;
  }
  ratios.sort((x, y) => x - y);
  console.log(
    `test, 10,000 cases: ${ratios[3].toFixed(2)}x the compiled decision functions alone (median of 7 interleaved rounds, ${ratios[0].toFixed(2)}–${ratios[6].toFixed(2)}; ${tests.toFixed(2)} ms vs ${alone.toFixed(2)} ms)`,
  );

  const lines = Array.from({ length: 100_000 }, (_, i) =>
    JSON.stringify({ action: 'stripe.refund', args: { payment_id: `ch_${i}`, amount: (i * 37) % 1_200_000 }, decision: 'allow' }),
  ).join('\n');
  const candidate = createDecider(parsePolicy(small.replace('amount_lte: 10000 }', 'amount_lte: 50000 }'), 'ctrlrun.yaml').value);
  const read = perRun(() => parseCallsFile(lines, 'calls.jsonl'), 3);
  const calls = parseCallsFile(lines, 'calls.jsonl').calls;
  const replay = perRun(() => replayCalls(parseCallsFile(lines, 'calls.jsonl').calls, candidate, null), 3);
  console.log(
    `replay, 100,000 calls (JSON Lines): ${(replay / read).toFixed(2)}x reading them (${replay.toFixed(0)} ms vs ${read.toFixed(0)} ms; ${calls.length} calls)`,
  );

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
  const d = perRun(() => diffPolicies(a, b), 3);
  console.log(`diff, two 200-action policies (every action changed): ${d.toFixed(0)} ms`);
}
