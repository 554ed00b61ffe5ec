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
 * manifest above the repository is not the repository's); undefined when there is none.
 */
export function findManifest(cwd: string): string | undefined {
  let dir = path.resolve(cwd);
  const top = gitRootOf(dir);
  for (;;) {
    const candidate = path.join(dir, MANIFEST_FILE);
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here; go up
    }
    const parent = path.dirname(dir);
    if (dir === top) return undefined;
    if (parent === dir) return undefined;
    dir = parent;
  }
}

