import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { removeDir } from '../helpers/temp-repo.js';
import { committedRepo, git, JS_AGENT, runTsc, START_ESM, startNode, TS_AGENT, userLoop } from './loop-helpers.js';

/**
 * Session 13, loop bug 1: a TypeScript package built by its own tsc with `rootDir: .` beside a plain
 * JavaScript tool script. `allowJs` alone does not carry the JavaScript generated module into the
 * build: an import of it resolves to the `.d.ts` generate writes beside it, so tsc emits the module
 * only when its include takes the `.js`, and fails on it (TS9006, TS2742) when it writes
 * declarations. init refuses and names exactly those settings; doing what the hint says gives a
 * build that type-checks and starts. Needs `npm run build`.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const tsconfig = (options: Record<string, unknown>, include: string[]): string =>
  `${JSON.stringify(
    {
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, types: [], ...options },
      include,
    },
    null,
    2,
  )}\n`;

const APP = (options: Record<string, unknown>) => ({
  'package.json': JSON.stringify({ name: 'app', private: true, type: 'module', scripts: { build: 'tsc' } }),
  'tsconfig.json': tsconfig({ rootDir: '.', outDir: 'dist', ...options }, ['**/*.ts']),
  'api/tools.ts': TS_AGENT,
  'api/server.ts': START_ESM('./tools.js'),
  'script.mjs': JS_AGENT,
  'start.mjs': START_ESM('./script.mjs'),
});

const clean = (dir: string): string => spawnSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' }).stdout;

describe('allowJs with rootDir . (Session 13, loop bug 1)', () => {
  it('allowJs on, an include of TypeScript only, declarations on: init refuses and names the include and the declarations; doing so builds and starts', async () => {
    const dir = committedRepo(dirs, 'tsc-allowjs-', APP({ allowJs: true, declaration: true }));
    const init = await cli(['init'], { cwd: dir });
    expect(init.code, init.stdout).toBe(2);
    expect(init.stderr).toContain(
      'tsconfig.json:14:3: error: tsc (tsconfig.json) builds ./ to dist/ with allowJs, but its include does not take ctrlrun.generated.js (an import of it resolves to the declaration file beside it, which tsc does not emit)',
    );
    expect(init.stderr).toContain('(script.mjs declares tools and would import it)');
    expect(init.stderr).toContain(
      'hint: Set "declaration": false and add "ctrlrun.generated.js" to "include" in tsconfig.json (tsc then copies the module into the build), or make rootDir and outDir sibling folders',
    );
    expect(clean(dir), 'nothing was written').toBe('');

    writeFileSync(path.join(dir, 'tsconfig.json'), tsconfig({ rootDir: '.', outDir: 'dist', allowJs: true }, ['**/*.ts', 'ctrlrun.generated.js']));
    git(dir, 'commit', '-qam', 'as the hint says');
    await userLoop(dir);
    expect(readFileSync(path.join(dir, 'api/tools.ts'), 'utf8')).toContain("from '../ctrlrun.generated.js'");
    expect(runTsc(dir, ['-p', '.'])).toBe('0');
    expect(existsSync(path.join(dir, 'dist/ctrlrun.generated.js')), 'tsc copies the module').toBe(true);
    expect(existsSync(path.join(dir, 'dist/ctrlrun.control.js')), 'and the control it imports').toBe(true);
    expect(startNode(dir, 'dist/api/server.js')).toEqual({ interruptions: ['refund'], ran: [] });
    expect(startNode(dir, 'start.mjs')).toEqual({ interruptions: ['refund'], ran: [] });
  }, 240_000);

  it('allowJs off: the hint names all three settings, at the outDir as before', async () => {
    const dir = committedRepo(dirs, 'tsc-allowjs-', APP({ declaration: true }));
    const init = await cli(['init'], { cwd: dir });
    expect(init.code, init.stdout).toBe(2);
    expect(init.stderr).toContain('tsconfig.json:10:5: error: tsc (tsconfig.json) builds ./ to dist/ without allowJs, and no folder');
    expect(init.stderr).toContain(
      'hint: Set "allowJs": true, set "declaration": false and add "ctrlrun.generated.js" to "include" in tsconfig.json (tsc then copies the module into the build)',
    );
    expect(clean(dir)).toBe('');
  }, 120_000);

  it('allowJs with an include that takes the module, declarations on: refused because of the declarations, located at them', async () => {
    const files = APP({});
    const dir = committedRepo(dirs, 'tsc-allowjs-', {
      ...files,
      'tsconfig.json': tsconfig({ rootDir: '.', outDir: 'dist', allowJs: true, declaration: true }, ['**/*.ts', 'ctrlrun.generated.js']),
    });
    const init = await cli(['init'], { cwd: dir });
    expect(init.code, init.stdout).toBe(2);
    expect(init.stderr).toMatch(/tsconfig\.json:\d+:\d+: error: tsc \(tsconfig\.json\) builds \.\/ to dist\/ with allowJs and declarations on/);
    expect(init.stderr).toContain('hint: Set "declaration": false in tsconfig.json (tsc then copies the module into the build)');
    expect(clean(dir)).toBe('');
    // what the refusal says is what happens: with the module written by hand there, tsc fails on it
  }, 120_000);
});
