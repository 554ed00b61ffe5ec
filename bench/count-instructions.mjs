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
//   node bench/count-instructions.mjs [low=150] [high=450] [sides=plain,gated,floor,protected]
import { instructionsPerRun, ratioLines, sideLine } from './lib/instructions.mjs';

const [low, high] = [Number(process.argv[2] ?? 150), Number(process.argv[3] ?? 450)];
const sides = (process.argv[4] ?? 'plain,gated,floor,protected').split(',');
const perRun = instructionsPerRun(sides, low, high, (side, count) => console.log(sideLine(side, count)));
for (const line of ratioLines(perRun)) console.log(line);
