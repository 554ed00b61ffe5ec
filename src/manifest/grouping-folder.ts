import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { workspacePatterns } from './workspace.js';

/*
 * The path dependents' search (workspace-dependencies.ts) reads a package's parent's folders, then,
 * one grouping further, its grandparent's (`apps/server` beside `libs/agents`). The grandparent is
 * a grouping of packages only when nothing says otherwise: a package at `~/code/agents` would have
 * the home folder listed, a folder of everything the user keeps.
 */

/**
 * The grandparent of the package at `root` whose folders may be read as a grouping, or undefined
 * when it is none: a filesystem root, the user's home folder (`home`), or above a parent that is a
 * project of its own (a package.json, a git work tree's top, a workspace root), whose folders are
 * the package's siblings and nothing more.
 */
export function groupingFolder(root: string, home: string = os.homedir()): string | undefined {
  const parent = path.dirname(path.resolve(root));
  const grandparent = path.dirname(parent);
  if (grandparent === parent || path.dirname(grandparent) === grandparent) return undefined;
  if (home !== '' && path.resolve(home) === grandparent) return undefined;
  const project = existsSync(path.join(parent, 'package.json')) || existsSync(path.join(parent, '.git')) || workspacePatterns(parent) !== undefined;
  return project ? undefined : grandparent;
}
