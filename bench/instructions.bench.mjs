// The runtime's per-call cost in instructions (`npm run bench -- instructions`; minutes, needs
// valgrind): the Runner sides of bench/lib/allow-sides.mjs counted by callgrind, each a count per
// run, with the ratios between them. The load of a shared machine moves runtime.bench.mjs's
// time figures by more than the differences measured; it does not move these. Only when named:
// a whole `npm run bench` skips it. Imports dist/.
import os from 'node:os';
import { canCount, instructionsPerRun, ratioLines, sideLine } from './lib/instructions.mjs';
import { sized } from './lib/size.mjs';

/** Run only when named on the command line (`npm run bench -- instructions`). */
export const onlyWhenNamed = true;

export async function run() {
  if (!canCount()) {
    console.log('skipped: valgrind and callgrind_annotate are not both on PATH');
    return;
  }
  // tiny: one side at 1 and 2 runs (each count is a whole node under valgrind, half a minute)
  const [low, high] = sized([150, 450], [1, 2]);
  const sides = sized(['plain', 'gated', 'floor', 'protected'], ['protected']);
  console.log(
    `Runner, one allow call per run, memory store; instructions per run counted at ${low} and ${high} runs (the slope), node --single-threaded --predictable; load average ${os.loadavg()[0].toFixed(1)} (not a factor)`,
  );
  const perRun = instructionsPerRun(sides, low, high, (side, count) => console.log(sideLine(side, count)));
  for (const line of ratioLines(perRun)) console.log(line);
}
