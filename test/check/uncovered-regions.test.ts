import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packagesWithoutManifest, rootFilesOutsidePackages } from '../../src/check/uncovered-packages.js';
import { manifestsFor } from '../../src/manifest/workspace.js';
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

  it('a package the workspace patterns do not list is a region of its own, with its manifest or without (no false green)', () => {
    const dir = makeTempDir('unlisted-');
    dirs.push(dir);
    writeFiles(dir, {
      'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*', '!packages/legacy'] }),
      'scripts/ops.ts': 'export const x = 1;\n',
      'packages/a/package.json': JSON.stringify({ name: 'a' }),
      'packages/a/ctrlrun.tools.yaml': 'tools: {}\n',
      // inside a listed package, with a manifest of its own: a's scan stops there
      'packages/a/examples/bot/package.json': JSON.stringify({ name: 'a-bot' }),
      'packages/a/examples/bot/ctrlrun.tools.yaml': 'tools: {}\n',
      'packages/a/examples/bot/src/bot.ts': 'export const b = 1;\n',
      // at the root, listed by no pattern, or excluded by one
      'examples/bot/package.json': JSON.stringify({ name: 'bot' }),
      'examples/bot/src/bot.ts': 'export const b = 1;\n',
      'packages/legacy/package.json': JSON.stringify({ name: 'legacy' }),
      'packages/legacy/src/old.ts': 'export const o = 1;\n',
    });
    const rel = (files: string[]) => files.map((f) => path.relative(dir, f).split(path.sep).join('/'));
    const manifests = manifestsFor(dir);
    expect(rel(manifests)).toEqual(['packages/a/ctrlrun.tools.yaml', 'packages/a/examples/bot/ctrlrun.tools.yaml']);
    expect(rel(packagesWithoutManifest(dir, manifests))).toEqual(['examples/bot', 'packages/legacy']);
    expect(rootFilesOutsidePackages(dir, manifests)).toEqual(['scripts/ops.ts']);
  });
});
