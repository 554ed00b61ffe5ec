import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { denoConfigIn, nearestDenoConfig } from '../../src/scan/deno-import-map.js';
import { makeTempDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * Session 31 (issue 40): the scanner's one walk up for a Deno config, shared by the codemod's
 * module settings (one folder at a time), check's import maps (up to the root) and its generated
 * import (up to a nearer tsconfig).
 */
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const dir = makeTempDir('deno-config-');
  dirs.push(dir);
  writeFiles(dir, files);
  return dir;
}

describe('denoConfigIn', () => {
  it('takes deno.json before deno.jsonc, and a folder of that name as no config', () => {
    const root = tree({ 'deno.json': '{}', 'deno.jsonc': '{}', 'a/deno.json/readme.md': 'a folder', 'a/deno.jsonc': '{}', 'b/x.ts': '' });
    expect(denoConfigIn(root)).toBe(path.join(root, 'deno.json'));
    expect(denoConfigIn(path.join(root, 'a'))).toBe(path.join(root, 'a/deno.jsonc'));
    expect(denoConfigIn(path.join(root, 'b'))).toBeUndefined();
  });
});

describe('nearestDenoConfig', () => {
  it('walks up to the nearest config, and no higher than the root', () => {
    const top = tree({ 'deno.json': '{}', 'app/fn/deno.jsonc': '{}', 'app/fn/deep/x.ts': '', 'app/other/x.ts': '' });
    const root = path.join(top, 'app');
    expect(nearestDenoConfig(path.join(root, 'fn/deep'), root)).toBe(path.join(root, 'fn/deno.jsonc'));
    // the config above the root is not the app's
    expect(nearestDenoConfig(path.join(root, 'other'), root)).toBeUndefined();
    expect(nearestDenoConfig(path.join(root, 'other'), top)).toBe(path.join(top, 'deno.json'));
  });

  it('ends at a folder `stop` names, after that folder has no config of its own', () => {
    const root = tree({ 'deno.json': '{}', 'web/tsconfig.json': '{}', 'web/src/x.ts': '', 'fn/deno.json': '{}', 'fn/tsconfig.json': '{}' });
    const stop = (at: string) => ['tsconfig.json', 'jsconfig.json'].some((n) => existsSync(path.join(at, n)));
    expect(nearestDenoConfig(path.join(root, 'web/src'), root, undefined, stop)).toBeUndefined();
    expect(nearestDenoConfig(path.join(root, 'web/src'), root)).toBe(path.join(root, 'deno.json'));
    // a Deno config beside the tsconfig decides (Deno reads no tsconfig)
    expect(nearestDenoConfig(path.join(root, 'fn'), root, undefined, stop)).toBe(path.join(root, 'fn/deno.json'));
  });
});
