import { existsSync } from 'node:fs';
import path from 'node:path';
import { repoFiles } from '../fs/repo-files.js';
import { findManifest, MANIFEST_FILE } from './find.js';
import { readRegularText } from '../safe-read.js';

/*
 * A workspace root (npm/yarn `workspaces` in package.json, pnpm's pnpm-workspace.yaml): CI runs
 * there, while init writes each package's manifest into the package that holds its tools. The
 * commands that load a manifest run once for each package's manifest when started at such a root
 * (issue 21 item 3).
 */

/** The workspace's package patterns (`packages/*`, `!packages/legacy`) of `dir`; undefined when it is no workspace root. */
export function workspacePatterns(dir: string): string[] | undefined {
  const pnpm = path.join(dir, 'pnpm-workspace.yaml');
  if (existsSync(pnpm)) return pnpmPackages(readRegularText(pnpm));
  try {
    const pkg = JSON.parse(readRegularText(path.join(dir, 'package.json'))) as { workspaces?: unknown };
    const list = Array.isArray(pkg.workspaces) ? pkg.workspaces : (pkg.workspaces as { packages?: unknown } | undefined)?.packages;
    return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : undefined;
  } catch {
    return undefined;
  }
}

/** The nearest folder above `dir` (itself excluded) that is a workspace root, or undefined. */
export function workspaceRootAbove(dir: string): string | undefined {
  for (let at = path.dirname(dir); ; at = path.dirname(at)) {
    if (workspacePatterns(at) !== undefined) return at;
    if (path.dirname(at) === at) return undefined;
  }
}

/**
 * The `packages:` list of a pnpm-workspace.yaml: block items (`- 'apps/*'`) or a flow list
 * (`packages: [a, b]`). A small reader on purpose: the file is this one list, and start-up does
 * not load the YAML parser for it.
 */
