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

const small = readFileSync(path.join(root, 'fixtures/refund-desk/ctrlrun.yaml'), 'utf8');
const action = (i) => `  a${i}.refund:\n    effect: "refund:{id}"\n    rules:\n      - when: { amount_gte: 1, amount_lte: ${i}, currency_in: [usd, eur] }\n        decision: allow\n      - decision: approve\n`;
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
  for (const [name, text, runs] of [['refund-desk policy', small, 2000], [`${(large.length / 1024).toFixed(0)} KiB policy`, large, 5]]) {
    const yamlOnly = perRun(() => parseDocument(text, { keepSourceTokens: true, uniqueKeys: false, prettyErrors: false, lineCounter: new LineCounter() }), runs);
    const loader = perRun(() => {
      const r = parsePolicy(text, 'ctrlrun.yaml');
      if (r.value === undefined) throw new Error('bench policy did not load');
    }, runs);
    console.log(`${name}: parsePolicy ${(loader / yamlOnly).toFixed(2)}x the yaml package's parseDocument alone (${loader.toFixed(2)} ms vs ${yamlOnly.toFixed(2)} ms)`);
  }
}
