// Promises created per Runner run, counted by async_hooks (not a bench of `npm run bench`): each
// promise is an allocation and most are a turn of the microtask queue in the Runner's loop, and
// unlike a time a count does not move with the machine's load. Each side of
// bench/profile-protected.mjs (plain, gated: the SDK-hook-only baseline, protected) runs in a
// child process at two run counts; the difference over the difference in runs is the count per
// run. The hook makes V8 allocate promises it otherwise elides (an await's throwaway), so compare
// sides, not absolute numbers. Imports dist/ through profile-protected.mjs (build first).
//   node bench/count-promises.mjs [low=100] [high=300] [sides=plain,gated,protected]
import { createHook } from 'node:async_hooks';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'profile-protected.mjs');

if (process.argv[2] === '--child') {
  let n = 0;
  createHook({
    init(_id, type) {
      if (type === 'PROMISE') n++;
    },
  }).enable();
  process.argv.splice(2, 1); // profile-protected.mjs reads its side and run count from argv[2] and argv[3]
  const log = console.log;
  console.log = () => {};
  await import(pathToFileURL(script).href);
  console.log = log;
  console.log(n);
} else {
  const [low, high] = [Number(process.argv[2] ?? 100), Number(process.argv[3] ?? 300)];
  const sides = (process.argv[4] ?? 'plain,gated,protected').split(',');
  const count = (side, runs) =>
    Number(execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', side, String(runs)], { encoding: 'utf8' }).trim());
  const perRun = {};
  for (const side of sides) {
    perRun[side] = (count(side, high) - count(side, low)) / (high - low);
    console.log(`${side}: ${perRun[side].toFixed(1)} promises per run`);
  }
  if (perRun.protected !== undefined && perRun.gated !== undefined) {
    console.log(`protected - gated (this library's own): ${(perRun.protected - perRun.gated).toFixed(1)} promises per run`);
  }
}
