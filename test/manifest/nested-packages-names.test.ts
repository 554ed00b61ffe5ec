import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nestedPackages } from '../../src/manifest/workspace.js';

// The packages below a root are the folders holding a file named `package.json`; the name is
// tested only for the paths ending in it (issue 40, item 8). Every kind of name either way: what is
// found must be what the name test alone finds, from a given listing and from the walk.

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'ctrlrun-nested-packages-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const FILES = [
  'package.json',
  'apps/web/package.json',
  'apps/web/src/package.json.ts',
  'apps/old/package.json.bak',
  'apps/odd/my-package.json',
  'apps/odd/src/a.ts',
  'libs/core/package.json',
  'libs/core/mypackage.json',
  'tools/xpackage.json/index.ts',
];

for (const rel of FILES) {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), rel.endsWith('.json') ? '{}\n' : '\n');
}

describe('nestedPackages names', () => {
  it('finds the folders whose file is named package.json, and no other', () => {
    const expected = ['apps/web', 'libs/core'].map((d) => path.join(root, d));
    expect(nestedPackages(root)).toEqual(expected);
    const listed = FILES.map((f) => path.join(root, f));
    expect(nestedPackages(root, 4, listed)).toEqual(expected);
  });
});
