import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { holds, nearest, resolveFile } from '../../src/scan/links.js';

/**
 * Issue 40, item 8: `nearest` (the package or tsconfig a file belongs to) tests each item's folder
 * by its text on POSIX instead of asking `path.relative`; the answers must be the ones
 * `path.relative` gives, the quirks included (a folder named `..x` reads as going up).
 */
const byRelative = (p: typeof path.posix, dir: string, file: string): boolean => {
  const rel = p.relative(dir, file);
  return !rel.startsWith('..') && !p.isAbsolute(rel);
};

/** Every path of up to `depth` segments over a small alphabet, with and without a trailing `/`, some unresolved. */
function paths(depth: number): string[] {
  const segments = ['a', 'ab', '..', '..a', '.', 'b'];
  let level = ['/'];
  const out = new Set<string>(['/']);
  for (let d = 0; d < depth; d++) {
    level = level.flatMap((p) => segments.map((s) => (p.endsWith('/') ? `${p}${s}` : `${p}/${s}`)));
    for (const p of level) {
      out.add(p);
      out.add(`${p}/`);
    }
  }
  return [...out];
}

describe('holds: the text test is path.relative’s answer', () => {
  it('on every pair of POSIX paths of a small alphabet', () => {
    const all = paths(3);
    let inside = 0;
    for (const dir of all) {
      for (const file of all) {
        const expected = byRelative(path.posix, dir, file);
        if (expected) inside++;
        const got = holds(path.posix.resolve(dir), path.posix.resolve(file), dir, path.posix);
        if (got !== expected) expect({ dir, file, got }).toEqual({ dir, file, got: expected });
      }
    }
    // the alphabet has both answers, the `..x` folders among them
    expect(inside).toBeGreaterThan(1000);
    expect(holds('/r', '/r/..x/f.ts', '/r', path.posix)).toBe(false);
    expect(holds('/r', '/r/.x/f.ts', '/r', path.posix)).toBe(true);
    expect(holds('/r', '/rx/f.ts', '/r', path.posix)).toBe(false);
    expect(holds('/', '/f.ts', '/', path.posix)).toBe(true);
  });

  it('on Windows paths it asks path.relative (drives, case)', () => {
    const win = path.win32;
    for (const [dir, file] of [
      ['C:\\app', 'C:\\app\\src\\a.ts'],
      ['C:\\app', 'c:\\APP\\src\\a.ts'],
      ['C:\\app', 'D:\\app\\a.ts'],
      ['C:\\app', 'C:\\apps\\a.ts'],
      ['C:\\app', 'C:\\app\\..x\\a.ts'],
    ] as const) {
      expect(holds(win.resolve(dir), win.resolve(file), dir, win), `${dir} ${file}`).toBe(byRelative(win as typeof path.posix, dir, file));
    }
    expect(holds('C:\\app', 'D:\\app\\a.ts', 'C:\\app', win)).toBe(false);
  });
});

describe('nearest: the deepest item holding the file, as path.relative finds it', () => {
  it('matches a brute force over every folder of a small tree', () => {
    const dirs = ['/r', '/r/a', '/r/a/b', '/r/ab', '/r/..a', '/r/a/b/', '/q'];
    const items = dirs.map((dir) => ({ dir }));
    const files = paths(3)
      .filter((p) => !p.endsWith('/'))
      .map((p) => path.posix.resolve(`/r${p}`, 'f.ts'));
    for (const file of [...files, ...files]) {
      let best: { dir: string } | undefined;
      for (const it of items) if (byRelative(path.posix, it.dir, file) && (!best || it.dir.length > best.dir.length)) best = it;
      expect(nearest(items, file), file).toBe(best);
    }
    expect(nearest(items, '/r/a/b/c/f.ts')).toBe(items[5]);
    expect(nearest(items, '/r/..a/f.ts')).toBe(items[4]);
    expect(nearest(items, '/elsewhere/f.ts')).toBeUndefined();
  });
});

describe('resolveFile: a folder’s index file, one join for every extension', () => {
  const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
  /** The index lookup as it was written: a join per extension. */
  const byJoins = (files: ReadonlySet<string>, abs: string): string | undefined =>
    EXTENSIONS.map((ext) => path.join(abs, `index${ext}`)).find((f) => files.has(f));

  it('finds the index file a join of each name finds, for every folder of a small alphabet', () => {
    const folders = paths(2);
    let found = 0;
    for (const [i, ext] of EXTENSIONS.entries()) {
      // each folder holds one index file, of one extension (several per alphabet folder)
      const files = new Set(folders.filter((_, j) => j % EXTENSIONS.length === i).map((f) => path.join(f, `index${ext}`)));
      const layout = { files, packages: [], tsconfigs: [] };
      for (const abs of [...folders, ...folders.map((f) => `${f}/x/..`), '']) {
        const expected = files.has(abs) ? abs : byJoins(files, abs);
        if (expected) found++;
        expect(resolveFile(layout, abs), abs).toBe(expected);
      }
    }
    expect(found).toBeGreaterThan(50);
  });
});
