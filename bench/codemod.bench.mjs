// The codemod's dry run over a large generated repo (3,000 files, 2% using the SDK) and over
// fixtures/refund-desk: files/s and peak memory, against parsing every file with TypeScript
// (no text prefilter) in the same run. Then, as whole processes (issue 40, item 8), the dry run
// of the CLI on a real corpus, the SDK's own examples (bench/lib/sdk-examples.mjs), against a
// process that parses every file of it. Imports from dist/ (npm run bench builds first).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { BARE_NODE, floorOf, parseFloorProcess } from './lib/floor.mjs';
import { medianCpu, medianWall, processTimer } from './lib/process.mjs';
import { generateRepo, parseEveryFile } from './lib/repo.mjs';
import { prepareSdkExamples, SDK_EXAMPLES_COMMIT, sdkExamplesSource } from './lib/sdk-examples.mjs';
import { sized } from './lib/size.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// the CLI as a user runs it: the file package.json's `bin` names
const BIN = path.join(ROOT, JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).bin['ctrlrun-gen']);
const { runCodemod } = await import(path.join(ROOT, 'dist/codemod/index.js'));
const { listSourceFiles, scanRepo } = await import(path.join(ROOT, 'dist/scan/index.js'));
const { loadProject } = await import(path.join(ROOT, 'dist/manifest/load.js'));

const FILES = sized(3000, 100);
const PROCESS_ROUNDS = sized(5, 1);
const SDK_SHARE = 0.02;

function plainFile(i) {
  const lines = [`// Module ${i}: business logic with no agent in it.`, `import { helper${i % 7} } from './helpers.js';`, ''];
  for (let f = 0; f < 12; f++) {
    lines.push(`export function compute${i}_${f}(input: { id: string; amount: number }): number {`);
    lines.push(`  const factor = ${f + 1} * input.amount;`);
    lines.push(`  return factor > 100 ? factor - ${f} : helper${i % 7}(factor);`);
    lines.push('}', '');
  }
  return lines.join('\n');
}

function sdkFile(i) {
  return [
    "import { Agent, tool } from '@openai/agents';",
    "import { z } from 'zod';",
    '',
    `export const refund${i} = tool({`,
    "  name: 'refund',",
    "  description: 'Refund a charge.',",
    '  parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),',
    '  execute: async ({ payment_id, amount }) => `refunded ${amount} on ${payment_id}`,',
    '});',
    '',
    `export const lookup${i} = tool({`,
    "  name: 'lookup_charge',",
    "  description: 'A charge.',",
    '  parameters: z.object({ payment_id: z.string() }),',
    '  async execute({ payment_id }) { return payment_id; },',
    '});',
    '',
    `export const agent${i} = new Agent({ name: 'Desk ${i}', tools: [refund${i}, lookup${i}] });`,
    '',
  ].join('\n');
}

export function makeRepo() {
  return generateRepo({
    prefix: 'ctrlrun-codemod-bench-',
    count: FILES,
    sdkShare: SDK_SHARE,
    pathOf: (i) => path.join('src', `pkg${i % 30}`, `mod${i % 5}`, `file${i}.ts`),
    plainFile,
    sdkFile,
    extra: {
      'ctrlrun.yaml':
        'schema: ctrlrun.policy/v6\nactions:\n  stripe.refund:\n    rules:\n      - when: { amount_lte: 10000 }\n        decision: allow\n      - decision: approve\n  stripe.charge.read:\n    decision: allow\n',
      'ctrlrun.tools.yaml':
        'schema: ctrlrun.tools/v1\npolicy: ctrlrun.yaml\noutput: src/ctrlrun.generated.ts\ncontrol: src/ctrlrun.control.ts\ntools:\n  - tool: refund\n    action: stripe.refund\n  - tool: lookup_charge\n    action: stripe.charge.read\n',
      'tsconfig.json': '{ "compilerOptions": { "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true } }\n',
      '.gitignore': 'dist/\n',
    },
  }).dir;
}

