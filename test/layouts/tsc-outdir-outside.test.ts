import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { removeDir } from '../helpers/temp-repo.js';
import { committedRepo, git, handPlacedModuleFindings, JS_AGENT, runTsc, START_ESM, startNode, TS_AGENT, userLoop } from './loop-helpers.js';

/**
 * Issue 21 item 2: a package whose tsc builds `src/` into an outDir outside the package
 * (`../build/app`, `../../dist/x`), beside `.mjs` scripts that declare tools. No folder of the
 * package is imported by the same relative path from `src/tools.ts` and from its build, so a
 * JavaScript generated module (which tsc does not copy) cannot serve both: init refuses, located at
 * the outDir, and writes nothing; `check` is red where a hand-placed module would not be found
 * after the build; with `allowJs` (the hint) the loop, the build and the built app work.
 * Needs `npm run build`.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

const tsconfig = (options: Record<string, unknown>): string =>
  json({
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      skipLibCheck: true,
      types: [],
      rootDir: 'src',
      ...options,
    },
    include: ['src'],
  });

/** The app's own build, as its package.json runs it. */
const tsc = (dir: string): string => runTsc(dir, ['-p', '.']);

const APP = (outDir: string) => ({
  'package.json': json({ name: 'app', private: true, type: 'module', scripts: { build: 'tsc' } }),
  'tsconfig.json': tsconfig({ outDir }),
  'src/tools.ts': TS_AGENT,
  'src/server.ts': START_ESM('./tools.js'),
  'scripts/agent.mjs': JS_AGENT,
  'scripts/start.mjs': START_ESM('./agent.mjs'),
});

const prefixed = (prefix: string, files: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(files).map(([f, text]) => [`${prefix}${f}`, text]));

const clean = (dir: string): string => spawnSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' }).stdout;

describe('an outDir outside the package (issue 21 item 2)', () => {
  it('"outDir": "../build/app": init refuses at the outDir and writes nothing; with allowJs the loop, tsc and the built app work', async () => {
    const repo = committedRepo(dirs, 'outdir-out-', prefixed('app/', APP('../build/app')));
    const dir = path.join(repo, 'app');
    const init = await cli(['init'], { cwd: dir });
    expect(init.code).toBe(2);
    expect(init.stderr).toContain('tsconfig.json:10:5: error: tsc (tsconfig.json) builds src/ to ../build/app/ without allowJs');
    expect(init.stderr).toContain('src/tools.ts runs as ../build/app/tools.js');
    expect(init.stderr).toContain('hint: its outDir is outside the package. Set "allowJs": true in tsconfig.json');
    expect(init.stderr).toContain('init: the TypeScript build of this package would not carry a JavaScript generated module; nothing was written');
    expect(clean(repo)).toBe('');

    writeFileSync(path.join(dir, 'tsconfig.json'), tsconfig({ outDir: '../build/app', allowJs: true }));
    git(repo, 'commit', '-qam', 'allowJs, as the hint says');
    await userLoop(dir);
    expect(readFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'utf8')).toContain('output: src/ctrlrun.generated.js');
    expect(tsc(dir)).toBe('0');
    expect(readFileSync(path.join(repo, 'build/app/ctrlrun.generated.js'), 'utf8'), 'tsc copies the module').toContain('protectedTool');
    expect(startNode(repo, 'build/app/server.js')).toEqual({ interruptions: ['refund'], ran: [] });
    expect(startNode(dir, 'scripts/start.mjs')).toEqual({ interruptions: ['refund'], ran: [] });
  }, 240_000);

  it('"outDir": "../../dist/x" in a workspace, init at its root: refused the same way; a hand-written manifest leaves check red at the import', async () => {
    const repo = committedRepo(dirs, 'outdir-out-', {
      'package.json': json({ name: 'root', private: true, workspaces: ['packages/*'] }),
      ...prefixed('packages/x/', APP('../../dist/x')),
    });
    const init = await cli(['init'], { cwd: repo });
    expect(init.code).toBe(2);
    expect(init.stderr).toContain('packages/x/tsconfig.json:10:5: error: tsc (packages/x/tsconfig.json) builds packages/x/src/ to dist/x/ without allowJs');
    expect(init.stderr).toContain('init: the TypeScript build of packages/x would not carry');
    expect(clean(repo)).toBe('');

    // a user who writes the manifest past the refusal: check names the import the build loses
    const dir = path.join(repo, 'packages/x');
    const found = await handPlacedModuleFindings(dir);
    expect(found.map((f) => f.file)).toEqual(['src/tools.ts']);
    expect(found[0]!.message).toContain("builds this file to ../../dist/x/tools.js, where './ctrlrun.generated.js' names ../../dist/x/ctrlrun.generated.js");
    // what the finding says is what happens
    expect(tsc(dir)).toBe('0');
    const started = spawnSync(process.execPath, ['dist/x/server.js'], { cwd: repo, encoding: 'utf8', timeout: 60_000 });
    expect(started.stderr).toContain('ERR_MODULE_NOT_FOUND');
  }, 240_000);
});
