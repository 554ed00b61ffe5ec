import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { protectedDependencies } from '../../src/manifest/workspace-dependencies.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const MANIFEST = readFileSync(path.join(FIXTURES, 'codemod/app-approvals/input/ctrlrun.tools.yaml'), 'utf8');

/**
 * Issue 40: a folder with no manifest follows each dependency whose `node_modules/<name>` is a link
 * (`npm link agents`) as a package of its own. pnpm links every dependency so, into its store
 * (`node_modules/.pnpm/foo@1/node_modules/foo`): that is the registry's package, and the walk must
 * not read beyond it. Here the store's `foo` names `agents` (whose manifest maps its tools) by
 * path, and carries a manifest mapping tools itself: neither may count. Control: the same `foo`
 * linked from a folder outside node_modules (an `npm link`) is followed to both.
 */
function tree(linkInto: 'store' | 'checkout', under = ''): string {
  const top = makeTempDir('pnpm-links-');
  dirs.push(top);
  const root = path.join(top, under);
  const foo = linkInto === 'store' ? 'server/node_modules/.pnpm/foo@1/node_modules/foo' : 'foo';
  writeFiles(root, {
    'agents/package.json': JSON.stringify({ name: 'agents', version: '1.0.0' }),
    'agents/ctrlrun.tools.yaml': MANIFEST,
    [`${foo}/package.json`]: JSON.stringify({ name: 'foo', version: '1.0.0', dependencies: { agents: `file:${path.join(root, 'agents')}` } }),
    [`${foo}/ctrlrun.tools.yaml`]: MANIFEST,
    'server/package.json': JSON.stringify({ name: 'server', private: true, dependencies: { foo: '^1.0.0' } }),
  });
  mkdirSync(path.join(root, 'server/node_modules'), { recursive: true });
  symlinkSync(path.relative(path.join(root, 'server/node_modules'), path.join(root, foo)), path.join(root, 'server/node_modules/foo'), 'dir');
  return root;
}

const names = (dir: string) => protectedDependencies(dir).map((d) => path.relative(path.dirname(dir), path.dirname(d.manifest)));

describe('a dependency linked into pnpm’s store', () => {
  it('is the registry’s package: no manifest of it read, nothing beyond it followed', () => {
    expect(names(path.join(tree('store'), 'server'))).toEqual([]);
  });

  it('control: the same package linked from a checkout (`npm link foo`) is followed, to the package it names too', () => {
    expect(names(path.join(tree('checkout'), 'server'))).toEqual(['foo', 'agents']);
  });

  it('only a node_modules folder below the checkouts counts: checkouts kept under one are still followed', () => {
    expect(names(path.join(tree('checkout', 'node_modules/work'), 'server'))).toEqual(['foo', 'agents']);
    expect(names(path.join(tree('store', 'node_modules/work'), 'server'))).toEqual([]);
  });
});
