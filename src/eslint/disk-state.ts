import { type Dirent, readdirSync } from 'node:fs';
import path from 'node:path';
import { statKey } from '../scan/package-facts.js';
import { isSourceFile } from '../scan/source-files.js';

/*
 * What an ESLint session read from disk, kept so it can tell when the disk moved under it (a `git
 * checkout`, a file written by another tool, created or deleted): the stat key of each listed file,
 * and for each folder holding one (and the folders between it and the root) its stat key and the
 * names in it that a listing could take (source files and folders). A folder whose stat key moved
 * is read again: an editor's save through a temporary file moves it without changing its names.
 */

export interface DiskChanges {
  /** Listed files whose stat key moved (their bytes may differ). */
  files: string[];
  /** Whether a file or folder may have been created, deleted or renamed: the listing is stale. */
  listing: boolean;
}

interface FolderState {
  key: string;
  names: string;
}

export class DiskState {
  private readonly files = new Map<string, string>();
  private readonly folders = new Map<string, FolderState>();

  /** `files`: absolute paths under `root`. */
  constructor(root: string, files: readonly string[]) {
    const top = path.resolve(root);
    for (const f of files) {
      this.files.set(f, statKey(f));
      for (let dir = path.dirname(f); !this.folders.has(dir); dir = path.dirname(dir)) {
        this.folders.set(dir, { key: statKey(dir), names: listedNames(dir) });
        if (dir === top || path.dirname(dir) === dir || !dir.startsWith(top)) break;
      }
    }
  }

  /** What moved since the last call (or the construction); the keys are taken as seen from now on. */
  changes(): DiskChanges {
    const files: string[] = [];
    let listing = false;
    for (const [file, key] of this.files) {
      const now = statKey(file);
      if (now === key) continue;
      if (now === 'missing') listing = true;
      else files.push(file);
      this.files.set(file, now);
    }
    for (const [dir, seen] of this.folders) {
      const key = statKey(dir);
      if (key === seen.key) continue;
      const names = listedNames(dir);
      if (names !== seen.names) listing = true;
      this.folders.set(dir, { key, names });
    }
    return { files, listing };
  }
}

const DECLARATION = /\.d\.[cm]?ts$/i;

/** The names in a folder a listing could take: source and declaration files and folders (not dot folders or node_modules), sorted. */
function listedNames(dir: string): string {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 'unreadable';
  }
  return entries
    .filter((e) => (e.isDirectory() ? !e.name.startsWith('.') && e.name !== 'node_modules' : isSourceFile(e.name) || DECLARATION.test(e.name)))
    .map((e) => e.name)
    .sort()
    .join('\n');
}
