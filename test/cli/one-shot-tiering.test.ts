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

function turbofanJobs(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  nodeFlags: string[] = [],
): { code: number | null; jobs: number; maglevJobs: number; stdout: string } {
  const dir = mkdtempSync(path.join(work, 'desk-'));
  cpSync(path.join(REPO_ROOT, 'fixtures/refund-desk'), dir, { recursive: true });
  const r = spawnSync(process.execPath, [...nodeFlags, '--trace-opt', CLI_BIN, ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return {
    code: r.status,
    jobs: (r.stdout.match(/^\[compiling method .*\(target TURBOFAN(?:_JS)?\)/gm) ?? []).length,
    maglevJobs: (r.stdout.match(/^\[compiling method .*\(target MAGLEV\)/gm) ?? []).length,
    stdout: r.stdout,
  };
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

  // Maglev only for functions called ten times as often as by default (session 31): on this fixture,
  // on Node 24, single-threaded, a check makes 24 jobs against 130 through yargs, a codemod 24 against 106. Node 22
  // runs without Maglev by default: there neither path makes any, which the comparison says too.
  it.each([
    ['check', ['check'], ['check', '--max-findings', '1000'], /refund/],
    ['codemod', ['codemod'], ['codemod', '--no-write'], /3 tools to rewrite/],
  ])('a plain %s compiles far fewer functions with Maglev than through yargs', (_name, plainArgs, yargsArgs, seen) => {
    // single-threaded: the compilers' jobs run on the main thread, so the count does not depend on how
    // far background jobs get before the process exits (a loaded machine counted 47 through yargs)
    const plain = turbofanJobs(plainArgs, {}, ['--single-threaded']);
    expect(plain.stdout).toMatch(seen);
    const yargs = turbofanJobs(yargsArgs, {}, ['--single-threaded']);
    expect(yargs.stdout).toMatch(seen);
    if (yargs.maglevJobs === 0) expect(plain.maglevJobs).toBe(0);
    else {
      expect(yargs.maglevJobs).toBeGreaterThan(50);
      expect(plain.maglevJobs * 3).toBeLessThan(yargs.maglevJobs);
    }
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

  it('keeps the caches of a check and a codemod accepted run after run, the other command between', () => {
    // both run under the same flags: a cache either writes is one V8 accepts in the other (a cache
    // written under other flags would be rejected and written again, its count of checks back at 3)
    const cache = mkdtempSync(path.join(work, 'cache-'));
    const env = { CTRLRUN_GEN_CODE_CACHE_DIR: cache };
    const checksLeft = () => new Map(readdirSync(cache).map((f) => [f, readFileSync(path.join(cache, f)).readUInt32LE(8)] as const));
    expect(turbofanJobs(['codemod'], env).code).toBe(0);
    const codemods = checksLeft();
    expect(turbofanJobs(['check'], env).code).not.toBeNull();
    const first = checksLeft();
    const checks = new Map([...first].filter(([file]) => !codemods.has(file)));
    expect(checks.size).toBeGreaterThan(0);
    expect([...checks.values()].every((n) => n === 3)).toBe(true);
    expect(turbofanJobs(['codemod'], env).code).toBe(0);
    expect(turbofanJobs(['check'], env).code).not.toBeNull();
    const after = checksLeft();
    // each accepted once more (one check fewer; one the check loads too, fewer still), none written
    // anew by the other command
    for (const file of codemods.keys()) expect(after.get(file)).toBeLessThanOrEqual(2);
    for (const file of checks.keys()) expect([file, after.get(file)]).toEqual([file, 2]);
    expect(after.size).toBe(codemods.size + checks.size);
  });
});
