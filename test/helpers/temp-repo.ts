import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FIXTURES, REPO_ROOT } from './paths.js';

/**
 * A scratch directory inside the repository (under `.tmp/`, git-ignored), so that packages
 * resolve from the repository's node_modules, with `node_modules/ctrlrun-gen` linked to this
 * package: a temp repo imports `ctrlrun-gen/runtime` as a user's repo would.
 */
export function makeTempDir(prefix = 'repo-'): string {
  const base = path.join(REPO_ROOT, '.tmp');
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(path.join(base, prefix));
  mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  symlinkSync(REPO_ROOT, path.join(dir, 'node_modules', 'ctrlrun-gen'), 'dir');
  return dir;
}

/** Copies `fixtures/<name>` (or an absolute directory) into a fresh temp dir and returns its path. */
export function copyFixture(name: string, prefix = `${path.basename(name)}-`): string {
  const dir = makeTempDir(prefix);
  const from = path.isAbsolute(name) ? name : path.join(FIXTURES, name);
  cpSync(from, dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}node_modules`) && !src.includes(`${path.sep}.ctrlrun`) });
  return dir;
}

/** Writes `files` (relative path -> content) under `dir`, creating directories as needed. */
export function writeFiles(dir: string, files: Record<string, string | Buffer>): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Every file under `dir` with its text, node_modules aside (a fixture's links back to this
 * package): what "nothing was written" or "the same files" compares.
 */
export function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true }).filter((e) => e.name !== 'node_modules')) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}
