// Instructions per Runner run, counted by valgrind's callgrind (not a bench of `npm run bench`: it
// takes minutes, and needs valgrind on PATH). The time figures of runtime.bench.mjs move with the
// machine's load; an instruction count does not. Each side of bench/profile-protected.mjs (plain,
// gated: the SDK-hook-only baseline, protected) runs at two run counts; the difference over the
// difference in runs is the count per run with start-up and most of the JIT's warm-up taken out.
// Counts every thread (GC helpers too). Imports dist/ through profile-protected.mjs (build first).
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

function instructions(side, runs) {
  const out = path.join(dir, `${side}.${runs}.out`);
  // --smc-check: V8 writes the code it runs (the JIT)
  execFileSync('valgrind', ['--tool=callgrind', '--smc-check=all-non-file', `--callgrind-out-file=${out}`, process.execPath, script, side, String(runs)], {
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const summary = /^summary: (\d+)/m.exec(readFileSync(out, 'utf8'));
  if (!summary) throw new Error(`no callgrind summary for ${side} (${runs} runs)`);
  return Number(summary[1]);
}

try {
  const perRun = {};
  for (const side of sides) {
    perRun[side] = (instructions(side, high) - instructions(side, low)) / (high - low);
    console.log(`${side}: ${(perRun[side] / 1e6).toFixed(3)} M instructions per run`);
  }
  const ratio = (a, b) => (perRun[a] && perRun[b] ? `${(perRun[a] / perRun[b]).toFixed(3)}x` : 'n/a');
  console.log(
    `protected/plain ${ratio('protected', 'plain')}; protected/gated (this library's own part) ${ratio('protected', 'gated')}; gated/plain (the SDK's own cost of the hooks) ${ratio('gated', 'plain')}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
