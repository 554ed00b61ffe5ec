import os from 'node:os';
import path from 'node:path';

/*
 * The path dependents' search (workspace-dependencies.ts) reads a package's parent's folders, then,
 * one grouping further, its grandparent's (`apps/server` beside `libs/agents`). The grandparent is
 * a grouping of packages unless it is a folder of everything: a package at `~/code/agents` would
 * have the home folder listed. A parent that is a project of its own (a package.json, a git work
 * tree's top) does not stop the search: an app beside that repository naming the package by path
 * is still its dependent, and missing it is a silent break, where reading it is one `readdir`.
 */

/**
 * The grandparent of the package at `root` whose folders may be read as a grouping, or undefined
 * when it is none: a filesystem root or the user's home folder (`home`).
 */
export function groupingFolder(root: string, home: string = os.homedir()): string | undefined {
  const parent = path.dirname(path.resolve(root));
  const grandparent = path.dirname(parent);
  if (grandparent === parent || path.dirname(grandparent) === grandparent) return undefined;
  if (home !== '' && path.resolve(home) === grandparent) return undefined;
  return grandparent;
}
