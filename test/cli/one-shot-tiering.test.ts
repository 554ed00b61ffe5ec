import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
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

function turbofanJobs(args: string[]): { code: number | null; jobs: number; stdout: string } {
  const dir = mkdtempSync(path.join(work, 'desk-'));
  cpSync(path.join(REPO_ROOT, 'fixtures/refund-desk'), dir, { recursive: true });
  const r = spawnSync(process.execPath, ['--trace-opt', CLI_BIN, ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status, jobs: (r.stdout.match(/target TURBOFAN/g) ?? []).length, stdout: r.stdout };
}

describe('the plain codemod and V8 tiers', () => {
  it('optimizes nothing with TurboFan; through yargs it does', () => {
    const plain = turbofanJobs(['codemod']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('3 tools to rewrite');
    expect(plain.jobs).toBe(0);
    const yargs = turbofanJobs(['codemod', '--no-write']);
    expect(yargs.code).toBe(0);
    expect(yargs.stdout).toContain('3 tools to rewrite');
    expect(yargs.jobs).toBeGreaterThan(0);
  });
});