export function pnpmPackages(text: string): string[] {
  const unquote = (s: string) => s.trim().replace(/^(['"])(.*)\1$/, '$2');
  const lines = text.split(/\r?\n/).map((l) => l.replace(/\s+#.*$/, ''));
  const at = lines.findIndex((l) => /^packages\s*:/.test(l));
  if (at < 0) return [];
  const inline = /^packages\s*:\s*\[(.*)\]\s*$/.exec(lines[at]!);
  if (inline)
    return inline[1]!
      .split(',')
      .map(unquote)
      .filter((s) => s !== '');
  const out: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (line.trim() === '') continue;
    const item = /^\s+-\s*(.+)$/.exec(line);
    if (!item) break;
    out.push(unquote(item[1]!));
  }
  return out;
}

/** Whether `rel` (forward slashes) matches a workspace glob: `*` one segment's characters, `**` any segments. */
export function matchesWorkspaceGlob(pattern: string, rel: string): boolean {
  const clean = pattern.replace(/^\.\//, '').replace(/\/+$/, '');
  let source = '';
  for (let i = 0; i < clean.length; i++) {
    const c = clean[i]!;
    if (clean.startsWith('**/', i)) {
      source += '(?:[^/]+/)*';
      i += 2;
    } else if (clean.startsWith('/**', i) && i + 3 === clean.length) {
      source += '(?:/[^/]+)*';
      i += 2;
    } else if (clean.startsWith('**', i)) {
      source += '.*';
      i += 1;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`).test(rel);
}

/**
 * Whether a folder (relative to `root`, `/`-separated) is one of the workspace's packages by its
 * patterns: a pattern matches it and no `!pattern` excludes it. Undefined when `root` is no workspace root.
 */
export function workspaceMatcher(root: string): ((rel: string) => boolean) | undefined {
  const patterns = workspacePatterns(root);
  if (patterns === undefined) return undefined;
  const include = patterns.filter((p) => !p.startsWith('!'));
  const exclude = patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  return (rel) => include.some((p) => matchesWorkspaceGlob(p, rel)) && !exclude.some((p) => matchesWorkspaceGlob(p, rel));
}

/**
 * The packages below `root` (absolute, sorted): every directory with a package.json, `root` itself
 * left out. For a root of sibling packages that is no workspace (`client/` and `server/`, each
 * installed on its own): init writes each package's manifest there, as in a workspace, and the
 * commands run at that root find them the same way (issue 21). Depth-limited, never in node_modules
 * or a dot folder. `files`: the repository's files under `root` when the caller has listed them
 * (`repoFiles`), so they are not listed again.
 */
export function nestedPackages(root: string, maxDepth = 4, files?: readonly string[]): string[] {
  return packageDirs(root, maxDepth, files).map((d) => d.abs);
}

/**
 * Every directory below `root` whose package.json is a file of the repository (`repoFiles`: what
 * git lists, or the walk that follows .gitignore, the scan's own rule: a copy git ignores is no
 * package), `root` itself left out, in walk order (sorted names, depth first): absolute and relative
 * (`/`-separated). Never in node_modules or a dot folder, and never through a symbolic link (git
 * lists a link, not what it points to).
 */
function packageDirs(root: string, maxDepth: number, files?: readonly string[]): Array<{ abs: string; rel: string }> {
  const top = path.resolve(root);
  const found: Array<{ abs: string; rel: string; segments: string[] }> = [];
  for (const file of files ?? repoFiles(top)) {
    // a listed path ends with its file's name, so only one ending in `package.json` can be one:
    // the suffix first spares `basename` for the thousands of other files (issue 40, item 8)
    if (!file.endsWith('package.json') || path.basename(file) !== 'package.json') continue;
    const rel = path.relative(top, path.dirname(file)).split(path.sep).join('/');
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) continue;
    const segments = rel.split('/');
    if (segments.length > maxDepth || segments.some((s) => s === 'node_modules' || s.startsWith('.'))) continue;
    found.push({ abs: path.join(top, rel), rel, segments });
  }
  return found.sort((a, b) => compareSegments(a.segments, b.segments)).map(({ abs, rel }) => ({ abs, rel }));
}

/** Walk order: segment by segment, a folder before what is inside it. */
function compareSegments(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return a.length - b.length;
}

/**
 * The packages a command at `root` goes through when `root` has no manifest of its own: at a
 * workspace root, every folder with a package.json below it, whether its patterns list it or not;
 * else, at a project's root (a package.json or a git work tree there), every package below it (a
 * root of sibling packages). The patterns say what the package manager links, not where an app
 * keeps its code: an `examples/bot` they leave out is still a package with doors, and one with its
 * own manifest is one the scan of the package around it stops at (scan/list.ts
 * `nestedManifestDirs`), so leaving it out here left it checked by nobody.
 */
export function packagesBelow(root: string, files?: readonly string[]): string[] {
  if (workspacePatterns(root) !== undefined) return nestedPackages(root, WORKSPACE_DEPTH, files);
  return isProjectRoot(root) ? nestedPackages(root, undefined, files) : [];
}

/** How deep a workspace root's packages are looked for (as deep as the patterns of real monorepos reach). */
const WORKSPACE_DEPTH = 6;

/** A folder that is a project's root (its own package.json, or the top of a git work tree): never `/` or a home folder. */
export function isProjectRoot(dir: string): boolean {
  return existsSync(path.join(dir, 'package.json')) || existsSync(path.join(dir, '.git'));
}

/**
 * The manifests a command started in `cwd` works on, when it was given none: the one found upward
 * from `cwd` (as ever); else, at a workspace root or a root of sibling packages, each package's
 * own manifest (sorted); else none.
 */
export function manifestsFor(cwd: string): string[] {
  const up = findManifest(cwd);
  if (up !== undefined) return [up];
  return manifestsIn(packagesBelow(cwd));
}

/** The manifests of these package folders, where they have one. */
export function manifestsIn(dirs: readonly string[]): string[] {
  return dirs.map((dir) => path.join(dir, MANIFEST_FILE)).filter((f) => existsSync(f));
}

/** Of `paths` (relative to cwd), those inside the package at `dir`; none (the whole package) when a path holds the package itself. */
export function pathsInPackage(cwd: string, dir: string, paths: readonly string[] | undefined): string[] | undefined {
  if (!paths || paths.length === 0) return undefined;
  const abs = paths.map((p) => path.resolve(cwd, p));
  if (abs.some((p) => !path.relative(p, dir).startsWith('..'))) return undefined;
  return abs.filter((p) => !path.relative(dir, p).startsWith('..')).map((p) => path.relative(cwd, p) || '.');
}
