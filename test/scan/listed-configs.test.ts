import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listRepo } from '../../src/scan/list.js';

// The listing's configs and manifests are picked by their names; the names are tested only for the
// files whose path ends like a config (`.json`) or a manifest (issue 40, item 8). Every kind of
// name either way: what is kept must be what the name test alone keeps.

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'ctrlrun-listed-configs-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const FILES = [
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'jsconfig.json',
  'ctrlrun.tools.yaml',
  'data.json',
  'tsconfig.json.bak',
  'my-ctrlrun.tools.yaml',
  'ctrlrun.tools.yml',
  'ctrlrun.yaml',
  'src/a.ts',
  'src/package.json.ts',
  'packages/bot/package.json',
  'packages/bot/tsconfig.base.json',
  'packages/bot/ctrlrun.tools.yaml',
  'packages/bot/src/ctrlrun.tools.yaml.ts',
];

for (const rel of FILES) {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), rel.endsWith('.json') ? '{}\n' : '\n');
}

describe('listRepo configs and manifests', () => {
  it('keeps the configs and the manifests by name, and nothing else', () => {
    const listing = listRepo({ root });
    const rel = (files: readonly string[] | undefined) => (files ?? []).map((f) => path.relative(root, f).split(path.sep).join('/')).sort();
    expect(rel(listing.configs)).toEqual(
      ['jsconfig.json', 'package.json', 'packages/bot/package.json', 'packages/bot/tsconfig.base.json', 'tsconfig.build.json', 'tsconfig.json'].sort(),
    );
    expect(rel(listing.manifests)).toEqual(['ctrlrun.tools.yaml', 'packages/bot/ctrlrun.tools.yaml']);
  });
});
