import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';

/**
 * Every bench runs (issue 39, item 7): each bench/*.bench.mjs once, as `npm run bench -- <name>`
 * runs it (`node bench/run.mjs <name>`, over the built dist/), at CTRLRUN_BENCH_SIZE=tiny so it
 * takes seconds. Asserted: it exits 0 and prints its figures' lines. Never a figure's value: speed
 * is measured by `npm run bench` on a quiet machine, not here.
 */

const hasValgrind = (): boolean => spawnSync('valgrind', ['--version'], { stdio: 'ignore' }).status === 0;

const SQLITE_CLAIMS = /^sqlite \((node|better-sqlite3)\) claim latency /;

interface Bench {
  /** Lines the bench prints when it ran (each matched against the output, line by line). */
  lines: RegExp[];
  /** What this machine lacks for (part of) the bench, and the lines it prints then: its own skip line among them. */
  lacks?: () => { why: string; lines: RegExp[] } | undefined;
  /** Why CI does not run this bench (something .ci/run does not provide), or undefined. */
  notInCi?: string;
}

const BENCHES: Record<string, Bench> = {
  check: {
    lines: [
      /^ratio check \/ parse-all: /,
      /^process: ctrlrun-gen check on the repo, /,
      /^whole-process ratio check \/ parse-all: /,
      /^floor \(start-up \+ compiler \+ reading \+ parsing\): .* check \/ floor: /,
    ],
  },
  codemod: { lines: [/^ {2}codemod dry run: .* files\/s/, /^ {2}ratio codemod \/ parse-everything: /, /^fixtures\/refund-desk: /] },
  eslint: { lines: [/^ratio with \/ without the plugin: /, /^editor loop, eslint \+ ctrlrun: first lint /] },
  generate: { lines: [/^decision function: .* ns\/call; evaluate\(\)/, /^render \(find tools, read parameters, emit\): /] },
  install: { lines: [/^runtime +\d+ /, /^ctrlrun-gen +[\d.]+ /] },
  instructions: {
    notInCi:
      'it counts with valgrind, which .ci/run does not install (on a machine that has it, two counts under valgrind take 40 s of CPU even at the tiny size)',
    lines: [/^protected: [\d.]+ M instructions per run/, /^all instructions: protected\/plain /],
    lacks: () =>
      hasValgrind()
        ? undefined
        : { why: 'valgrind is not installed (the instructions bench counts with callgrind)', lines: [/^skipped: valgrind and callgrind_annotate/] },
  },
  policy: {
    lines: [
      /^refund-desk policy: parsePolicy /,
      /^test, [\d,]+ cases, against the compiled decision functions alone/,
      /^replay, [\d,]+ calls \(JSON Lines\)/,
      /^diff of two \d+-action policies/,
      /^replay --store, [\d,]+ calls from SQLite/,
    ],
  },
  runtime: {
    lines: [
      /^decision function, typed arguments /,
      /^Runner, one allow call per run, /,
      /^CPU time \(process user\+system.*protectedTool \/ tool\(\) /,
      // issue 39, item 5: everything on against the floor with everything on, its target named
      /^CPU time, against the floor with everything on \(the target is 1\.05x\): .* \/ the floor with everything on .* [\d.]+x /,
    ],
  },
  serve: {
    // issue 39: requests/s and p99 for the inbox, one request, and answers
    lines: [
      /^GET \/api\/requests\?state=pending +[\d.]+ req\/s .* p99 /,
      /^GET \/ \(inbox, page 1 of \d+\) +[\d.]+ req\/s .* p99 /,
      /^GET \/requests\/:id \(one request\) +[\d.]+ req\/s .* p99 /,
      /^POST answer \(8 clients\) +[\d.]+ req\/s .* p99 /,
    ],
  },
  stores: {
    lines: [SQLITE_CLAIMS, /^postgres claims per second /],
    // global-setup starts a PostgreSQL when the server's binaries are installed (.ci/run always has one)
    lacks: () =>
      process.env.CTRLRUN_TEST_PG_URL
        ? undefined
        : { why: 'no PostgreSQL (CTRLRUN_TEST_PG_URL unset): its claims per second are left out', lines: [SQLITE_CLAIMS, /^postgres: skipped /] },
  },
};

/** `node bench/run.mjs <name>` at the tiny size: its exit code and what it printed. */
function runBench(name: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bench/run.mjs', name], {
      cwd: REPO_ROOT,
      env: { ...process.env, CTRLRUN_BENCH_SIZE: 'tiny' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

const benchFiles = readdirSync(path.join(REPO_ROOT, 'bench'))
  .filter((f) => f.endsWith('.bench.mjs'))
  .map((f) => f.replace('.bench.mjs', ''))
  .sort();

describe('every bench runs at CTRLRUN_BENCH_SIZE=tiny', () => {
  it('lists every bench/*.bench.mjs, so a new bench is run here too', () => {
    expect(Object.keys(BENCHES).sort()).toEqual(benchFiles);
  });

  for (const name of benchFiles) {
    it(`${name}: exits 0 and prints its figures' lines`, { timeout: 300_000 }, async () => {
      if (!existsSync(path.join(REPO_ROOT, 'dist/runtime/index.js'))) throw new Error('dist/ is missing: run `npm run build` before these tests');
      const bench = BENCHES[name];
      if (!bench) throw new Error(`bench/${name}.bench.mjs has no entry in BENCHES (its figures' lines)`);
      if (bench.notInCi && process.env.CI === 'true') {
        console.warn(`bench ${name}: not run in CI: ${bench.notInCi}; run it with \`npm run bench -- ${name}\``);
        return;
      }
      const lacking = bench.lacks?.();
      if (lacking) console.warn(`bench ${name}: ${lacking.why}; its own skip line is asserted instead`);
      const { code, out, err } = await runBench(name);
      expect(code, `bench ${name} failed:\n${err}\n${out}`).toBe(0);
      const lines = out.split('\n');
      expect(lines).toContain(`## ${name}`);
      for (const line of lacking?.lines ?? bench.lines)
        expect(
          lines.some((l) => line.test(l)),
          `bench ${name} printed no line like ${line}:\n${out}`,
        ).toBe(true);
    });
  }
});
