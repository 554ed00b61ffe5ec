// `check` on a generated repo of 3,000 files, 2% of them using the SDK, against the time to parse
// every file with TypeScript's own parser in the same run. Goal (issue 5): ratio <= 0.3.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { generateRepo, parseEveryFile } from './lib/repo.mjs';

const FILES = 3000;
const SDK_SHARE = 0.02;
const ROUNDS = 5;
const PROCESS_ROUNDS = 3;

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
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
    console.log(`repo: ${FILES} files, ${Math.round(FILES * SDK_SHARE)} using the SDK; check considered ${result.filesConsidered}, parsed ${result.filesParsed}, ${result.findings.length} findings`);
    console.log(`parse every file (read + ts.createSourceFile), median of ${ROUNDS}: ${p.toFixed(0)} ms`);
    console.log(`check (in-process runCheck, whole pipeline), median of ${ROUNDS}: ${c.toFixed(0)} ms`);
    console.log(`ratio check / parse-all: ${(c / p).toFixed(3)} (goal <= 0.3)`);

    // As a user feels it: whole processes, start-up included (issue 10), alternated, same run.
    const list = path.join(dir, '.bench-files.json');
    writeFileSync(list, JSON.stringify(files));
    const lib = pathToFileURL(path.join(root, 'bench/lib/repo.mjs')).href;
    const parseProcess = ['--input-type=module', '-e', `import { readFileSync } from 'node:fs'; import { parseEveryFile } from '${lib}'; parseEveryFile(JSON.parse(readFileSync(${JSON.stringify(list)}, 'utf8')));`];
    const checkProcess = [path.join(root, 'dist/cli/main.js'), 'check', '--cwd', dir, '--format', 'json'];
    const timed = (args) => {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      if (r.status !== 0 && r.status !== 1) throw new Error(`bench process failed (${r.status}): ${r.stderr}`);
      return performance.now() - t0;
    };
    const emptyDir = path.join(dir, '.bench-empty');
    mkdirSync(emptyDir, { recursive: true });
    timed(parseProcess);
    timed(checkProcess);
    const pp = [];
    const cp = [];
    const ep = [];
    for (let r = 0; r < PROCESS_ROUNDS; r++) {
      pp.push(timed(parseProcess));
      cp.push(timed(checkProcess));
      ep.push(timed([path.join(root, 'dist/cli/main.js'), 'check', '--cwd', emptyDir]));
    }
    const P = median(pp);
    const C = median(cp);
    console.log(`process: node parsing every file with TypeScript, median of ${PROCESS_ROUNDS}: ${P.toFixed(0)} ms`);
    console.log(`process: ctrlrun-gen check on the repo, median of ${PROCESS_ROUNDS}: ${C.toFixed(0)} ms (on an empty directory: ${median(ep).toFixed(0)} ms)`);
    console.log(`whole-process ratio check / parse-all: ${(C / P).toFixed(3)} (goal <= 0.3)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await run();
