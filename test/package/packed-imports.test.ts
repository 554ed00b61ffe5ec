import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';

/**
 * The package's `files` list names dist/ folders one by one (the CLI's own modules stay out), so a
 * new folder under src/ that a packed module imports must be added to it. A missing one loads in
 * this repository (dist/ is complete) and dies in a user's install with ERR_MODULE_NOT_FOUND (seen:
 * dist/fs/write-all.js, imported by the codemod, was not packed, and the ESLint plugin could not
 * load). Every relative import of every packed JavaScript file must be a packed file.
 */
const SPECIFIER = /^\s*(?:import|export)\b[^'"\n]*?(?:\bfrom\s*)?['"](\.{1,2}\/[^'"]+)['"]|\b(?:import|require)\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/gm;
/** A user's files that the generated text and the messages name (`./ctrlrun.generated.js`): not ours. */
const USER_FILE = /^\.{1,2}\/ctrlrun\.[a-z.]+$/;

function packedFiles(): string[] {
  // dist/ is built before the package tests (as for exports.test.ts); list without rebuilding
  const r = spawnSync('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 });
  expect(r.status, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);
}

/** The relative imports of `source` that are not in `packed`, as `importer -> target`. */
function unpackedImports(file: string, source: string, packed: ReadonlySet<string>): string[] {
  const missing: string[] = [];
  for (const m of source.matchAll(SPECIFIER)) {
    const specifier = (m[1] ?? m[2])!;
    if (USER_FILE.test(specifier)) continue;
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
    if (!packed.has(target)) missing.push(`${file} -> ${target}`);
  }
  return missing;
}

describe('the packed files', { timeout: 180_000 }, () => {
  it('import only packed files', async () => {
    const { readFileSync } = await import('node:fs');
    const files = packedFiles();
    const packed = new Set(files);
    const js = files.filter((f) => f.startsWith('dist/') && /\.(c|m)?js$/.test(f));
    expect(js.length).toBeGreaterThan(100);
    const missing = js.flatMap((f) => unpackedImports(f, readFileSync(path.join(REPO_ROOT, f), 'utf8'), packed));
    expect(missing).toEqual([]);
  });

  it('a module importing an unpacked file is named', () => {
    const packed = new Set(['dist/codemod/write.js']);
    expect(unpackedImports('dist/codemod/write.js', "import { writeAll } from '../fs/write-all.js';\nconst m = await import('./x.js');", packed)).toEqual([
      'dist/codemod/write.js -> dist/fs/write-all.js',
      'dist/codemod/write.js -> dist/codemod/x.js',
    ]);
  });
});
