import path from 'node:path';
import { workspacePatterns } from '../manifest/workspace.js';
import { gitRootOf } from '../safe-read.js';

/**
 * Where the search for a package's importers stops: the nearest folder at or above the package that
 * is a git work tree's top (`.git`) or a workspace root (the nearer of the two). Undefined when
 * neither is found, or when it is the package's own folder (no file outside it is then read).
 * The scan reads the modules a package imports from outside it within the same bound
 * (unlisted-imports.ts).
 */
export function importerBound(packageRoot: string): string | undefined {
  const pkg = path.resolve(packageRoot);
  const git = gitRootOf(pkg);
  for (let at = pkg; ; at = path.dirname(at)) {
    if (at === git || workspacePatterns(at) !== undefined) return at === pkg ? undefined : at;
    if (path.dirname(at) === at) return undefined;
  }
}
