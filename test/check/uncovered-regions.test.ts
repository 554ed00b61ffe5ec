import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packagesWithoutManifest, rootFilesOutsidePackages } from '../../src/check/uncovered-packages.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe('the regions of a root that no manifest covers', () => {
  it("the root's own files outside every package, unless the root has a manifest; packages without one", () => {
    const dir = makeTempDir('uncovered-');
    dirs.push(dir);
    writeFiles(dir, {
      'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }),
      'scripts/ops.ts': 'export const x = 1;\n',
      'packages/a/package.json': JSON.stringify({ name: 'a' }),
      'packages/a/ctrlrun.tools.yaml': 'tools: {}\n',
      'packages/a/src/a.ts': 'export const a = 1;\n',
      'packages/b/package.json': JSON.stringify({ name: 'b' }),
      'packages/b/src/b.ts': 'export const b = 1;\n',
      'packages/core/package.json': JSON.stringify({ name: '@openai/agents-core' }),
    });
    const a = path.join(dir, 'packages/a/ctrlrun.tools.yaml');
    const regions = (manifests: string[]) => [
      rootFilesOutsidePackages(dir, manifests),
      packagesWithoutManifest(dir, manifests).map((d) => path.relative(dir, d)),
    ];
    expect(regions([a])).toEqual([['scripts/ops.ts'], ['packages/b']]);
    // the root's own manifest covers its files (and its packages' folders)
    expect(regions([path.join(dir, 'ctrlrun.tools.yaml'), a])).toEqual([[], []]);
  });
});
