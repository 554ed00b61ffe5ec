import { existsSync, readdirSync, readFileSync, type Dirent } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { gitRootOf } from '../safe-read.js';

/*
 * Which files a repository holds, the one rule for every reader of it (the scanner's listing, the
 * packages a workspace root goes through): what git lists (tracked, and untracked files .gitignore
 * does not exclude), or, outside a work tree, a walk that follows the .gitignore files. A copy git
 * ignores (a pruned workspace under `out/`, a scratch clone under `tmp/`) is no part of it.
 */

/** A folder that could not be listed, relative to the listed root (forward slashes). */
export interface UnlistedPath {
  file: string;
  message: string;
}

/**
 * `repoFiles` of one root with the folders it could not list, made once for a command that reads
 * the same root twice (the packages below a manifest's folder, then the scan's listing of it).
 */
export interface RootFiles {
  /** Absolute, as listed. */
  root: string;
  files: readonly string[];
  unreadable: readonly UnlistedPath[];
}

/** `repoFiles(root)`, kept with what could not be listed. */
export function listRootFiles(dir: string): RootFiles {
  const root = path.resolve(dir);
  const unreadable: UnlistedPath[] = [];
  const files = repoFiles(root, unreadable);
  return { root, files, unreadable };
}

/** Every file of the repository under `root` (absolute, unsorted): git's listing, else the walk. */
export function repoFiles(root: string, unreadable: UnlistedPath[] = []): string[] {
  return gitFiles(root, unreadable) ?? walkFiles(root, unreadable);
}

/** `git ls-files` of the tracked and the untracked, not ignored, files under `root`; undefined outside a work tree. */
function gitFiles(root: string, unreadable: UnlistedPath[]): string[] | undefined {
  // No `.git` on the way up and no GIT_DIR: git would only say "not a git repository" (a process
  // started for nothing, about 10 ms).
  const top = gitRootOf(root);
  if (top === undefined && process.env.GIT_DIR === undefined) return undefined;
  const r = childProcess().spawnSync('git', ['-c', 'core.quotePath=off', 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'buffer',
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.error || r.status !== 0) return undefined;
  const stderr = r.stderr.toString('utf8');
  for (const m of stderr.matchAll(/could not open directory '([^']+)': ([^\n]+)/g)) {
    unreadable.push({ file: m[1]!.replace(/\/$/, ''), message: `the directory could not be listed (${m[2]!.trim()})` });
  }
  const seen = new Set<string>();
  const submodules = submodulesOf(top);
  for (const rel of r.stdout.toString('utf8').split('\0')) {
    if (!rel) continue;
    // An untracked repository of its own inside the work tree (a clone kept in `packages/`) is one
    // entry, `packages/b/`: its files are listed by its own git, else its walk would be nobody's.
    if (rel.endsWith('/')) {
      const nested = path.resolve(root, rel);
      // `./` is the listed folder itself: a submodule not checked out (an empty folder), listed from inside
      if (nested !== path.resolve(root)) for (const f of repoFiles(nested, unreadable)) seen.add(f);
    } else {
      const abs = path.resolve(root, rel);
      // A submodule is one tracked entry (a gitlink); a checkout with submodules holds its files,
      // which its own git lists. One not checked out is an empty folder: nothing to list.
      if (submodules.has(abs)) for (const f of repoFiles(abs, unreadable)) seen.add(f);
      else seen.add(abs);
    }
  }
  // Nothing tracked and nothing untracked-but-kept: the folder itself is ignored by an enclosing
  // repo (a scratch copy), or empty. Its own .gitignore files decide then.
  if (seen.size === 0) return undefined;
  return [...seen];
}

/** The absolute paths of the submodules `.gitmodules` declares at a work tree's top (usually none). */
function submodulesOf(top: string | undefined): Set<string> {
  if (top === undefined || !existsSync(path.join(top, '.gitmodules'))) return new Set();
  const r = childProcess().spawnSync('git', ['config', '-z', '--file', '.gitmodules', '--get-regexp', '^submodule\\..*\\.path$'], {
    cwd: top,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const paths = new Set<string>();
  if (r.error || r.status !== 0) return paths;
  // each record is `key\nvalue\0`
  for (const record of r.stdout.split('\0')) {
    const at = record.indexOf('\n');
    if (at > 0) paths.add(path.resolve(top, record.slice(at + 1)));
  }
  return paths;
}

/** Every file under `dir` that the .gitignore files on the way do not exclude (node_modules and .git never entered). */
export function walkFiles(dir: string, unreadable: UnlistedPath[], rootForMessages = dir): string[] {
  const out: string[] = [];
  const rules: Array<{ dir: string; ig: Ignore }> = [];
  // Each rule's folder is a folder on the walk's way down to `abs`, which the walk built from it with
  // `childPath`: the path relative to it is the text after it (`path.relative` resolved both paths
  // again, a share of the walk's time on a folder with .gitignore files: issue 40, item 8).
  const ignored = (abs: string, isDir: boolean): boolean => {
    for (const r of rules) {
      const rel = abs.slice(r.dir.endsWith(path.sep) ? r.dir.length : r.dir.length + 1);
      const p = path.sep === '/' ? rel : rel.split(path.sep).join('/');
      if (r.ig.ignores(isDir ? `${p}/` : p)) return true;
    }
    return false;
  };
  const visit = (d: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch (error) {
      unreadable.push({
        file: path.relative(rootForMessages, d).split(path.sep).join('/') || '.',
        message: `the directory could not be listed (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      });
      return;
    }
    const gi = entries.find((e) => e.isFile() && e.name === '.gitignore');
    let pushed = false;
    if (gi) {
      try {
        rules.push({ dir: d, ig: ignore().add(readFileSync(path.join(d, '.gitignore'), 'utf8')) });
        pushed = true;
      } catch {
        // An unreadable .gitignore ignores nothing.
      }
    }
    for (const e of entries) {
      const abs = childPath(d, e.name);
      if (e.isDirectory()) {
        if (e.name === '.git' || e.name === 'node_modules' || ignored(abs, true)) continue;
        visit(abs);
      } else if (e.isFile() || e.isSymbolicLink()) {
        // a link is listed as git lists it (not followed here): the reader resolves it (read.ts)
        if (!ignored(abs, false)) out.push(abs);
      }
    }
    if (pushed) rules.pop();
  };
  visit(dir);
  return out;
}

/**
 * `path.join(dir, name)` for a normalized absolute `dir` and a name a directory listing gives (no
 * separator, never `.` or `..`), without normalizing the joined path again: the walk joins once a
 * file, and `path.join`'s normalization was most of the walk's own time (issue 40, item 8).
 */
export function childPath(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
}

/**
 * node:child_process, loaded when git is asked (start-up: loading it costs a check a few ms of CPU,
 * its streams and sockets with it, and a repo outside a work tree never starts git).
 */
function childProcess(): typeof import('node:child_process') {
  return process.getBuiltinModule('node:child_process');
}
