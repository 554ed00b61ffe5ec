import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listSourceFiles, scanRepo } from '../../src/scan/index.js';
import { childPath, walkFiles } from '../../src/fs/repo-files.js';
import { inNodeModules } from '../../src/scan/list.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const SDK = `import { tool } from '@openai/agents';\nexport const t = tool({ name: 'x' });\n`;

function write(root: string, rel: string, text: string | Buffer): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

const relAll = (root: string, files: string[]) => files.map((f) => path.relative(root, f).split(path.sep).join('/'));

function layout(root: string): void {
  write(root, '.gitignore', 'ignored/\n*.gen.ts\n');
  write(root, 'src/a.ts', SDK);
  write(root, 'src/b.mjs', SDK);
  write(root, 'src/plain.ts', 'export const x = 1;\n');
  write(root, 'src/x.gen.ts', SDK);
  write(root, 'ignored/c.ts', SDK);
  write(root, 'pkg/.gitignore', 'local.ts\n');
  write(root, 'pkg/local.ts', SDK);
  write(root, 'pkg/kept.tsx', SDK);
  write(root, 'dist/d.js', SDK);
  write(root, 'src/out/e.js', SDK);
  write(root, 'build/e.js', SDK);
  write(root, 'coverage/e.js', SDK);
  write(root, '.hidden/e.ts', SDK);
  write(root, '.eslintrc.js', SDK);
  write(root, 'src/types.d.ts', SDK);
  write(root, 'src/ctrlrun.generated.ts', SDK);
  write(root, 'node_modules/dep/index.js', SDK);
  write(root, 'README.md', SDK);
}

describe('scanRepo outside a git work tree: the .gitignore files decide', () => {
  const root = makeTempDir('scan-');
  afterAll(() => removeDir(root));
  layout(root);

  it('honours .gitignore (nested too); skips nothing else by name but node_modules, .d.ts and the generated module', async () => {
    const files = await listSourceFiles({ root, generatedModule: path.join(root, 'src/ctrlrun.generated.ts') });
    expect(relAll(root, files)).toEqual([
      '.eslintrc.js',
      '.hidden/e.ts',
      'build/e.js',
      'coverage/e.js',
      'dist/d.js',
      'pkg/kept.tsx',
      'src/a.ts',
      'src/b.mjs',
      'src/out/e.js',
      'src/plain.ts',
    ]);
  });

  it('parses only files that pass the text prefilter, and reports progress', async () => {
    const progress: Array<[number, number]> = [];
    const scan = await scanRepo({ root, generatedModule: path.join(root, 'src/ctrlrun.generated.ts'), onProgress: (d, t) => progress.push([d, t]) });
    expect(scan.filesConsidered).toBe(10);
    expect(scan.files.map((f) => f.file)).toEqual([
      '.eslintrc.js',
      '.hidden/e.ts',
      'build/e.js',
      'coverage/e.js',
      'dist/d.js',
      'pkg/kept.tsx',
      'src/a.ts',
      'src/b.mjs',
      'src/out/e.js',
    ]);
    expect(scan.files.every((f) => f.sdkToolCalls.length === 1)).toBe(true);
    expect(progress.at(-1)).toEqual([10, 10]);
  });

  it('scans only the given paths; a file named explicitly is kept even if git-ignored', async () => {
    const scan = await scanRepo({ root, paths: ['pkg', 'ignored/c.ts'] });
    expect(scan.files.map((f) => f.file)).toEqual(['ignored/c.ts', 'pkg/kept.tsx']);
  });
});

