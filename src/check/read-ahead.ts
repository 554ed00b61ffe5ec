import path from 'node:path';
import { findManifest } from '../manifest/find.js';
import { startRepoRead, type PendingRepoRead } from '../scan/parallel-read.js';

/** What a check is asked to look at: where it runs, and the paths and manifest it was given. */
export interface CheckTarget {
  /** Absolute working directory. */
  cwd: string;
  paths?: readonly string[];
  manifest?: string;
}

/**
 * Start-up (issue 10): starts listing and reading the repo a check will scan on another thread,
 * before the check's own code is loaded. The repo's root is the manifest's folder, found without
 * loading the manifest; with no manifest there is nothing to start (the check reports that).
 */
export function readAheadFor(target: CheckTarget): PendingRepoRead | undefined {
  const manifestFile = target.manifest !== undefined ? path.resolve(target.cwd, target.manifest) : findManifest(target.cwd);
  if (manifestFile === undefined) return undefined;
  const paths = target.paths && target.paths.length > 0 ? target.paths.map((p) => path.resolve(target.cwd, p)) : undefined;
  return startRepoRead({ root: path.dirname(manifestFile), ...(paths ? { paths } : {}) });
}

/** Whether a read started ahead lists exactly what the scan would (same root, same paths). */
export function readsSame(ahead: PendingRepoRead, root: string, paths: readonly string[] | undefined): boolean {
  const a = ahead.options.paths ?? [];
  const b = paths ?? [];
  return ahead.options.root === root && a.length === b.length && a.every((p, i) => p === b[i]);
}
