// `check` on a generated repo of 3,000 files, 2% of them using the SDK, against the time to parse
// every file with TypeScript's own parser in the same run. Goals: in process <= 0.3 (issue 5); as whole
// processes, start-up included, <= 0.15 (issue 40).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { BARE_NODE, floorOf, parseFloorProcess } from './lib/floor.mjs';
import { medianCpu, medianWall, processTimer } from './lib/process.mjs';
import { generateRepo, parseEveryFile } from './lib/repo.mjs';
import { sized } from './lib/size.mjs';

const FILES = sized(3000, 100);
const SDK_SHARE = 0.02;
const ROUNDS = sized(5, 1);
const PROCESS_ROUNDS = sized(5, 1);

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
// the CLI as a user runs it: the file package.json's `bin` names
const BIN = path.join(root, JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).bin['ctrlrun-gen']);
const { runCheck } = await import(pathToFileURL(path.join(root, 'dist/check/engine.js')).href);

function plainFile(i) {
  return `// Module ${i}: ordinary application code the lint must skip.
import { readFile } from 'node:fs/promises';
import { helper${(i + 1) % 50} } from './helpers-${(i + 1) % 50}.js';

export interface Record${i} {
  id: string;
  amount: number;
  tags: string[];
  createdAt: Date;
}

export class Service${i} {
  private readonly cache = new Map<string, Record${i}>();

  constructor(private readonly base: string) {}

  async load(id: string): Promise<Record${i} | undefined> {
    const hit = this.cache.get(id);
    if (hit) return hit;
    const text = await readFile(\`\${this.base}/\${id}.json\`, 'utf8');
    const parsed = JSON.parse(text) as Record${i};
    this.cache.set(id, parsed);
    return parsed;
  }

  total(records: Record${i}[]): number {
    return records.filter((r) => r.tags.includes('billable')).reduce((sum, r) => sum + r.amount, 0);
  }

  describe(r: Record${i}): string {
    switch (r.tags.length) {
      case 0:
        return \`\${r.id}: untagged\`;
      case 1:
        return \`\${r.id}: \${r.tags[0]}\`;
      default:
        return \`\${r.id}: \${r.tags.slice(0, 3).join(', ')}\${r.tags.length > 3 ? '…' : ''}\`;
    }
  }
}

export function normalize${i}(values: number[]): number[] {
  const max = Math.max(...values, 1);
  return values.map((v) => Math.round((v / max) * 1000) / 1000).map((v) => helper${(i + 1) % 50}(v));
}

export const DEFAULTS_${i} = { retries: 3, timeoutMs: 2_000, region: 'eu-west-1', labels: ['a', 'b', 'c'] } as const;
`;
}

function sdkFile(i) {
  return `import { Agent, tool } from '@openai/agents';
import { z } from 'zod';

export const lookup${i} = tool({
  name: 'lookup_${i}',
  description: 'Look record ${i} up.',
  parameters: z.object({ id: z.string() }),
  errorFunction: null,
  execute: async ({ id }) => \`record \${id}\`,
});

export const refund${i} = tool({
  name: 'refund_${i}',
  description: 'Refund on record ${i}.',
  parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
  execute: async ({ payment_id, amount }) => \`refunded \${amount} on \${payment_id}\`,
});

export const agent${i} = new Agent({ name: 'Agent ${i}', tools: [lookup${i}, refund${i}] });
`;
}

export function makeRepo() {
  return generateRepo({
    prefix: 'ctrlrun-check-bench-',
    count: FILES,
    sdkShare: SDK_SHARE,
    pathOf: (i) => path.join('src', `area-${i % 30}`, `module-${i}.ts`),
    plainFile,
    sdkFile,
    extra: {
      'ctrlrun.yaml':
        'schema: ctrlrun.policy/v6\nactions:\n  records.read:\n    decision: allow\n  stripe.refund:\n    effect: "refund:{payment_id}"\n    rules:\n      - when: { amount_lte: 10000 }\n        decision: allow\n      - decision: approve\n',
      'ctrlrun.tools.yaml':
        'schema: ctrlrun.tools/v1\npolicy: ctrlrun.yaml\noutput: src/ctrlrun.generated.ts\ncontrol: src/ctrlrun.control.ts\ntools:\n  - tool: lookup_0\n    action: records.read\n  - tool: refund_0\n    action: stripe.refund\n',
      'src/ctrlrun.control.ts': 'export default {};\n',
    },
  });
}

