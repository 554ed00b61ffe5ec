import path from 'node:path';
import { nestedPackages, workspacePatterns } from '../manifest/workspace.js';
import { readRegularText } from '../safe-read.js';

/*
 * An app may answer the interruptions of tools it imports from another package of its workspace (a
 * `server` package running the agents of an `agents` package): once those tools are protected, its
 * `state.approve(item)` authorizes nothing (issue 40 item 4). The codemod reads the answers of the
 * packages that depend on the one it rewrites, as it reads the package's own.
 */

/** How deep the workspace's packages are looked for (as manifest/workspace.ts does at a workspace root). */
const WORKSPACE_DEPTH = 6;

interface PackageJson {
  name?: unknown;
  dependencies?: unknown;
  devDependencies?: unknown;
  peerDependencies?: unknown;
  optionalDependencies?: unknown;
}

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
  return [pkg.dependencies, pkg.devDependencies, pkg.peerDependencies, pkg.optionalDependencies].some(
    (deps) => deps !== null && typeof deps === 'object' && Object.hasOwn(deps, name),
  );
}

/**
 * The other packages of the workspace around `root` whose package.json depends on `root`'s package
 * by name (absolute, sorted). Empty outside a workspace or for a package without a name.
 */
export function dependentPackages(root: string): string[] {
  const name = packageJson(root)?.name;
  if (typeof name !== 'string' || name === '') return [];
  const top = workspaceRootAbove(path.resolve(root));
  if (top === undefined) return [];
  return nestedPackages(top, WORKSPACE_DEPTH).filter((dir) => dir !== path.resolve(root) && dependsOn(packageJson(dir), name));
}
