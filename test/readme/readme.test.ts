import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';

/** The commands of the README's "The two commands" block, without their comments. */
function readmeCommands(): string[] {
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.split('## The two commands')[1] ?? '';
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
}

const clone = mkdtempSync(path.join(os.tmpdir(), 'ctrlrun-readme-'));
afterAll(() => rmSync(clone, { recursive: true, force: true }));

function sh(command: string, cwd: string) {
  const env = { ...process.env };
  // The outer test run's variables must not leak into the clone's own runs.
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'NODE_OPTIONS') delete env[key];
  return spawnSync('bash', ['-c', command], { cwd, env, encoding: 'utf8', timeout: 900_000, maxBuffer: 64 * 1024 * 1024 });
}

describe("the README's two commands, on a fresh clone", () => {
  const [main, tests] = readmeCommands();

  it('are the main command and the test command', () => {
    expect(main).toBe('npm ci && npx ctrlrun-gen demo');
    expect(tests).toBe('npm test');
  });

  it('the main command runs literally in a fresh clone and the demo ends well', () => {
    const cloned = spawnSync('git', ['clone', '--quiet', REPO_ROOT, clone], { encoding: 'utf8' });
    expect(cloned.status, cloned.stderr).toBe(0);
    const r = sh(main!, clone);
    expect(r.status, `${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`).toBe(0);
    expect(r.stdout).toContain('nothing ran; still exactly one refund');
    expect(r.stdout).toMatch(/receipts, chain intact/);
  }, 900_000);

  it('the test command works in that clone (run on one test file: the whole suite is this run)', () => {
    // `npm test` builds and runs vitest; running every test again from inside this one would recurse.
    const r = sh(`${tests} -- test/cli/skeleton.test.ts`, clone);
    expect(r.status, `${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`).toBe(0);
    expect(r.stdout.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/Tests\s+\d+ passed/);
  }, 600_000);
});
