import { type Dirent, readdirSync } from 'node:fs';
import path from 'node:path';
import { findManifest, MANIFEST_FILE } from './find.js';
import { isProjectRoot, workspacePatterns } from './workspace.js';

/*
 * A plain folder (no package.json, no git work tree's top, no workspace, no manifest here or
 * above) is no project: a folder of unrelated projects, or a home folder. Its commands do not go
 * through the projects below it together (one report, one exit code over projects nobody grouped);
 * the ones with a manifest are named so the user can run the command in each.
 */

/** How deep below a plain folder the manifests are looked for: its folders and theirs (`a/`, `apps/a/`). */
const PLAIN_FOLDER_DEPTH = 2;

/**
 * The manifests just below `cwd` (absolute, sorted) when `cwd` is a plain folder with no manifest of
 * its own or above; empty elsewhere (a project, a workspace, a folder a manifest covers). Never in
 * node_modules or a dot folder, never through a symbolic link.
 */
export function manifestsBelowPlainFolder(cwd: string): string[] {
  const root = path.resolve(cwd);
  if (isProjectRoot(root) || workspacePatterns(root) !== undefined || findManifest(root) !== undefined) return [];
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // a folder the user may not read holds no manifest of theirs
    }
    for (const e of entries) {
      if (e.isFile() && e.name === MANIFEST_FILE && dir !== root) found.push(path.join(dir, e.name));
      else if (e.isDirectory() && depth < PLAIN_FOLDER_DEPTH && e.name !== 'node_modules' && !e.name.startsWith('.')) walk(path.join(dir, e.name), depth + 1);
    }
  };
  walk(root, 0);
  return found.sort();
}
