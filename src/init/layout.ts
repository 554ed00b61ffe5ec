import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Where `init` writes: the package that holds the tools (the nearest `package.json` above a tool's
 * file), never a new folder at a workspace root. In a pnpm/npm/yarn workspace run from its root,
 * each package with tools gets its own three files.
 */

/**
 * The directory of the nearest `package.json` at or above `dir` and at or below `top` (init never
 * writes above the directory it was started in); undefined when there is none.
 */
export function nearestPackageDir(dir: string, top: string): string | undefined {
  const limit = path.resolve(top);
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const rel = path.relative(limit, current);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
    if (existsSync(path.join(current, 'package.json'))) return current;
    if (current === limit || path.dirname(current) === current) return undefined;
  }
}

/**
 * Groups files (absolute paths, under `top`) by the package that holds them; a file with no
 * package.json between it and `top` belongs to `top` (the working directory).
 */
export function groupByPackage(files: string[], top: string): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const file of files) {
    const dir = nearestPackageDir(path.dirname(file), top) ?? path.resolve(top);
    groups.set(dir, [...(groups.get(dir) ?? []), file]);
  }
  return groups;
}

const isDir = (p: string): boolean => existsSync(p) && statSync(p).isDirectory();

/**
 * The folder (relative to the package, with a trailing `/`, or `''` for the package itself) for the
 * generated module and the control: `src/` when the package has one; else the top folder every
 * tool file of the package sits in (`lib/`, `app/`); else the package's own directory. Never a
 * folder that does not exist yet.
 */
export function sourceFolder(packageDir: string, toolFiles: string[]): string {
  if (isDir(path.join(packageDir, 'src'))) return 'src/';
  const tops = new Set(
    toolFiles.map((f) => {
      const rel = path.relative(packageDir, f).split(path.sep);
      return rel.length > 1 ? rel[0]! : '';
    }),
  );
  const [only] = [...tops];
  return tops.size === 1 && only && isDir(path.join(packageDir, only)) ? `${only}/` : '';
}