/** Runs `fn` while sampling RSS every 5 ms; returns its result, the time and the peak RSS seen. */
async function measure(fn) {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const start = performance.now();
  const value = await fn();
  const ms = performance.now() - start;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { value, ms, peak };
}

async function codemodDryRun(dir) {
  const project = loadProject({ cwd: dir });
  return runCodemod({ manifest: project.manifest, policy: project.policy });
}

/** The baseline: list the same files, then parse every one with TypeScript (no prefilter). */
async function parseEverything(dir) {
  return parseEveryFile(await listSourceFiles({ root: dir }));
}

function median(runs) {
  const sorted = [...runs].sort((a, b) => a.ms - b.ms);
  return { ...sorted[1], peak: Math.max(...runs.map((r) => r.peak)) };
}

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

export async function run() {
  const dir = makeRepo();
  try {
    // Warm the module and file-system caches once so neither side pays the first-call cost,
    // then take the median of three runs of each, interleaved.
    await codemodDryRun(path.join(ROOT, 'fixtures/refund-desk'));
    await parseEverything(dir);
    const codemodRuns = [];
    const baselineRuns = [];
    for (let i = 0; i < 3; i++) {
      codemodRuns.push(await measure(() => codemodDryRun(dir)));
      baselineRuns.push(await measure(() => parseEverything(dir)));
    }
    const codemod = median(codemodRuns);
    const baseline = median(baselineRuns);
    const s = codemod.value.summary;
    console.log(
      `large repo: ${s.filesScanned} files (${s.filesParsed} parsed after the text test), ${s.toolsRewritten} tools to rewrite in ${s.filesRewritten} files`,
    );
    console.log(
      `  codemod dry run:       ${codemod.ms.toFixed(0)} ms, ${(s.filesScanned / (codemod.ms / 1000)).toFixed(0)} files/s, peak RSS ${mb(codemod.peak)}`,
    );
    console.log(
      `  parse every file (TS): ${baseline.ms.toFixed(0)} ms, ${(baseline.value.files / (baseline.ms / 1000)).toFixed(0)} files/s, peak RSS ${mb(baseline.peak)}`,
    );
    console.log(`  ratio codemod / parse-everything: ${(codemod.ms / baseline.ms).toFixed(2)}x the time`);

    const desk = path.join(ROOT, 'fixtures/refund-desk');
    const small = median([await measure(() => codemodDryRun(desk)), await measure(() => codemodDryRun(desk)), await measure(() => codemodDryRun(desk))]);
    const smallBase = median([
      await measure(() => parseEverything(desk)),
      await measure(() => parseEverything(desk)),
      await measure(() => parseEverything(desk)),
    ]);
    const d = small.value.summary;
    console.log(`fixtures/refund-desk: ${d.filesScanned} files, ${d.toolsRewritten} tools to rewrite`);
    console.log(`  codemod dry run:       ${small.ms.toFixed(1)} ms, ${(d.filesScanned / (small.ms / 1000)).toFixed(0)} files/s`);
    console.log(`  parse every file (TS): ${smallBase.ms.toFixed(1)} ms; ratio ${(small.ms / smallBase.ms).toFixed(2)}x`);
    console.log(`process maxRSS (resourceUsage): ${mb(process.resourceUsage().maxRSS * 1024)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await sdkExamplesProcesses();
}

/**
 * `ctrlrun-gen codemod` (dry run) on the SDK's examples as a whole process, against a process that
 * parses every file the codemod lists (ts-morph imported, as the check bench's baseline): medians of
 * alternated runs, wall and CPU. Goal (issue 40): <= 0.8.
 */
async function sdkExamplesProcesses() {
  const source = sdkExamplesSource();
  if (!source) {
    console.log(
      `SDK examples: skipped; set CTRLRUN_BENCH_SDK_EXAMPLES to the examples/ folder of openai/openai-agents-js at ${SDK_EXAMPLES_COMMIT.slice(0, 8)}, or REAL_REPOS_SNAPSHOTS to fetched snapshots holding that repository`,
    );
    return;
  }
  const dir = prepareSdkExamples(source, BIN);
  try {
    const files = await listSourceFiles({ root: dir });
    const list = path.join(dir, '.bench-files.json');
    writeFileSync(list, JSON.stringify(files));
    const lib = pathToFileURL(path.join(ROOT, 'bench/lib/repo.mjs')).href;
    const parseProcess = [
      '--input-type=module',
      '-e',
      `import { readFileSync } from 'node:fs'; import { parseEveryFile } from '${lib}'; parseEveryFile(JSON.parse(readFileSync(${JSON.stringify(list)}, 'utf8')));`,
    ];
    const codemodProcess = [BIN, 'codemod', '--cwd', dir];
    // The floor (bench/lib/floor.mjs): the codemod's start-up (run in an empty folder outside the
    // repo: no manifest, exit 2, as the check bench times check's), plus reading every file and
    // parsing those the codemod's scan parses. Its help was the start-up until the codemod skipped
    // yargs (issue 40, item 8): help still loads it, so it overstated the codemod's own start.
    const { manifest } = loadProject({ cwd: dir });
    const scan = await scanRepo({ root: dir, generatedModule: manifest.output });
    const parsed = [...scan.files, ...scan.testFiles].map((f) => path.join(dir, f.file));
    const floorProcess = parseFloorProcess(ROOT, dir, files, parsed);
    const emptyDir = mkdtempSync(path.join(os.tmpdir(), 'ctrlrun-codemod-bench-empty-'));
    const startupProcess = [BIN, 'codemod', '--cwd', emptyDir];
    const timed = processTimer(dir);
    timed(parseProcess);
    timed(codemodProcess);
    timed(floorProcess);
    const pp = [];
    const cp = [];
    const sp = [];
    const lp = [];
    const bp = [];
    for (let r = 0; r < PROCESS_ROUNDS; r++) {
      pp.push(timed(parseProcess));
      cp.push(timed(codemodProcess));
      sp.push(timed(startupProcess, { okCodes: [2] }));
      lp.push(timed(floorProcess));
      bp.push(timed(BARE_NODE));
    }
    rmSync(emptyDir, { recursive: true, force: true });
    const floor = floorOf(
      { wall: medianWall(sp), cpu: medianCpu(sp) },
      { wall: medianWall(lp), cpu: medianCpu(lp) },
      { wall: medianWall(bp), cpu: medianCpu(bp) },
    );
    console.log(`SDK examples at ${SDK_EXAMPLES_COMMIT.slice(0, 8)}: ${files.length} source files`);
    console.log(
      `  process: node parsing every file (ts-morph imported), median of ${PROCESS_ROUNDS}: ${medianWall(pp).toFixed(0)} ms wall, ${medianCpu(pp).toFixed(0)} ms CPU`,
    );
    console.log(
      `  process: ctrlrun-gen codemod (dry run), median of ${PROCESS_ROUNDS}: ${medianWall(cp).toFixed(0)} ms wall, ${medianCpu(cp).toFixed(0)} ms CPU`,
    );
    console.log(
      `  whole-process ratio codemod / parse-all: ${(medianWall(cp) / medianWall(pp)).toFixed(3)} wall, ${(medianCpu(cp) / medianCpu(pp)).toFixed(3)} CPU (goal <= 0.8)`,
    );
    console.log(
      `  floor: start-up (codemod in an empty folder) ${medianWall(sp).toFixed(0)} ms wall, ${medianCpu(sp).toFixed(0)} ms CPU; compiler + reading + parsing the ${parsed.length} files the scan parses ${medianWall(lp).toFixed(0)} ms wall, ${medianCpu(lp).toFixed(0)} ms CPU; less bare node ${medianWall(bp).toFixed(0)} ms wall, ${medianCpu(bp).toFixed(0)} ms CPU`,
    );
    console.log(
      `  floor / parse-all: ${(floor.wall / medianWall(pp)).toFixed(3)} wall, ${(floor.cpu / medianCpu(pp)).toFixed(3)} CPU; codemod / floor: ${(medianWall(cp) / floor.wall).toFixed(2)} wall, ${(medianCpu(cp) / floor.cpu).toFixed(2)} CPU`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
