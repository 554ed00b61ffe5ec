import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';

/**
 * The release procedure (scripts/release.mjs) run in a throwaway clone of this repository (its
 * committed state; `--shared` borrows the objects, so the clone costs about a second): it checks
 * the tree, bumps the three packages, writes CHANGELOG.md, commits and tags, pushing nothing; the
 * tag is then what pre-commit's `rev:` and the action's ref fetch.
 */
const SCRIPT = path.join(REPO_ROOT, 'scripts/release.mjs');
let dir: string;
let clone: string;

const git = (cwd: string, ...args: string[]) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
};
const release = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { cwd: clone, encoding: 'utf8' });
const json = (file: string) => JSON.parse(readFileSync(path.join(clone, file), 'utf8'));

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-release-'));
  clone = path.join(dir, 'clone');
  git(dir, 'clone', '-q', '--shared', REPO_ROOT, clone);
  git(clone, 'config', 'user.email', 'release@example.com');
  git(clone, 'config', 'user.name', 'Release Test');
  git(clone, 'config', 'commit.gpgsign', 'false');
  git(clone, 'config', 'tag.gpgsign', 'false');
  // a clone of a clone never sees the tags of this repository's own history: start without any
  for (const tag of git(clone, 'tag', '-l').split('\n').filter(Boolean)) git(clone, 'tag', '-d', tag);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the release script, in a throwaway clone', () => {
  it('tags v0.1.0 (the current version) with its changelog entry; pre-commit and the action can fetch the tag; pushes nothing', () => {
    const subject = git(clone, 'log', '-1', '--no-merges', '--format=%s'); // the changelog lists no merge commit
    const r = release('0.1.0', '--date', '2026-01-02');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('git push origin');
    const head = git(clone, 'rev-parse', 'HEAD');
    expect(git(clone, 'rev-parse', 'v0.1.0^{commit}')).toBe(head);
    expect(git(clone, 'cat-file', '-t', 'v0.1.0')).toBe('tag'); // annotated
    expect(git(clone, 'log', '-1', '--format=%s')).toBe('Release 0.1.0');
    expect(git(clone, 'status', '--porcelain')).toBe('');
    const changelog = readFileSync(path.join(clone, 'CHANGELOG.md'), 'utf8');
    expect(changelog).toMatch(/^# Changelog\n/);
    expect(changelog).toContain(`## 0.1.0 (2026-01-02)\n\n- ${subject}\n`);
    // nothing went to the origin
    expect(spawnSync('git', ['tag', '-l', 'v0.1.0'], { cwd: REPO_ROOT, encoding: 'utf8' }).stdout).toBe('');

    // what pre-commit does with `rev: v0.1.0` (a fetch of the rev, then a checkout), and the runner with `@v0.1.0`
    const user = path.join(dir, 'hook-repo');
    git(dir, 'init', '-q', user);
    git(user, 'remote', 'add', 'origin', `file://${clone}`);
    git(user, 'fetch', '-q', '--depth=1', 'origin', 'refs/tags/v0.1.0:refs/tags/v0.1.0');
    git(user, 'checkout', '-q', 'v0.1.0');
    expect(existsSync(path.join(user, '.pre-commit-hooks.yaml'))).toBe(true);
    expect(existsSync(path.join(user, 'action.yml'))).toBe(true);
    expect(git(user, 'ls-remote', 'origin', 'refs/tags/v0.1.0^{}').split('\t')[0]).toBe(head);
  });

  it('refuses (exit 2, nothing changed): the tag again, an older version, a bad one, a dirty tree, a detached HEAD', () => {
    const before = git(clone, 'rev-parse', 'HEAD');
    for (const [args, why] of [
      [['0.1.0'], /v0\.1\.0 exists already/],
      [['0.0.9'], /older than the current version 0\.1\.0/],
      [['1.0'], /usage: /],
      [['0.2.0', '--date', 'tomorrow'], /unknown argument/],
    ] as const) {
      const r = release(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(why);
    }
    writeFileSync(path.join(clone, 'stray.txt'), 'x');
    const dirty = release('0.2.0');
    expect(dirty.status).toBe(2);
    expect(dirty.stderr).toMatch(/the tree is not clean/);
    rmSync(path.join(clone, 'stray.txt'));
    git(clone, 'checkout', '-q', '--detach');
    const detached = release('0.2.0');
    expect(detached.status).toBe(2);
    expect(detached.stderr).toMatch(/HEAD is detached/);
    git(clone, 'checkout', '-q', '-');
    expect(git(clone, 'rev-parse', 'HEAD')).toBe(before);
    expect(git(clone, 'tag', '-l')).toBe('v0.1.0');
    expect(json('package.json').version).toBe('0.1.0');
  });

  it('bumps to 0.2.0: the three packages and their pins, the lockfile, the goldens, the docs refs; the entry lists the commits since v0.1.0', () => {
    writeFileSync(path.join(clone, 'NOTES.txt'), 'a change\n');
    git(clone, 'add', 'NOTES.txt');
    git(clone, 'commit', '-q', '-m', 'A change after 0.1.0');
    const r = release('0.2.0', '--date', '2026-02-03');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(json('package.json').version).toBe('0.2.0');
    expect(json('package-lock.json').version).toBe('0.2.0');
    expect(json('packages/cli/package.json')).toMatchObject({ version: '0.2.0', dependencies: { 'ctrlrun-gen': '0.2.0' } });
    expect(json('packages/eslint-plugin-ctrlrun/package.json')).toMatchObject({
      version: '0.2.0',
      dependencies: { 'ctrlrun-gen': '0.2.0', 'ctrlrun-gen-cli': '0.2.0' },
    });
    const golden = readFileSync(path.join(clone, 'fixtures/generate/operators/expected.generated.ts'), 'utf8').split('\n')[1]!;
    expect(golden).toMatch(/· ctrlrun-gen 0\.2\.0$/);
    expect(readFileSync(path.join(clone, 'docs/ci.md'), 'utf8')).toContain('rev: v0.2.0');
    expect(readFileSync(path.join(clone, 'docs/ci.md'), 'utf8')).not.toContain('v0.1.0');
    const changelog = readFileSync(path.join(clone, 'CHANGELOG.md'), 'utf8');
    const entry = changelog.slice(changelog.indexOf('## 0.2.0'), changelog.indexOf('## 0.1.0'));
    expect(entry).toBe('## 0.2.0 (2026-02-03)\n\n- A change after 0.1.0\n\n');
    expect(git(clone, 'rev-parse', 'v0.2.0^{commit}')).toBe(git(clone, 'rev-parse', 'HEAD'));
    expect(git(clone, 'status', '--porcelain')).toBe('');
  });
});
