// `npm run bench`: runs every bench/*.bench.mjs in order. Each prints its own figures, as ratios
// against a baseline measured in the same run (never absolute pass/fail thresholds). A bench that
// exports `onlyWhenNamed` (it takes minutes) runs only when named: `npm run bench -- instructions`.
// CTRLRUN_BENCH_SIZE=tiny runs every bench at a tiny size, in seconds (bench/lib/size.mjs): a smoke
// run whose figures mean nothing, which test/bench runs so that no bench rots unnoticed.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
for (const file of files) {
  console.log(`\n## ${file.replace('.bench.mjs', '')}`);
  const mod = await import(pathToFileURL(path.join(dir, file)).href);
  if (mod.onlyWhenNamed && only.length === 0) console.log(`skipped: it runs only when named (npm run bench -- ${file.replace('.bench.mjs', '')})`);
  else await mod.run();
}
