import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { readRegularText } from '../safe-read.js';
import { MANIFEST_FILE } from './find.js';
import { groupingFolder } from './grouping-folder.js';
import { parseManifest } from './load.js';
import { nestedPackages, workspaceRootAbove } from './workspace.js';

/*
 * An app may run, and answer the interruptions of, tools it imports from another package of its
 * workspace (a `server` package running the agents of an `agents` package): once those tools are
 * protected, its `state.approve(item)` authorizes nothing (issue 40 item 4). The codemod reads the
 * answers of the packages that depend on the one it rewrites; check and the ESLint plugin report
 * the answers of a package that depends on one whose tools are protected.
 */

/** How deep the workspace's packages are looked for (as manifest/workspace.ts does at a workspace root). */
const WORKSPACE_DEPTH = 6;

const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

type PackageJson = Partial<Record<'name' | (typeof DEPENDENCY_FIELDS)[number], unknown>>;

function packageJson(dir: string): PackageJson | undefined {
  const file = path.join(dir, 'package.json');
  try {
    // Most folders looked at have none (the search for dependents reads every folder beside the
    // package and below its grandparent's): a missing file answered without an error object, which
    // costs more than the read (issue 40, item 8).
    if (statSync(file, { throwIfNoEntry: false }) === undefined) return undefined;
    const value: unknown = JSON.parse(readRegularText(file));
    return value !== null && typeof value === 'object' ? (value as PackageJson) : undefined;
  } catch {
    return undefined;
  }
}

function dependsOn(pkg: PackageJson | undefined, name: string): boolean {
  if (!pkg) return false;
  return DEPENDENCY_FIELDS.some((field) => {
    const deps = pkg[field];
    return deps !== null && typeof deps === 'object' && Object.hasOwn(deps, name);
  });
}

/**
 * The folders `pkg` (the package.json of `dir`) names by path (`"agents": "file:../agents"`,
 * `link:`), absolute, each with the dependency's key: npm, yarn and pnpm install such a folder
 * whether or not a workspace holds both (issue 40). A tarball's path names no package's folder.
 * A dependency by version whose installed folder is a link (`npm link agents`) is the folder the
 * link resolves to; `only` limits that to one name (one `lstat` each).
 */
function pathDependencies(dir: string, pkg: PackageJson | undefined, only?: string): { name: string; dir: string }[] {
  const out: { name: string; dir: string }[] = [];
  for (const field of DEPENDENCY_FIELDS) {
    const deps = pkg?.[field];
    if (deps === null || typeof deps !== 'object') continue;
    for (const [name, spec] of Object.entries(deps)) {
      const at = typeof spec === 'string' ? /^(?:file|link):(.+)$/.exec(spec.trim()) : null;
      const target = at !== null ? path.resolve(dir, at[1]!) : only === undefined || only === name ? linkedFolder(dir, name) : undefined;
      if (target !== undefined && !out.some((d) => d.dir === target)) out.push({ name, dir: target });
    }
  }
  return out;
}

/**
 * Where `dir/node_modules/<name>` leads when it is a link to a folder of its own (`npm link`, a
 * workspace's), else undefined: an installed copy, or a link into a `node_modules` folder (pnpm
 * links every dependency into its store, `node_modules/.pnpm/...`), which is the registry's package.
 */
function linkedFolder(dir: string, name: string): string | undefined {
  const installed = path.join(dir, 'node_modules', name);
  try {
    if (!lstatSync(installed).isSymbolicLink()) return undefined;
    const real = realpathSync(installed);
    return installedPackage(realFolder(dir), real) ? undefined : real;
  } catch {
    return undefined;
  }
}

/** Whether `real` lies inside a `node_modules` folder below the common ancestor with `from` (a checkout that is itself under one still counts). */
function installedPackage(from: string, real: string): boolean {
  const a = from.split(path.sep);
  const b = real.split(path.sep);
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  return b.slice(common).includes('node_modules');
}

/** A folder's real path (links resolved), or the path itself when it cannot be read. */
function realFolder(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

/** A folder's folders (absolute, sorted), `node_modules` and dot folders left out; none when it cannot be read. */
function foldersIn(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.'))
      .map((e) => path.join(dir, e.name))
      .sort();
  } catch {
    return [];
  }
}

/**
 * The folders near `root` whose package.json names `root` by path (`file:../agents`,
 * `file:../../libs/agents`) or links it: its parent's folders (siblings), then the folders of its
 * grandparent's folders that are no package (`apps/server` beside `libs/agents`: the apps/libs
 * grouping). One `readdir` a folder and one package.json read a candidate. The bound is on purpose:
 * outside a workspace nothing lists the packages that may name this one; the package managers'
 * docs show siblings, monorepo templates group them one level; going further up has no natural
 * stop (the user's home). Deeper dependents are found by a workspace or a git work tree
 * (scan/path-importers.ts).
 */
function pathDependents(root: string): string[] {
  const parent = path.dirname(root);
  const grandparent = groupingFolder(root);
  const cousins =
    grandparent === undefined ? [] : foldersIn(grandparent).flatMap((group) => (group === parent || packageJson(group) !== undefined ? [] : foldersIn(group)));
  const out: string[] = [];
  const own = packageJson(root)?.name;
  const real = realFolder(root);
  for (const dir of [...foldersIn(parent), ...cousins]) {
    const deps = dir === root ? [] : pathDependencies(dir, packageJson(dir), typeof own === 'string' ? own : '');
    if (deps.some((d) => d.dir === root || d.dir === real)) out.push(dir);
  }
  return out;
}

