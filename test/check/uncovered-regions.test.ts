import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkPackagesWithoutManifest,
  filesInFolder,
  packagesCheckedBelow,
  packagesWithoutManifest,
  rootFilesOutsidePackages,
} from '../../src/check/uncovered-packages.js';
import { outsideDirs, outsideOf } from '../../src/scan/list.js';
import { repoFiles } from '../../src/fs/repo-files.js';
import { manifestsFor, packagesBelow } from '../../src/manifest/workspace.js';
import { cli } from '../helpers/cli.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';
import { git, TS_AGENT } from '../layouts/loop-helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe('the regions of a root that no manifest covers', () => {
  it("the root's own files outside every package, unless the root has a manifest; packages without one", () => {
    const dir = makeTempDir('uncovered-');
    dirs.push(dir);
    writeFiles(dir, {
      'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }),
      'scripts/ops.ts': 'export const x = 1;\n',
      // the root's tests are none of its doors (named one by one, they would be scanned as the app's)
      'scripts/ops.test.ts': 'export const t = 1;\n',
      'test/e2e.ts': 'export const e = 1;\n',
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

  it("the packages are the repository's: a folder git ignores is none, in a work tree or by the .gitignore files alone", () => {
    const dir = makeTempDir('ignored-packages-');
    dirs.push(dir);
    writeFiles(dir, {
      'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }),
      '.gitignore': 'out/\n',
      'packages/a/package.json': JSON.stringify({ name: 'a' }),
      'packages/a/examples/bot/package.json': JSON.stringify({ name: 'a-bot' }),
      'packages/a-b/package.json': JSON.stringify({ name: 'a-b' }),
      'packages/a-b/.gitignore': 'scratch/\n',
      'packages/a-b/scratch/clone/package.json': JSON.stringify({ name: 'clone' }),
      'out/full/packages/a/package.json': JSON.stringify({ name: 'a' }),
      '.cache/x/package.json': JSON.stringify({ name: 'x' }),
    });
    const rel = () => packagesBelow(dir).map((d) => path.relative(dir, d).split(path.sep).join('/'));
    // walk order: a folder, then what is inside it, then its next sibling
    const expected = ['packages/a', 'packages/a/examples/bot', 'packages/a-b'];
    expect(rel()).toEqual(expected);
    git(dir, 'init', '-q', '.');
    expect(rel()).toEqual(expected);
    // what git tracks is the repository's, whatever .gitignore says (as the scan lists it)
    git(dir, 'add', '-f', 'out/full/packages/a/package.json');
    expect(rel()).toEqual(['out/full/packages/a', ...expected]);
  });

  it('a package that is a git repository of its own inside the work tree is listed with its files (no false green)', () => {
    const dir = makeTempDir('nested-repo-');
    dirs.push(dir);
    writeFiles(dir, {
      'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }),
      'packages/a/package.json': JSON.stringify({ name: 'a' }),
      'packages/b/package.json': JSON.stringify({ name: 'b' }),
      'packages/b/.gitignore': 'dist/\n',
      'packages/b/src/b.ts': 'export const b = 1;\n',
      'packages/b/dist/b.js': 'exports.b = 1;\n',
    });
    git(dir, 'init', '-q', '.');
    // a clone kept inside the work tree: git lists it as one entry, `packages/b/`
    git(path.join(dir, 'packages/b'), 'init', '-q', '.');
    const rel = (files: string[]) => files.map((f) => path.relative(dir, f).split(path.sep).join('/')).sort();
    expect(rel(packagesBelow(dir))).toEqual(['packages/a', 'packages/b']);
    // its files as its own git lists them (its .gitignore kept)
    expect(rel(repoFiles(dir)).filter((f) => f.startsWith('packages/b/'))).toEqual(['packages/b/.gitignore', 'packages/b/package.json', 'packages/b/src/b.ts']);
  });

  it('a submodule checked out is listed with its files, by its own git; one not checked out lists nothing (no false green)', () => {
    const lib = makeTempDir('submodule-lib-');
    dirs.push(lib);
    writeFiles(lib, {
      'package.json': JSON.stringify({ name: 'b' }),
      '.gitignore': 'dist/\nnode_modules/\n',
      'src/b.ts': 'export const b = 1;\n',
    });
    git(lib, 'init', '-q', '.');
    git(lib, 'add', '.');
    git(lib, 'commit', '-q', '-m', 'lib');
    writeFiles(lib, { 'dist/b.js': 'exports.b = 1;\n' });
    const dir = makeTempDir('submodule-');
    dirs.push(dir);
    writeFiles(dir, {
      'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }),
      'packages/a/package.json': JSON.stringify({ name: 'a' }),
    });
    git(dir, 'init', '-q', '.');
    git(dir, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'packages/b');
    writeFiles(dir, { 'packages/b/dist/b.js': 'exports.b = 1;\n' });
    const rel = (files: string[]) => files.map((f) => path.relative(dir, f).split(path.sep).join('/')).sort();
    expect(rel(packagesBelow(dir))).toEqual(['packages/a', 'packages/b']);
    // the submodule's own .gitignore kept; the gitlink itself is no file
    expect(rel(repoFiles(dir)).filter((f) => f.startsWith('packages/b'))).toEqual(['packages/b/.gitignore', 'packages/b/package.json', 'packages/b/src/b.ts']);
    git(dir, 'submodule', 'deinit', '-q', '-f', 'packages/b');
    expect(rel(repoFiles(dir)).filter((f) => f.startsWith('packages/b'))).toEqual([]);
    // listed from inside, git names the empty folder `./`: the folder itself, not a repository in it
    expect(repoFiles(path.join(dir, 'packages/b/'))).toEqual([]);
  });

  it("check finds an open tool in a submodule's files (no false green)", async () => {
    const lib = makeTempDir('submodule-tools-');
    dirs.push(lib);
    writeFiles(lib, { '.gitignore': 'node_modules/\n', 'agent.ts': TS_AGENT });
    git(lib, 'init', '-q', '.');
    git(lib, 'add', '.');
    git(lib, 'commit', '-q', '-m', 'tools');
    const dir = makeTempDir('submodule-app-');
    dirs.push(dir);
    writeFiles(dir, {
      '.gitignore': 'node_modules/\n',
      'package.json': JSON.stringify({ name: 'app', private: true, type: 'module' }),
      'src/index.ts': 'export const x = 1;\n',
    });
    git(dir, 'init', '-q', '.');
    git(dir, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'src/vendor');
    const r = await cli(['check', '--format', 'json'], { cwd: dir });
    const findings = (JSON.parse(r.stdout) as { findings: Array<{ ruleId: string; file: string }> }).findings;
    // (exit 2: no manifest yet, which check names too)
    expect(r.code).toBe(2);
    expect(findings.map((f) => `${f.ruleId} ${f.file}`)).toContain('unprotected-tool src/vendor/agent.ts');
  }, 60_000);

  it('check given paths that reach no manifest finds there what the whole root finds', async () => {
    const dir = makeTempDir('uncovered-paths-');
    dirs.push(dir);
    const pkg = (name: string) => JSON.stringify({ name, private: true, type: 'module' });
    writeFiles(dir, {
      'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }),
      'packages/a/package.json': pkg('a'),
      'packages/a/src/agent.ts': TS_AGENT,
      'packages/b/package.json': pkg('b'),
      'packages/b/src/agent.ts': TS_AGENT,
      // the SDK and no tool: needs no manifest, and check at the root says nothing of it
      'packages/util/package.json': pkg('util'),
      'packages/util/src/index.ts': "import { Agent } from '@openai/agents';\nexport const helper = new Agent({ name: 'helper' });\n",
      'scripts/ops.ts': TS_AGENT,
    });
    const check = async (paths: string[]) => {
      const r = await cli(['check', '--format', 'json', ...paths], { cwd: dir });
      if (r.stdout === '') return { code: r.code, findings: [r.stderr] };
      const findings = (JSON.parse(r.stdout) as { findings: Array<{ ruleId: string; file: string; message: string }> }).findings;
      return { code: r.code, findings: findings.map((f) => `${f.ruleId} ${f.file} ${f.message}`) };
    };
    // no package has a manifest yet: the path's check is the one check, which names the missing manifest
    const none = await check(['packages/util']);
    expect(none.code).toBe(2);
    expect(none.findings[0]).toContain('No ctrlrun.tools.yaml in this directory');
    expect((await cli(['init', '--cwd', 'packages/a'], { cwd: dir })).code).toBe(0);
    const whole = await check([]);
    expect(whole.code).toBe(2);
    const under = (...prefixes: string[]) => whole.findings.filter((f) => prefixes.some((p) => f.split(' ')[1]!.startsWith(p)));
    expect(await check(['packages/b'])).toEqual({ code: 2, findings: under('packages/b/') });
    expect(await check(['packages/b/src/agent.ts'])).toEqual({ code: 2, findings: under('packages/b/') });
    expect(await check(['packages/util'])).toEqual({ code: 0, findings: [] });
    expect(await check(['scripts/ops.ts'])).toEqual({ code: 2, findings: under('ctrlrun.tools.yaml', 'scripts/') });
    // a path that is not there is an error, whichever packages the other paths reach
    for (const paths of [['packages/typo'], ['packages/a', 'packages/typo']])
      expect(await check(paths)).toEqual({ code: 2, findings: [expect.stringContaining('no such file or directory: packages/typo')] });
  }, 60_000);

  it('a package without a source file is not checked: its check would consider none and report nothing', async () => {
    const dir = makeTempDir('uncovered-empty-');
    dirs.push(dir);
    writeFiles(dir, {
      'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }),
      'packages/a/package.json': JSON.stringify({ name: 'a' }),
      'packages/a/ctrlrun.tools.yaml': 'tools: {}\n',
      'packages/b/package.json': JSON.stringify({ name: 'b' }),
      'packages/b/src/b.ts': 'export const b = 1;\n',
      'packages/docs/package.json': JSON.stringify({ name: 'docs' }),
      'packages/docs/README.md': '# docs\n',
    });
    const manifests = [path.join(dir, 'packages/a/ctrlrun.tools.yaml')];
    expect(packagesWithoutManifest(dir, manifests).map((d) => path.basename(d))).toEqual(['b', 'docs']);
    const results = await checkPackagesWithoutManifest(dir, manifests);
    expect(results.map((r) => [r.filesConsidered, r.findings])).toEqual([[1, []]]);
  });

  it('the root listed once: each region checked on its files finds what its own listing finds', async () => {
    const dir = makeTempDir('uncovered-once-');
    dirs.push(dir);
    const open =
      "import { Agent, tool } from '@openai/agents';\nimport { z } from 'zod';\nexport const wipe = tool({ name: 'wipe', description: 'x', parameters: z.object({}), execute: async () => 'ok' });\nexport const agent = new Agent({ name: 'ops', tools: [wipe] });\n";
    writeFiles(dir, {
      'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }),
      '.gitignore': 'out/\n',
      'scripts/ops.ts': open,
      'packages/a/package.json': JSON.stringify({ name: 'a' }),
      'packages/a/ctrlrun.tools.yaml': 'tools: {}\n',
      'packages/a/src/a.ts': 'export const a = 1;\n',
      'packages/tooling/package.json': JSON.stringify({ name: 'tooling' }),
      'packages/tooling/index.js': 'module.exports = 0;\n',
      'packages/tooling/fixtures/f1/package.json': JSON.stringify({ name: 'f1' }),
      'packages/tooling/fixtures/f1/index.js': 'module.exports = 1;\n',
      'packages/tooling/fixtures/f1-x/package.json': JSON.stringify({ name: 'f1-x' }),
      'packages/tooling/fixtures/f1-x/agent.ts': open,
      'packages/tooling/fixtures/f2/package.json': JSON.stringify({ name: 'f2' }),
      'packages/tooling/fixtures/f2/src/agent.ts': open,
      'packages/tooling/fixtures/f2/nested/package.json': JSON.stringify({ name: 'nested' }),
      'packages/tooling/fixtures/f2/nested/n.ts': open,
      'out/copy/package.json': JSON.stringify({ name: 'copy' }),
      'out/copy/agent.ts': open,
    });
    git(dir, 'init', '-q', '.');
    const manifests = [path.join(dir, 'packages/a/ctrlrun.tools.yaml')];
    const summary = (results: Awaited<ReturnType<typeof checkPackagesWithoutManifest>>) =>
      results.map((r) => ({ considered: r.filesConsidered, parsed: r.filesParsed, findings: r.findings.map((f) => `${f.ruleId} ${f.file}:${f.line}`) }));
    const once = summary(await checkPackagesWithoutManifest(dir, manifests));
    // with a path (`.`: the whole root) each region lists its own files, as before the root was listed once
    const each = summary(await checkPackagesWithoutManifest(dir, manifests, ['.']));
    expect(once).toEqual(each);
    const files = once.flatMap((r) => r.findings.map((f) => f.split(' ')[1]!.split(':')[0]));
    expect([...new Set(files)].sort()).toEqual([
      'ctrlrun.tools.yaml',
      'packages/tooling/fixtures/f1-x/agent.ts',
      'packages/tooling/fixtures/f1-x/ctrlrun.tools.yaml',
      'packages/tooling/fixtures/f2/ctrlrun.tools.yaml',
      'packages/tooling/fixtures/f2/nested/ctrlrun.tools.yaml',
      'packages/tooling/fixtures/f2/nested/n.ts',
      'packages/tooling/fixtures/f2/src/agent.ts',
      'scripts/ops.ts',
    ]);
  }, 60_000);
});

describe('the lookups of a listing by folder, against trying every folder', () => {
  const names = ['a', 'a-b', 'a.b', 'ab', 'b'];
  const folders = ['/r', ...names.map((n) => `/r/${n}`), ...names.flatMap((n) => names.slice(0, 3).map((m) => `/r/${n}/${m}`))];
  const files = folders.flatMap((d) => [`${d}/x.ts`, `${d}/a`, `${d}-c.ts`]).sort();
  const inside = (outer: string, inner: string) => inner === outer || inner.startsWith(`${outer}/`);

  it('filesInFolder: the files below the folder', () => {
    for (const d of folders) expect(filesInFolder(files, d), d).toEqual(files.filter((f) => f.startsWith(`${d}/`)));
  });

  it('packagesCheckedBelow: for each package without a manifest, the checked folders strictly below it', () => {
    const uncovered = folders.filter((_, i) => i % 3 === 0);
    const covered = folders.filter((_, i) => i % 3 === 1);
    const below = packagesCheckedBelow(
      uncovered,
      covered.map((d) => `${d}/ctrlrun.tools.yaml`),
    );
    expect([...below.keys()].sort()).toEqual([...uncovered].sort());
    for (const d of uncovered) {
      const expected = [...covered, ...uncovered].filter((c) => c !== d && inside(d, c)).sort();
      expect([...below.get(d)!].sort(), d).toEqual(expected);
    }
  });

  it('outsideOf and outsideDirs: in none of the folders', () => {
    const sets = [[], ['/r/a'], ['/r/a', '/r/a/a-b'], ['/r/a-b', '/r/b/a'], folders.slice(1)];
    for (const dirs of sets) {
      const keep = outsideOf(dirs);
      for (const f of [...files, ...folders]) expect(keep(f), `${f} ${dirs}`).toBe(!dirs.some((d) => inside(d, f)));
      expect(outsideDirs(files, dirs), `${dirs}`).toEqual(files.filter((f) => !dirs.some((d) => f.startsWith(`${d}/`))));
    }
  });
});
