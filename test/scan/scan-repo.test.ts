import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listSourceFiles, scanRepo } from '../../src/scan/index.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const SDK = `import { tool } from '@openai/agents';\nexport const t = tool({ name: 'x' });\n`;

function write(root: string, rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

describe('scanRepo', () => {
  const root = makeTempDir('scan-');
  afterAll(() => removeDir(root));
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
  write(root, 'build/e.js', SDK);
  write(root, 'out/e.js', SDK);
  write(root, 'coverage/e.js', SDK);
  write(root, '.next/e.js', SDK);
  write(root, '.hidden/e.ts', SDK);
  write(root, 'src/types.d.ts', SDK);
  write(root, 'src/ctrlrun.generated.ts', SDK);
  write(root, 'node_modules/dep/index.js', SDK);
  write(root, 'README.md', SDK);

  it('honours .gitignore (nested too) and skips build output, dot-dirs, .d.ts, node_modules and the generated module', async () => {
    const files = await listSourceFiles({ root, generatedModule: path.join(root, 'src/ctrlrun.generated.ts') });
    expect(files.map((f) => path.relative(root, f).split(path.sep).join('/'))).toEqual(['pkg/kept.tsx', 'src/a.ts', 'src/b.mjs', 'src/plain.ts']);
  });

  it('parses only files that pass the text prefilter, and reports progress', async () => {
    const progress: Array<[number, number]> = [];
    const scan = await scanRepo({ root, generatedModule: path.join(root, 'src/ctrlrun.generated.ts'), onProgress: (d, t) => progress.push([d, t]) });
    expect(scan.filesConsidered).toBe(4);
    expect(scan.files.map((f) => f.file)).toEqual(['pkg/kept.tsx', 'src/a.ts', 'src/b.mjs']);
    expect(scan.files.every((f) => f.sdkToolCalls.length === 1)).toBe(true);
    expect(progress.at(-1)).toEqual([4, 4]);
  });

  it('scans only the given paths; a file named explicitly is kept even if git-ignored', async () => {
    const scan = await scanRepo({ root, paths: ['pkg', 'ignored/c.ts'] });
    expect(scan.files.map((f) => f.file)).toEqual(['ignored/c.ts', 'pkg/kept.tsx']);
  });
});
