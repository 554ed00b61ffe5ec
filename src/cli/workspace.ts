import path from 'node:path';
import { listRootFiles, type RootFiles } from '../fs/repo-files.js';
import { findManifest } from '../manifest/find.js';
import { manifestsFor, manifestsIn, nestedPackages } from '../manifest/workspace.js';

/**
 * The manifests a command at `cwd` goes through, when there is more than one: at a workspace root
 * with no manifest of its own (none found upward), its packages' manifests; at a package with a
 * manifest that has packages with manifests of their own below it (a library's `examples/agent`),
 * its own and theirs. Of those, the ones the command's `paths` reach (all without paths), absolute;
 * else undefined: the command runs once, as ever (and reports a missing manifest as ever).
 */
export function workspaceManifests(cwd: string, paths?: readonly string[]): string[] | undefined {
  return workspaceManifestsListed(cwd, paths).manifests;
}

/**
 * `workspaceManifests`, with the files of the manifest's folder it listed to find the packages
 * below it (`rootFiles`, when cwd has a manifest of its own): the scan of that folder that follows
 * lists the same files, and takes them from here rather than listing the folder again.
 */
export function workspaceManifestsListed(cwd: string, paths?: readonly string[]): { manifests: string[] | undefined; rootFiles?: RootFiles } {
  const own = findManifest(cwd);
  const rootFiles = own !== undefined ? listRootFiles(path.dirname(own)) : undefined;
  const manifests = manifestsAt(cwd, own, rootFiles, paths);
  return rootFiles ? { manifests, rootFiles } : { manifests };
}

function manifestsAt(cwd: string, own: string | undefined, rootFiles: RootFiles | undefined, paths: readonly string[] | undefined): string[] | undefined {
  const all = own !== undefined ? [own, ...manifestsIn(nestedPackages(path.dirname(own), undefined, rootFiles?.files))] : manifestsFor(cwd);
  if (all.length === 0 || (own !== undefined && all.length === 1)) return undefined;
  if (!paths || paths.length === 0) return all;
  const wanted = paths.map((p) => path.resolve(cwd, p));
  const within = (outer: string, inner: string) => {
    const rel = path.relative(outer, inner);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  };
  const dirs = all.map((m) => path.dirname(m));
  // a path reaches the package whose folder holds it (the innermost), and every package it holds
  const reaches = (dir: string, p: string) => within(p, dir) || (within(dir, p) && !dirs.some((d) => d !== dir && within(dir, d) && within(d, p)));
  const reached = all.filter((m) => wanted.some((p) => reaches(path.dirname(m), p)));
  return reached.length > 0 ? reached : undefined;
}
