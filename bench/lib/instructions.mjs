// Instructions per Runner run of each side of bench/lib/allow-sides.mjs, counted by valgrind's
// callgrind: the figure the machine's load does not move (see bench/count-instructions.mjs).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'profile-protected.mjs');

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
function instructions(dir, side, runs) {
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

/** Whether valgrind and callgrind_annotate are on PATH. */
export function canCount() {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
    // callgrind_annotate prints its version on stderr and exits 255: its output says it is there
    const annotate = spawnSync('callgrind_annotate', ['--version'], { encoding: 'utf8' });
    return /callgrind_annotate/.test(`${annotate.stdout ?? ''}${annotate.stderr ?? ''}`);
  } catch {
    return false;
  }
}

/**
 * Each side's instructions per run: counted at `low` and at `high` runs, the difference over the
 * difference in runs (start-up and most of the JIT's warm-up taken out), split as `instructions` does.
 */
export function instructionsPerRun(sides, low, high, onSide = () => {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-callgrind-'));
  try {
    const perRun = {};
    for (const side of sides) {
      const [a, b] = [instructions(dir, side, low), instructions(dir, side, high)];
      const slope = (k) => (b[k] - a[k]) / (high - low);
      perRun[side] = { total: slope('total'), gc: slope('gc'), jit: slope('jit'), rest: slope('rest') };
      onSide(side, perRun[side]);
    }
    return perRun;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One side's line: its count per run and the three shares, in millions. */
export function sideLine(side, count) {
  const m = (k) => (count[k] / 1e6).toFixed(3);
  return `${side}: ${m('total')} M instructions per run (GC ${m('gc')} M, JIT ${m('jit')} M, the rest ${m('rest')} M)`;
}

/** The ratios between the sides counted (each pair only when both were). */
export function ratioLines(perRun) {
  const ratio = (a, b, k) => (perRun[a] && perRun[b] ? `${(perRun[a][k] / perRun[b][k]).toFixed(3)}x` : 'n/a');
  return ['total', 'rest'].map(
    (k) =>
      `${k === 'total' ? 'all instructions' : 'the rest (no GC, no JIT)'}: protected/plain ${ratio('protected', 'plain', k)}; ` +
      `protected/gated (this library's own part) ${ratio('protected', 'gated', k)}; gated/plain (the SDK's own cost of the hooks) ${ratio('gated', 'plain', k)}; ` +
      `floor/plain (the records alone) ${ratio('floor', 'plain', k)}; protected/floor (everything else the library does) ${ratio('protected', 'floor', k)}`,
  );
}
