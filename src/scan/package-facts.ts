import { statSync } from 'node:fs';
import path from 'node:path';
import { readRegularText } from '../safe-read.js';

/** A file's stat as a change key: another mtime, size or inode (or a file now present or gone) is another key. */
export function statKey(file: string): string {
  let s: ReturnType<typeof statSync> | undefined;
  try {
    s = statSync(file, { bigint: true, throwIfNoEntry: false });
  } catch {
    // Node 20 throws ENOTDIR for `styles.css/index.ts` despite throwIfNoEntry (22+ answers
    // undefined); a path that cannot be stat'ed (ENOTDIR, ELOOP, EACCES) is not there for us.
    return 'missing';
  }
  return s ? `${s.mtimeNs}:${s.size}:${s.ino}` : 'missing';
}

/**
 * What the browser-side analysis (browser-target.ts) asks of the disk, asked once: the package
 * folder of each folder, each package's build, and each scanned file's own reason to run in a
 * browser. `check` makes one per run; the ESLint plugin keeps one per session (an editor lints a
 * file again and again) and drops it when a file it consulted changed (`changed()`).
 */
export class PackageFacts {
  private readonly dirs = new Map<string, string>();
  private readonly builds = new Map<string, string | undefined>();
  private readonly packageJsons = new Map<string, Record<string, unknown> | undefined>();
  /** Every file whose presence or content decided an answer, with its stat key then. */
  private readonly consulted = new Map<string, string>();
  /** Per scan object (a new text is a new scan): its own reason to run in a browser, or null. */
  readonly seeds = new WeakMap<object, string | null>();

  constructor(readonly root: string) {}

  /** Whether `file` exists, remembered with its stat key. */
  exists(file: string): boolean {
    const key = this.consulted.get(file) ?? statKey(file);
    this.consulted.set(file, key);
    return key !== 'missing';
  }

  /** A consulted file read (its stat key remembered first, so a later edit is seen). */
  read<T>(file: string, load: () => T): T {
    this.exists(file);
    return load();
  }

  /** The package.json in `dir`, parsed once; undefined when there is none or it is not a JSON object. */
  packageJson(dir: string): Record<string, unknown> | undefined {
    const file = path.join(dir, 'package.json');
    if (!this.packageJsons.has(file)) this.packageJsons.set(file, this.exists(file) ? parseObject(file) : undefined);
    return this.packageJsons.get(file);
  }

  /** The directory of the nearest package.json at or above the file (absolute), no higher than the root. */
  packageDirOf(fileAbs: string): string {
    return this.packageDirOfFolder(path.dirname(fileAbs));
  }

  private packageDirOfFolder(dir: string): string {
    const known = this.dirs.get(dir);
    if (known !== undefined) return known;
    const top = path.resolve(this.root);
    const found = this.exists(path.join(dir, 'package.json'))
      ? dir
      : dir === top || path.dirname(dir) === dir || path.relative(top, dir).startsWith('..')
        ? top
        : this.packageDirOfFolder(path.dirname(dir));
    this.dirs.set(dir, found);
    return found;
  }

  /** A package's build reason, computed once per package folder. */
  buildOf(packageDir: string, compute: (dir: string) => string | undefined): string | undefined {
    if (!this.builds.has(packageDir)) this.builds.set(packageDir, compute(packageDir));
    return this.builds.get(packageDir);
  }

  /** Whether a file consulted since this was made has changed on disk (then its answers are stale). */
  changed(): boolean {
    for (const [file, key] of this.consulted) if (statKey(file) !== key) return true;
    return false;
  }
}

function parseObject(file: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(readRegularText(file));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The package names a package.json lists under the given fields (`dependencies`, `devDependencies`, …). */
export function dependencyNames(pkg: Record<string, unknown> | undefined, fields: readonly string[]): string[] {
  return fields.flatMap((field) => {
    const listed = pkg?.[field];
    return typeof listed === 'object' && listed !== null && !Array.isArray(listed) ? Object.keys(listed) : [];
  });
}