describe('scanRepo in a git work tree: what git looks at', () => {
  // Outside the repository's own tree, so that this is a work tree of its own.
  const root = path.join(os.tmpdir(), `ctrlrun-scan-git-${process.pid}`);
  afterAll(() => {
    try {
      chmodSync(path.join(root, 'locked'), 0o755);
    } catch {
      // not created
    }
    removeDir(root);
  });
  mkdirSync(root, { recursive: true });
  layout(root);
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: root, stdio: 'pipe' });
  git('init', '-q');
  git('add', '-A');
  // Tracked although .gitignore matches them.
  git('add', '-f', 'ignored/c.ts', 'pkg/local.ts');
  // Untracked, not ignored: scanned too.
  write(root, 'src/new.ts', SDK);

  it('every tracked file whatever .gitignore says; untracked files follow .gitignore', async () => {
    const files = await listSourceFiles({ root, generatedModule: path.join(root, 'src/ctrlrun.generated.ts') });
    expect(relAll(root, files)).toEqual([
      '.eslintrc.js',
      '.hidden/e.ts',
      'build/e.js',
      'coverage/e.js',
      'dist/d.js',
      'ignored/c.ts',
      'pkg/kept.tsx',
      'pkg/local.ts',
      'src/a.ts',
      'src/b.mjs',
      'src/new.ts',
      'src/out/e.js',
      'src/plain.ts',
    ]);
  });

  it('UTF-16 and BOM files are decoded; an undecodable file and an unreadable folder are reported, located', async () => {
    write(root, 'src/utf16.ts', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(SDK.replace("'x'", "'u16'"), 'utf16le')]));
    write(root, 'src/bom.ts', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(SDK.replace("'x'", "'bom'"))]));
    write(root, 'src/latin1.ts', Buffer.from(`// caf\xe9\n${SDK}`, 'latin1'));
    write(root, 'locked/a.ts', SDK);
    chmodSync(path.join(root, 'locked'), 0o000);
    const scan = await scanRepo({ root });
    const names = scan.files.flatMap((f) => f.sdkToolCalls.map((c) => `${f.file}:${c.name}`));
    expect(names).toContain('src/utf16.ts:u16');
    expect(names).toContain('src/bom.ts:bom');
    const unreadable = (scan.unreadable ?? []).map((u) => u.file);
    expect(unreadable).toContain('src/latin1.ts');
    // Root can read anything: the folder is then listed like any other.
    if (process.getuid?.() !== 0) expect(unreadable).toContain('locked');
    else expect(names).toContain('locked/a.ts:x');
  });
});

describe('inNodeModules', () => {
  it('is `split(path.sep).includes("node_modules")`, on every path of up to four segments of a small alphabet', () => {
    const sep = path.sep;
    const segments = ['', 'node_modules', 'node_module', 'xnode_modules', 'a'];
    const paths: string[] = [];
    const grow = (prefix: string[], depth: number): void => {
      if (prefix.length > 0) paths.push(prefix.join(sep));
      if (depth === 0) return;
      for (const s of segments) grow([...prefix, s], depth - 1);
    };
    grow([], 4);
    expect(paths.length).toBeGreaterThan(700);
    for (const p of paths) expect(inNodeModules(p), JSON.stringify(p)).toBe(p.split(sep).includes('node_modules'));
    expect(inNodeModules(`${sep}repo${sep}node_modules${sep}x.ts`)).toBe(true);
    expect(inNodeModules(`${sep}repo${sep}node_modules.ts`)).toBe(false);
  });
});

describe('childPath', () => {
  it('is `path.join(dir, name)` for every normalized absolute folder and listed name of a small alphabet', () => {
    const root = path.resolve('/');
    const names = ['a', '.a', '..a', '...', 'a.ts', ' ', 'a..', '.git', 'node_modules'];
    const dirs = [root, ...names.map((n) => path.join(root, n)), ...names.flatMap((n) => names.map((m) => path.join(root, n, m)))];
    for (const dir of dirs) for (const name of names) expect(childPath(dir, name), JSON.stringify([dir, name])).toBe(path.join(dir, name));
  });
});

describe('walkFiles outside a git work tree', () => {
  const root = makeTempDir('walk-');
  afterAll(() => removeDir(root));
  write(root, '.gitignore', '/top.ts\n');
  write(root, 'top.ts', '');
  write(root, 'sub/.gitignore', '/deep.ts\nlocal/\n');
  write(root, 'sub/top.ts', '');
  write(root, 'sub/deep.ts', '');
  write(root, 'sub/x/deep.ts', '');
  write(root, 'sub/local/a.ts', '');
  write(root, 'local/a.ts', '');

  it('reads each .gitignore relative to its own folder, the root given with or without a trailing separator', () => {
    // anchored patterns (`/top.ts`) match only in their file's folder; `local/` only below `sub`
    const expected = ['.gitignore', 'local/a.ts', 'sub/.gitignore', 'sub/top.ts', 'sub/x/deep.ts'];
    for (const dir of [root, root + path.sep]) expect(relAll(root, walkFiles(dir, [])).sort(), dir).toEqual(expected);
  });
});
