import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { removeDir } from '../helpers/temp-repo.js';
import { committedRepo, git, runTsc, START_ESM, startNode, TS_AGENT, userLoop } from './loop-helpers.js';

/**
 * Session 13, loop bugs 2 and 3: the specifier of our modules in a TypeScript package.
 * 2. `"start": "node src/main.ts"` (Node's type stripping) with `moduleResolution: bundler`: the
 *    extensionless import tsc accepts is one Node cannot load, and the `.ts` one tsc refuses without
 *    `allowImportingTsExtensions`. init, generate and the codemod refuse (nothing written); with the
 *    hint followed the app type-checks and starts.
 * 3. tsconfig.json allows `.ts` imports (noEmit) but the build's `tsc -p tsconfig.build.json` turns
 *    that off: the imports use an extension both accept, and the app type-checks, builds and starts.
 * Needs `npm run build`.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
const BUNDLER = { target: 'ES2022', module: 'ESNext', moduleResolution: 'bundler', strict: true, skipLibCheck: true, types: [] };
const clean = (dir: string): string => spawnSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' }).stdout;

const NODE_APP = (options: Record<string, unknown>) => ({
  'package.json': json({ name: 'app', private: true, type: 'module', scripts: { start: 'node src/main.ts', typecheck: 'tsc --noEmit' } }),
  'tsconfig.json': json({ compilerOptions: { ...BUNDLER, noEmit: true, ...options }, include: ['src'] }),
  'src/tools.ts': TS_AGENT,
  'src/main.ts': START_ESM('./tools.ts'),
});

describe('a package Node runs as TypeScript (Session 13, loop bug 2)', () => {
  it('moduleResolution bundler without allowImportingTsExtensions: init refuses at the tsconfig, nothing written', async () => {
    // the app's own .ts import needs the flag too; without it, its import is extensionless as tsc wants
    const dir = committedRepo(dirs, 'node-ts-', { ...NODE_APP({}), 'src/main.ts': START_ESM('./tools') });
    const init = await cli(['init'], { cwd: dir });
    expect(init.code, init.stdout).toBe(2);
    expect(init.stderr).toContain(
      "tsconfig.json:2:3: error: package.json runs `node src/main.ts` (its `start` script): Node runs the TypeScript as it is and loads a relative import only by the file's own name (./ctrlrun.generated.ts), but tsconfig.json has tsc accept a TypeScript file's import only without an extension",
    );
    expect(init.stderr).toContain('hint: Set "allowImportingTsExtensions": true (with "noEmit": true) in tsconfig.json');
    expect(init.stderr).toContain("init: the app's imports would not load under Node; nothing was written");
    expect(init.stderr).not.toContain('    at ');
    expect(clean(dir)).toBe('');
  }, 120_000);

  it('with the hint followed: the imports name the .ts files; tsc --noEmit passes and node src/main.ts starts', async () => {
    const dir = committedRepo(dirs, 'node-ts-', NODE_APP({ allowImportingTsExtensions: true }));
    await userLoop(dir);
    expect(readFileSync(path.join(dir, 'src/tools.ts'), 'utf8')).toContain("from './ctrlrun.generated.ts'");
    expect(readFileSync(path.join(dir, 'src/ctrlrun.generated.ts'), 'utf8')).toContain("from './ctrlrun.control.ts'");
    expect(runTsc(dir, ['--noEmit', '-p', '.'])).toBe('0');
    expect(startNode(dir, 'src/main.ts')).toEqual({ interruptions: ['refund'], ran: [] });
  }, 240_000);

  it('generate and the codemod refuse too when the flag goes after init (exit 2, nothing written)', async () => {
    const dir = committedRepo(dirs, 'node-ts-', NODE_APP({ allowImportingTsExtensions: true }));
    expect((await cli(['init'], { cwd: dir })).code).toBe(0);
    writeFileSync(path.join(dir, 'tsconfig.json'), NODE_APP({})['tsconfig.json']);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'init, and the flag gone');
    const generate = await cli(['generate'], { cwd: dir });
    expect(generate.code, generate.stdout).toBe(2);
    expect(generate.stderr).toContain("cannot generate src/ctrlrun.generated.ts: the app's imports would not load under Node; nothing was written");
    const codemod = await cli(['codemod', '--write'], { cwd: dir });
    expect(codemod.code, codemod.stdout).toBe(2);
    expect(codemod.stderr).toContain("codemod: the app's imports would not load under Node; nothing was written");
    expect(clean(dir)).toBe('');
  }, 120_000);

  it('a dev script that runs the TypeScript (the start script runs the build): init refuses and names the dev script (session 14)', async () => {
    const scripts = { build: 'tsc', start: 'node dist/main.js', dev: 'node --watch --env-file-if-exists=.env src/main.ts' };
    const dir = committedRepo(dirs, 'node-ts-dev-', {
      ...NODE_APP({}),
      'package.json': json({ name: 'app', private: true, type: 'module', scripts }),
      'src/main.ts': START_ESM('./tools'),
    });
    const init = await cli(['init'], { cwd: dir });
    expect(init.code, init.stdout).toBe(2);
    expect(init.stderr).toContain(
      'tsconfig.json:2:3: error: package.json runs `node --watch --env-file-if-exists=.env src/main.ts` (its `dev` script): Node runs the TypeScript as it is',
    );
    expect(clean(dir)).toBe('');
  }, 120_000);
});

describe('a build config that turns allowImportingTsExtensions off (Session 13, loop bug 3)', () => {
  it('the imports end in .js, which both configs accept: the type check, the build and the built app work', async () => {
    const dir = committedRepo(dirs, 'build-config-', {
      'package.json': json({ name: 'app', private: true, type: 'module', scripts: { build: 'tsc -p tsconfig.build.json', typecheck: 'tsc --noEmit' } }),
      'tsconfig.json': json({ compilerOptions: { ...BUNDLER, allowImportingTsExtensions: true, noEmit: true }, include: ['src'] }),
      'tsconfig.build.json': json({
        extends: './tsconfig.json',
        compilerOptions: { allowImportingTsExtensions: false, noEmit: false, declaration: true, outDir: 'dist', rootDir: 'src' },
        include: ['src'],
      }),
      'src/tools.ts': TS_AGENT,
      'src/main.ts': START_ESM('./tools.js'),
    });
    await userLoop(dir);
    expect(readFileSync(path.join(dir, 'src/tools.ts'), 'utf8')).toContain("from './ctrlrun.generated.js'");
    expect(readFileSync(path.join(dir, 'src/ctrlrun.generated.ts'), 'utf8')).toContain("from './ctrlrun.control.js'");
    expect(runTsc(dir, ['--noEmit', '-p', '.'])).toBe('0');
    expect(runTsc(dir, ['-p', 'tsconfig.build.json'])).toBe('0');
    expect(startNode(dir, 'dist/main.js')).toEqual({ interruptions: ['refund'], ran: [] });
  }, 240_000);
});
