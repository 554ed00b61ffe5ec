import path from 'node:path';
import { findManifest } from '../manifest/find.js';
import { manifestsFor } from '../manifest/workspace.js';

/**
 * At a workspace root that has no manifest of its own (none found upward), the manifests of its
 * packages that the command's `paths` reach (all of them without paths), absolute and sorted; else
 * undefined: the command runs once, as ever (and reports a missing manifest as ever).
 */
export function workspaceManifests(cwd: string, paths?: readonly string[]): string[] | undefined {
  if (findManifest(cwd) !== undefined) return undefined;
  const all = manifestsFor(cwd);
  if (all.length === 0) return undefined;
  if (!paths || paths.length === 0) return all;
  const wanted = paths.map((p) => path.resolve(cwd, p));
  const within = (outer: string, inner: string) => {
    const rel = path.relative(outer, inner);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  };
  const reached = all.filter((m) => wanted.some((p) => within(path.dirname(m), p) || within(p, path.dirname(m))));
  return reached.length > 0 ? reached : undefined;
}

/** Of `paths` (relative to cwd), those inside the package at `dir`; none (the whole package) when a path holds the package itself. */
export function pathsInPackage(cwd: string, dir: string, paths: readonly string[] | undefined): string[] | undefined {
  if (!paths || paths.length === 0) return undefined;
  const abs = paths.map((p) => path.resolve(cwd, p));
  if (abs.some((p) => !path.relative(p, dir).startsWith('..'))) return undefined;
  return abs.filter((p) => !path.relative(dir, p).startsWith('..')).map((p) => path.relative(cwd, p) || '.');
}
