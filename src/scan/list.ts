import { statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { repoFiles, walkFiles, type RootFiles } from '../fs/repo-files.js';
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
  /** `root`'s files as the command listed them already (`listRootFiles`); another root's are not used. */
  rootFiles?: RootFiles;
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
const MANIFEST_NAME = 'ctrlrun.tools.yaml';

export function listRepo(options: ListOptions): RepoListing {
  const root = path.resolve(options.root);
  const generated = options.generatedModule ? path.resolve(options.generatedModule) : undefined;
  const unreadable: UnreadablePath[] = [];
  // the root listed already by the command (its packages were looked for in it): not listed again
  const listed = options.rootFiles !== undefined && path.resolve(options.rootFiles.root) === root ? options.rootFiles : undefined;
  if (listed) unreadable.push(...listed.unreadable);
  const all = listed ? listed.files : repoFiles(root, unreadable);
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
    // a listed file's name ends its path (no trailing separator): a config ends in `.json` and a
    // manifest in its name, so most files are passed over without `path.basename` (issue 40, item 8:
    // ~5 ms of a cold check on 3,000 files)
    if (!f.endsWith('.json') && !f.endsWith(MANIFEST_NAME)) continue;
    const base = path.basename(f);
    const config = CONFIG.test(base);
    if ((!config && base !== MANIFEST_NAME) || inNodeModules(f)) continue;
    (config ? configs : manifests).push(f);
  }
  return { configs, manifests };
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

/** `files` without those under any of `dirs`: each file's folders looked up, not each of `dirs` tried. */
export function outsideDirs(files: readonly string[], dirs: readonly string[]): string[] {
  if (dirs.length === 0) return [...files];
  const set = new Set(dirs);
  return files.filter((f) => !atOrBelowAny(set, path.dirname(f)));
}

/**
 * Whether a path (absolute; a folder of `dirs` itself too) is in none of `dirs`: `outsideDirs` as a
 * test of one path at a time (the findings of a region, a scan's files).
 */
export function outsideOf(dirs: readonly string[]): (abs: string) => boolean {
  const set = new Set(dirs.map((d) => path.resolve(d)));
  return (abs) => !atOrBelowAny(set, path.resolve(abs));
}

/** Whether the folder `at` or one above it is in `dirs` (absolute, normalized). */
function atOrBelowAny(dirs: ReadonlySet<string>, at: string): boolean {
  for (; ; at = path.dirname(at)) {
    if (dirs.has(at)) return true;
    if (path.dirname(at) === at) return false;
  }
}
