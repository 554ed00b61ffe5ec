import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN, REPO_ROOT } from '../helpers/paths.js';

/**
 * Issue 40, item 8: the plain codemod runs without V8's top optimizing compiler (TurboFan): a short
 * process pays more to optimize its hot code than the optimized code saves. Read from V8's own
 * trace of what it optimized, in the built CLI; the same codemod through yargs (a flag the plain
 * parse leaves to it) optimizes with TurboFan as before, so the trace does show it when it happens.
 */
const work = mkdtempSync(path.join(tmpdir(), 'ctrlrun-tiering-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function turbofanJobs(args: string[], env: NodeJS.ProcessEnv = {}): { code: number | null; jobs: number; stdout: string } {
  const dir = mkdtempSync(path.join(work, 'desk-'));
  cpSync(path.join(REPO_ROOT, 'fixtures/refund-desk'), dir, { recursive: true });
  const r = spawnSync(process.execPath, ['--trace-opt', CLI_BIN, ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status, jobs: (r.stdout.match(/^\[compiling method .*\(target TURBOFAN(?:_JS)?\)/gm) ?? []).length, stdout: r.stdout };
}

describe('the plain codemod and V8 tiers', () => {
  // Node's own start-up, before the launcher runs, may optimize a few of its functions (Node 22
  // does, its path helpers; Node 24 none): `--version` does no more than that start-up
  const startup = () => turbofanJobs(['--version']).jobs;

  it('optimizes nothing with TurboFan beyond Node’s start-up; through yargs it does', () => {
    const plain = turbofanJobs(['codemod']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('3 tools to rewrite');
    const before = startup();
    expect(plain.jobs).toBeLessThanOrEqual(before);
    const yargs = turbofanJobs(['codemod', '--no-write']);
    expect(yargs.code).toBe(0);
    expect(yargs.stdout).toContain('3 tools to rewrite');
    expect(yargs.jobs).toBeGreaterThan(before);
  });

  it('a plain check optimizes nothing with TurboFan beyond the start-up either', () => {
    const check = turbofanJobs(['check']);
    expect(check.code).not.toBeNull();
    expect(check.stdout).toMatch(/refund/);
    expect(check.jobs).toBeLessThanOrEqual(startup());
  });

  it('keeps code caches V8 accepts: run after run, and after a TurboFan process between', () => {
    // V8 rejects a cache written under other flags: the codemod's caches must be written and read
    // with TurboFan off, and not be the ones a process with TurboFan on (yargs' path) writes
    const cache = mkdtempSync(path.join(work, 'cache-'));
    const env = { CTRLRUN_GEN_CODE_CACHE_DIR: cache };
    const checksLeft = () => new Map(readdirSync(cache).map((f) => [f, readFileSync(path.join(cache, f)).readUInt32LE(8)] as const));
    expect(turbofanJobs(['codemod'], env).code).toBe(0);
    const written = checksLeft();
    expect(written.size).toBeGreaterThan(1);
    expect([...written.values()].every((n) => n === 3)).toBe(true);
    expect(turbofanJobs(['codemod'], env).code).toBe(0);
    expect(turbofanJobs(['codemod', '--no-write'], env).code).toBe(0);
    expect(turbofanJobs(['codemod'], env).code).toBe(0);
    // each of the codemod's caches accepted twice (one check fewer each time), none written again by
    // the process between
    const after = checksLeft();
    for (const file of written.keys()) expect([file, after.get(file)]).toEqual([file, 1]);
  });
});
