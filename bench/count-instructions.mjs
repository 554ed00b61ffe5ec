// Instructions per Runner run, counted by valgrind's callgrind (not a bench of `npm run bench`: it
// takes minutes, and needs valgrind and callgrind_annotate on PATH). The time figures of
// runtime.bench.mjs move with the machine's load; an instruction count does not. Each side of
// bench/profile-protected.mjs (plain, gated: the SDK-hook-only baseline, protected) runs at two
// run counts; the difference over the difference in runs is the count per run with start-up and
// most of the JIT's warm-up taken out.
//
// Node runs with `--single-threaded --predictable` (V8's deterministic mode: no concurrent
// threads, no time-based GC or JIT decisions), so the JIT's and the GC's work is counted on the
// one thread and a count repeats: two counts of 450 protected runs differed by 100,000
// instructions in 4.6 billion, where without it the shares of two counts of the same code moved
// by several percent. Each count is split three ways: the garbage collector (Heap::CollectGarbage and incremental
// marking steps, inclusive), the optimizing compilers (Maglev and TurboFan jobs), and the rest,
// the program itself.
// Imports dist/ through profile-protected.mjs (build first).
//   node bench/count-instructions.mjs [low=150] [high=450] [sides=plain,gated,protected]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const [low, high] = [Number(process.argv[2] ?? 150), Number(process.argv[3] ?? 450)];
const sides = (process.argv[4] ?? 'plain,gated,protected').split(',');
const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'profile-protected.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-callgrind-'));

// The functions whose inclusive counts are the collector's and the compilers' work (V8 12/13 names).
const ROOTS = {
  gc: ['v8::internal::Heap::CollectGarbage(', 'v8::internal::IncrementalMarking::Observer::Step('],
  jit: [
    'v8::internal::maglev::MaglevCompilationJob::ExecuteJobImpl(',
    'v8::internal::compiler::PipelineCompilationJob::ExecuteJobImpl(',
    'v8::internal::OptimizedCompilationJob::FinalizeJob(',
  ],
};

/** The count of one run of a side: its total, and the collector's and the compilers' shares. */
function instructions(side, runs) {
  const out = path.join(dir, `${side}.${runs}.out`);
  // --smc-check: V8 writes the code it runs (the JIT)
  execFileSync(
    'valgrind',
    [
      '--tool=callgrind',
      '--smc-check=all-non-file',
      `--callgrind-out-file=${out}`,
      process.execPath,
      '--single-threaded',
      '--predictable',
      script,
      side,
      String(runs),
    ],
    { stdio: ['ignore', 'ignore', 'ignore'] },
  );
  const summary = /^summary: (\d+)/m.exec(readFileSync(out, 'utf8'));
  if (!summary) throw new Error(`no callgrind summary for ${side} (${runs} runs)`);
  const annotated = execFileSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', out], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const share = { gc: 0, jit: 0 };
  for (const line of annotated.split('\n')) {
    const m = /^\s*([\d,]+)\s+\([^)]*\)\s+\?\?\?:(.*)$/.exec(line);
    // a recursive entry ('2) is already inside its outer one
    if (!m || m[2].includes("'2")) continue;
    for (const [part, roots] of Object.entries(ROOTS)) if (roots.some((r) => m[2].startsWith(r))) share[part] += Number(m[1].replaceAll(',', ''));
  }
  const total = Number(summary[1]);
  return { total, gc: share.gc, jit: share.jit, rest: total - share.gc - share.jit };
}

try {
  const perRun = {};
  for (const side of sides) {
    const [a, b] = [instructions(side, low), instructions(side, high)];
    const slope = (k) => (b[k] - a[k]) / (high - low);
    perRun[side] = { total: slope('total'), gc: slope('gc'), jit: slope('jit'), rest: slope('rest') };
    const m = (k) => (perRun[side][k] / 1e6).toFixed(3);
    console.log(`${side}: ${m('total')} M instructions per run (GC ${m('gc')} M, JIT ${m('jit')} M, the rest ${m('rest')} M)`);
  }
  const ratio = (a, b, k) => (perRun[a] && perRun[b] ? `${(perRun[a][k] / perRun[b][k]).toFixed(3)}x` : 'n/a');
  for (const k of ['total', 'rest']) {
    console.log(
      `${k === 'total' ? 'all instructions' : 'the rest (no GC, no JIT)'}: protected/plain ${ratio('protected', 'plain', k)}; ` +
        `protected/gated (this library's own part) ${ratio('protected', 'gated', k)}; gated/plain (the SDK's own cost of the hooks) ${ratio('gated', 'plain', k)}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
