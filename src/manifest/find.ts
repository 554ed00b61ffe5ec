import { statSync } from 'node:fs';
import path from 'node:path';
import { gitRootOf } from '../safe-read.js';

/*
 * Finding the manifest, apart from loading it: the CLI's start-up (issue 10) finds the repo's root
 * before it loads the manifest's parser, to start reading the repo on another thread.
 */

export const MANIFEST_FILE = 'ctrlrun.tools.yaml';

/**
 * Searches `ctrlrun.tools.yaml` from `cwd` upward, no further than the git work tree's root (a
 * manifest above the repository is not the repository's); undefined when there is none. `top`: that
 * root when the caller knows it (the ESLint plugin asks once per folder, not on every file it lints).
 */
export function findManifest(cwd: string, top: string | undefined = gitRootOf(path.resolve(cwd))): string | undefined {
  let dir = path.resolve(cwd);
  for (;;) {
    const candidate = path.join(dir, MANIFEST_FILE);
    try {
      if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
    } catch {
      // not here; go up
    }
    const parent = path.dirname(dir);
    if (dir === top) return undefined;
    if (parent === dir) return undefined;
    dir = parent;
  }
}