async function checkOnce(dir) {
  const t0 = performance.now();
  const result = await runCheck({ cwd: dir });
  return { ms: performance.now() - t0, result };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run() {
  const { dir, files } = makeRepo();
  try {
    // Warm both paths once (module loading, JIT), then alternate.
    parseEveryFile(files);
    const warm = await checkOnce(dir);
    const parseMs = [];
    const checkMs = [];
    for (let r = 0; r < ROUNDS; r++) {
      parseMs.push(parseEveryFile(files).ms);
      checkMs.push((await checkOnce(dir)).ms);
    }
    const p = median(parseMs);
    const c = median(checkMs);
    const { result } = warm;
    console.log(
      `repo: ${FILES} files, ${Math.round(FILES * SDK_SHARE)} using the SDK; check considered ${result.filesConsidered}, parsed ${result.filesParsed}, ${result.findings.length} findings`,
    );
    console.log(`parse every file (read + ts.createSourceFile), median of ${ROUNDS}: ${p.toFixed(0)} ms`);
    console.log(`check (in-process runCheck, whole pipeline), median of ${ROUNDS}: ${c.toFixed(0)} ms`);
    console.log(`ratio check / parse-all: ${(c / p).toFixed(3)} (goal <= 0.3)`);

    // As a user feels it: whole processes, start-up included (issue 10), alternated, same run.
    const list = path.join(dir, '.bench-files.json');
    writeFileSync(list, JSON.stringify(files));
    const lib = pathToFileURL(path.join(root, 'bench/lib/repo.mjs')).href;
    const parseProcess = [
      '--input-type=module',
      '-e',
      `import { readFileSync } from 'node:fs'; import { parseEveryFile } from '${lib}'; parseEveryFile(JSON.parse(readFileSync(${JSON.stringify(list)}, 'utf8')));`,
    ];
    // A stricter baseline: the same parse, with the compiler loaded the way check loads it
    // (CommonJS require, with the compile cache), so start-up tricks do not flatter the ratio.
    const req = createRequire(path.join(root, 'package.json'));
    const tsPath = createRequire(createRequire(req.resolve('ts-morph')).resolve('@ts-morph/common')).resolve('./typescript.js');
    const fastParseProcess = [
      '-e',
      `require(${JSON.stringify(req.resolve('v8-compile-cache'))}); const ts = require(${JSON.stringify(tsPath)}); const fs = require('node:fs'); for (const f of JSON.parse(fs.readFileSync(${JSON.stringify(list)}, 'utf8'))) ts.createSourceFile(f, fs.readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);`,
    ];
    const checkProcess = [BIN, 'check', '--cwd', dir, '--format', 'json'];
    // Wall time as the user waits, and the CPU time the process used (bench/lib/process.mjs).
    const timer = processTimer(dir);
    const timed = (args, okCodes = [0, 1]) => timer(args, { okCodes });
    // An empty directory outside the repo (no manifest above it): start-up alone; check exits 2 there.
    const emptyDir = mkdtempSync(path.join(os.tmpdir(), 'ctrlrun-check-bench-empty-'));
    const emptyProcess = [BIN, 'check', '--cwd', emptyDir];
    // The floor (bench/lib/floor.mjs): start-up, plus reading every file and parsing those check parses.
    const sdkFiles = files.filter((f) => readFileSync(f, 'utf8').includes('@openai/agents'));
    const floorProcess = parseFloorProcess(root, dir, files, sdkFiles);
    timed(parseProcess);
    timed(fastParseProcess);
    timed(checkProcess);
    timed(floorProcess);
    const pp = [];
    const fp = [];
    const cp = [];
    const ep = [];
    const lp = [];
    const bp = [];
    for (let r = 0; r < PROCESS_ROUNDS; r++) {
      pp.push(timed(parseProcess));
      fp.push(timed(fastParseProcess));
      cp.push(timed(checkProcess));
      ep.push(timed(emptyProcess, [2]));
      lp.push(timed(floorProcess));
      bp.push(timed(BARE_NODE));
    }
    rmSync(emptyDir, { recursive: true, force: true });
    const wall = medianWall;
    const cpu = medianCpu;
    const row = (label, xs) => console.log(`process: ${label}, median of ${PROCESS_ROUNDS}: ${wall(xs).toFixed(0)} ms wall, ${cpu(xs).toFixed(0)} ms CPU`);
    row('node parsing every file with TypeScript (ts-morph imported)', pp);
    row('node parsing every file, the compiler required with the compile cache', fp);
    row('ctrlrun-gen check on the repo', cp);
    row('ctrlrun-gen check on an empty directory (start-up)', ep);
    row(`node loading the compiler as the CLI does, reading every file, parsing the ${sdkFiles.length} check parses`, lp);
    row('node doing nothing (counted once in the floor)', bp);
    const floor = floorOf({ wall: wall(ep), cpu: cpu(ep) }, { wall: wall(lp), cpu: cpu(lp) }, { wall: wall(bp), cpu: cpu(bp) });
    console.log(
      `whole-process ratio check / parse-all: ${(wall(cp) / wall(pp)).toFixed(3)} wall, ${(cpu(cp) / cpu(pp)).toFixed(3)} CPU (goal <= 0.15, issue 40)`,
    );
    console.log(
      `against the stricter baseline (compiler required, compile cache): ${(wall(cp) / wall(fp)).toFixed(3)} wall, ${(cpu(cp) / cpu(fp)).toFixed(3)} CPU`,
    );
    console.log(
      `floor (start-up + compiler + reading + parsing): ${floor.wall.toFixed(0)} ms wall, ${floor.cpu.toFixed(0)} ms CPU; floor / parse-all: ${(floor.wall / wall(pp)).toFixed(3)} wall, ${(floor.cpu / cpu(pp)).toFixed(3)} CPU; check / floor: ${(wall(cp) / floor.wall).toFixed(2)} wall, ${(cpu(cp) / floor.cpu).toFixed(2)} CPU`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
