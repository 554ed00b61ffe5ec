import path from 'node:path';
import { readRegularText } from '../safe-read.js';
import { MANIFEST_FILE } from './find.js';
import { parseManifest } from './load.js';
import { nestedPackages, workspacePatterns } from './workspace.js';

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
  try {
    const value: unknown = JSON.parse(readRegularText(path.join(dir, 'package.json')));
    return value !== null && typeof value === 'object' ? (value as PackageJson) : undefined;
  } catch {
    return undefined;
  }
}

/** The nearest folder above `dir` (itself excluded) that is a workspace root, or undefined. */
function workspaceRootAbove(dir: string): string | undefined {
  for (let at = path.dirname(dir); ; at = path.dirname(at)) {
    if (workspacePatterns(at) !== undefined) return at;
    if (path.dirname(at) === at) return undefined;
  }
}

function dependsOn(pkg: PackageJson | undefined, name: string): boolean {
  if (!pkg) return false;
  return DEPENDENCY_FIELDS.some((field) => {
    const deps = pkg[field];
    return deps !== null && typeof deps === 'object' && Object.hasOwn(deps, name);
  });
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
 * The other packages of the workspace around `root` whose package.json depends on `root`'s package
 * by name (absolute, sorted). Empty outside a workspace or for a package without a name.
 */
export function dependentPackages(root: string, listings?: WorkspaceListings): string[] {
  const name = packageJson(root)?.name;
  if (typeof name !== 'string' || name === '') return [];
  return workspaceSiblings(root, listings).filter((dir) => dependsOn(packageJson(dir), name));
}

/** A package of the workspace whose tools are protected: its name and its manifest (absolute). */
export interface ProtectedDependency {
  name: string;
  manifest: string;
}

/**
 * The packages of the workspace around `dir` that `dir`'s package.json depends on by name and whose
 * own manifest (in the package's folder, where init writes it) maps a function tool: their calls
 * pause through the Control, so an SDK answer in `dir` authorizes nothing. A manifest that does not
 * load counts as none (its own package's check reports it).
 */
export function protectedDependencies(dir: string, listings?: WorkspaceListings): ProtectedDependency[] {
  const pkg = packageJson(dir);
  if (!pkg || !DEPENDENCY_FIELDS.some((f) => pkg[f] !== null && typeof pkg[f] === 'object')) return [];
  const out: ProtectedDependency[] = [];
  for (const sibling of workspaceSiblings(dir, listings)) {
    const name = packageJson(sibling)?.name;
    if (typeof name !== 'string' || name === '' || !dependsOn(pkg, name)) continue;
    const manifest = path.join(sibling, MANIFEST_FILE);
    let text: string;
    try {
      text = readRegularText(manifest);
    } catch {
      continue;
    }
    const tools = parseManifest(text, manifest).value?.tools ?? [];
    if (tools.some((t) => t.kind === 'function' || t.kind === 'computed')) out.push({ name, manifest });
  }
  return out;
}