/** A workspace root's packages (absolute, in walk order), by root: a caller asking for several packages lists each workspace once. */
export type WorkspaceListings = Map<string, string[]>;

/** The other packages of the workspace around `dir` (absolute, in walk order); empty outside a workspace. */
function workspaceSiblings(dir: string, listings: WorkspaceListings = new Map()): string[] {
  const top = workspaceRootAbove(path.resolve(dir));
  if (top === undefined) return [];
  let all = listings.get(top);
  if (all === undefined) {
    all = nestedPackages(top, WORKSPACE_DEPTH);
    listings.set(top, all);
  }
  return all.filter((d) => d !== path.resolve(dir));
}

/**
 * How many steps of dependents are followed (`server` -> `core` -> `agents` is two): a shared
 * library between an app and its tools is common, longer chains are rare, and each step costs the
 * direct case's reads again (its folder's siblings, the workspace listed once).
 */
const CHAIN_DEPTH = 4;

/** The packages that depend on `dir`'s package directly: by name in its workspace (walk order), then by path beside it (sorted). */
function directDependents(dir: string, listings?: WorkspaceListings): string[] {
  const name = packageJson(dir)?.name;
  const byName = typeof name === 'string' && name !== '' ? workspaceSiblings(dir, listings).filter((d) => dependsOn(packageJson(d), name)) : [];
  return [...byName, ...pathDependents(dir).filter((d) => !byName.includes(d))];
}

/**
 * The packages that depend on `root`'s package (absolute): the other packages of the workspace
 * around it whose package.json names it (in walk order), then the folders beside it that name it by
 * path (`file:../agents`, sorted), inside a workspace or not; then theirs, and so on, CHAIN_DEPTH
 * steps (a `server` depending on a `core` that depends on `agents` runs its tools too).
 */
export function dependentPackages(root: string, listings: WorkspaceListings = new Map()): string[] {
  return boundedWalk(path.resolve(root), (dir) => directDependents(dir, listings));
}

/**
 * The folders reached from `start` (itself left out) by `next`, breadth-first, CHAIN_DEPTH steps,
 * each once, in the order first reached: the walk of a package's dependents (backwards) and of its
 * dependencies (forwards).
 */
function boundedWalk(start: string, next: (dir: string) => readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set([start]);
  let frontier = [start];
  for (let step = 0; step < CHAIN_DEPTH && frontier.length > 0; step++) {
    const reached: string[] = [];
    for (const dir of frontier)
      for (const d of next(dir))
        if (!seen.has(d)) {
          seen.add(d);
          reached.push(d);
        }
    out.push(...reached);
    frontier = reached;
  }
  return out;
}

/** A package of the workspace whose tools are protected: its name and its manifest (absolute). */
export interface ProtectedDependency {
  name: string;
  manifest: string;
}

/**
 * The packages `dir`'s package.json depends on, by name among the packages of the workspace around
 * it or by path (`file:../agents`, anywhere), whose own manifest (in the package's folder, where
 * init writes it) maps a function tool: their calls pause through the Control, so an SDK answer in
 * `dir` authorizes nothing. A manifest that does not load counts as none (its own package's check
 * reports it).
 */
export function protectedDependencies(dir: string, listings: WorkspaceListings = new Map()): ProtectedDependency[] {
  // the key each folder was first reached by names it (a `core` between it and `agents`, CHAIN_DEPTH steps)
  const names = new Map<string, string>();
  const next = (at: string): string[] =>
    directDependencies(at, listings).map((dep) => {
      if (!names.has(dep.dir)) names.set(dep.dir, dep.name);
      return dep.dir;
    });
  const out: ProtectedDependency[] = [];
  for (const dep of boundedWalk(path.resolve(dir), next)) {
    const manifest = protectingManifest(dep);
    if (manifest !== undefined && !out.some((o) => o.manifest === manifest)) out.push({ name: names.get(dep)!, manifest });
  }
  return out;
}

/** The packages `dir`'s package.json names: by name among its workspace's packages, by path, or by a link installed. */
function directDependencies(dir: string, listings?: WorkspaceListings): { name: string; dir: string }[] {
  const pkg = packageJson(dir);
  if (!pkg || !DEPENDENCY_FIELDS.some((f) => pkg[f] !== null && typeof pkg[f] === 'object')) return [];
  const found: { name: string; dir: string }[] = [];
  for (const sibling of workspaceSiblings(dir, listings)) {
    const name = packageJson(sibling)?.name;
    if (typeof name === 'string' && name !== '' && dependsOn(pkg, name)) found.push({ name, dir: sibling });
  }
  for (const dep of pathDependencies(path.resolve(dir), pkg)) if (!found.some((f) => f.dir === dep.dir || realFolder(f.dir) === dep.dir)) found.push(dep);
  return found;
}

/** The package's manifest (in its folder, where init writes it) when it maps a function or computed tool; one that does not load counts as none. */
function protectingManifest(dir: string): string | undefined {
  const manifest = path.join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = readRegularText(manifest);
  } catch {
    return undefined;
  }
  const tools = parseManifest(text, manifest).value?.tools ?? [];
  return tools.some((t) => t.kind === 'function' || t.kind === 'computed') ? manifest : undefined;
}

/**
 * Whether the package holding `dir` (the nearest folder at or above it with a package.json) depends
 * on a package whose manifest maps a function tool: a folder with no manifest of its own is then
 * checked under those manifests (its SDK answers break their tools), not refused for having none.
 */
export function dependsOnProtected(dir: string): boolean {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    if (packageJson(at) !== undefined) return protectedDependencies(at).length > 0;
    if (path.dirname(at) === at) return false;
  }
}
