import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { gitRootOf } from '../safe-read.js';
import { isSourceFile } from './source-files.js';
import type { UnreadablePath } from './types.js';

/*
 * Which files the scanner considers: what git lists, or a walk that follows .gitignore. Kept apart
 * from the scanner (no compiler, no parser) so the parallel reader's worker (read-worker.ts) loads
 * only this and the reader.
 */

/**
 * The only folder never looked into: third-party code (git normally ignores it anyway; the SDK's
 * own sources live there). Nothing else is skipped by name: dot-directories, `out/`, `build/`,
 * `dist/` and `coverage/` are checked like any other folder unless git ignores them.
 */
export const SKIPPED_DIRS = ['node_modules'] as const;

export interface ListOptions {
  root: string;
  paths?: string[];
  generatedModule?: string;
}

export interface RepoListing {
  /** Absolute source files to consider, sorted. */
  files: string[];
  /** Absolute package.json / tsconfig*.json / jsconfig.json files (for aliases and workspaces). */
  configs: string[];
  /** Directories that could not be listed (relative to the root). */
  unreadable: UnreadablePath[];
  /** Absolute ctrlrun.tools.yaml files (a nested package with its own manifest is scanned on its own). */
  manifests?: string[];
}

/**
 * Absolute paths of the source files to consider, sorted: under each given path (default: root),
 * every file git tracks (whatever .gitignore says) and every untracked file .gitignore (nested too)
 * does not exclude; outside a git work tree, the .gitignore files alone decide. Skips node_modules,
 * declaration files and the generated module. A file named explicitly is kept even if git-ignored.
 */
export async function listSourceFiles(options: ListOptions): Promise<string[]> {
  return listSourceFilesSync(options);
}

/** `listSourceFiles`, synchronously (the generator is a synchronous function of the repo's files). */
export function listSourceFilesSync(options: ListOptions): string[] {
  return listRepo(options).files;
}

const CONFIG = /^(?:package\.json|[jt]sconfig(?:\.[^/]*)?\.json)$/;

export function listRepo(options: ListOptions): RepoListing {
  const root = path.resolve(options.root);
  const generated = options.generatedModule ? path.resolve(options.generatedModule) : undefined;
  const unreadable: UnreadablePath[] = [];
  const all = gitFiles(root, unreadable) ?? walkFiles(root, unreadable);
  const keep = (abs: string): boolean => abs !== generated && isSourceFile(abs) && !inNodeModules(abs);
  const { configs, manifests } = configsAndManifests(all);
  const out = new Set<string>();
  const scopes = options.paths && options.paths.length > 0 ? options.paths.map((p) => path.resolve(root, p)) : [root];
  for (const abs of scopes) {
    let st: Stats;
    try {
      st = statSync(abs);
    } catch {
      continue;
    }
    if (st.isFile()) {
      if (isSourceFile(abs) && abs !== generated) out.add(abs);
      continue;
    }
    const rel = path.relative(root, abs);
    const inside = !rel.startsWith('..') && !path.isAbsolute(rel);
    const under = inside ? all.filter((f) => f === abs || f.startsWith(abs === root ? root : abs + path.sep)) : walkFiles(abs, unreadable);
    for (const f of under) if (keep(f)) out.add(f);
  }
  return { files: [...out].sort(), configs: configs.sort(), unreadable, manifests: manifests.sort() };
}

/** Whether a path has a `node_modules` segment (`split(path.sep).includes('node_modules')`, without the array). */
export function inNodeModules(file: string): boolean {
  return `${path.sep}${file}${path.sep}`.includes(NODE_MODULES_SEGMENT);
}

const NODE_MODULES_SEGMENT = `${path.sep}node_modules${path.sep}`;

/**
 * The config files and the manifests among the listed files, outside node_modules, in one pass:
 * on a large repo these tests run once a file, and two passes with a basename each were a few
 * milliseconds and enough calls to make V8 optimize the path functions (issue 40, item 8).
 */
function configsAndManifests(all: readonly string[]): { configs: string[]; manifests: string[] } {
  const configs: string[] = [];
  const manifests: string[] = [];
  for (const f of all) {
    const base = path.basename(f);
    const config = CONFIG.test(base);
    if ((!config && base !== 'ctrlrun.tools.yaml') || inNodeModules(f)) continue;
    (config ? configs : manifests).push(f);
  }
  return { configs, manifests };
}

/** `git ls-files` of the tracked and the untracked, not ignored, files under `root`; undefined outside a work tree. */
function gitFiles(root: string, unreadable: UnreadablePath[]): string[] | undefined {
  // No `.git` on the way up and no GIT_DIR: git would only say "not a git repository" (a process
  // started for nothing, about 10 ms).
  if (gitRootOf(root) === undefined && process.env.GIT_DIR === undefined) return undefined;
  const r = spawnSync('git', ['-c', 'core.quotePath=off', 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
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
  for (const rel of r.stdout.toString('utf8').split('\0')) if (rel) seen.add(path.resolve(root, rel));
  // Nothing tracked and nothing untracked-but-kept: the folder itself is ignored by an enclosing
  // repo (a scratch copy), or empty. Its own .gitignore files decide then.
  if (seen.size === 0) return undefined;
  return [...seen];
}

/** Every file under `dir` that the .gitignore files on the way do not exclude (node_modules and .git never entered). */
function walkFiles(dir: string, unreadable: UnreadablePath[], rootForMessages = dir): string[] {
  const out: string[] = [];
  const rules: Array<{ dir: string; ig: Ignore }> = [];
  const ignored = (abs: string, isDir: boolean): boolean => {
    for (const r of rules) {
      const rel = path.relative(r.dir, abs);
      if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
      const p = rel.split(path.sep).join('/');
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
 * Folders below `root` that are packages of their own with their own manifest (a package.json
 * and a ctrlrun.tools.yaml), among the listed files: a scan for the root's manifest stops there
 * (that package is generated, rewritten and checked on its own, as a workspace package is).
 */
export function nestedManifestDirs(root: string, listing: Pick<RepoListing, 'configs' | 'manifests'>): string[] {
  const top = path.resolve(root);
  const has = new Set(listing.configs);
  const out: string[] = [];
  for (const f of listing.manifests ?? []) {
    const dir = path.dirname(f);
    if (dir !== top && has.has(path.join(dir, 'package.json')) && !path.relative(top, dir).startsWith('..')) out.push(dir);
  }
  return out;
}

/** `files` without those under any of `dirs`. */
export function outsideDirs(files: readonly string[], dirs: readonly string[]): string[] {
  if (dirs.length === 0) return [...files];
  return files.filter((f) => !dirs.some((d) => f.startsWith(d + path.sep)));
}
