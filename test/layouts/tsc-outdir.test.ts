import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { removeDir } from '../helpers/temp-repo.js';
import { committedRepo, handPlacedModuleFindings, JS_AGENT, runTsc, START_ESM, startNode, TS_AGENT, userLoop } from './loop-helpers.js';

/**
 * Issue 21 item 2, the build half: a TypeScript server that its own `tsc` (no `allowJs`) compiles
 * from `src/` to `dist/`, beside `.mjs` scripts that declare tools too. A JavaScript generated
 * module in `src/` would be read by tsc (its declarations) but never copied to `dist/`, so
 * `node dist/server.js` failed with ERR_MODULE_NOT_FOUND. init puts the module where the sources,
 * their build and the scripts reach it by the same specifier: beside `src/` and `dist/`.
 * Needs `npm run build`.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function tsconfig(options: Record<string, unknown>): string {
  return JSON.stringify(
    {
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, types: [], ...options },
      include: ['src'],
    },
    null,
    2,
  );
}

const repo = (files: Record<string, string>): string => committedRepo(dirs, 'tsc-outdir-', files);
const loop = userLoop;

/** The app's own build, as its package.json runs it. */
const tsc = (dir: string): string => runTsc(dir, ['-p', '.']);

const FILES = (type: 'module' | 'commonjs') => ({
  'package.json': JSON.stringify({
    name: 'tsc-app',
    private: true,
    type,
    scripts: { build: 'tsc', start: 'node dist/server.js' },
    devDependencies: { typescript: '5.9.3' },
  }),
  'src/tools.ts': TS_AGENT,
  'src/server.ts': START_ESM('./tools.js'),
  'scripts/agent.mjs': JS_AGENT,
  'scripts/start.mjs': START_ESM('./agent.mjs'),
});

describe('a tsc build to an outDir beside .mjs scripts (issue 21 item 2)', () => {
  it('ESM: init puts the JavaScript module beside src/ and dist/; tsc, node dist/server.js and node scripts/start.mjs all work', async () => {
    const dir = repo({ ...FILES('module'), 'tsconfig.json': tsconfig({ rootDir: 'src', outDir: 'dist' }) });
    const said = await loop(dir);
    const manifest = readFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'utf8');
    expect(manifest).toContain('output: ctrlrun.generated.js');
    expect(manifest).toContain('control: ctrlrun.control.js');
    expect(existsSync(path.join(dir, 'ctrlrun.generated.d.ts'))).toBe(true);
    expect(said).toContain('tsc builds src/ to dist/');
    expect(readFileSync(path.join(dir, 'src/tools.ts'), 'utf8')).toContain("from '../ctrlrun.generated.js'");
    expect(readFileSync(path.join(dir, 'scripts/agent.mjs'), 'utf8')).toContain("from '../ctrlrun.generated.js'");
    expect(tsc(dir)).toBe('0');
    expect(existsSync(path.join(dir, 'dist/ctrlrun.generated.js')), 'tsc emits nothing for the module').toBe(false);
    expect(startNode(dir, 'dist/server.js')).toEqual({ interruptions: ['refund'], ran: [] });
    expect(startNode(dir, 'scripts/start.mjs')).toEqual({ interruptions: ['refund'], ran: [] });
  }, 180_000);

  it('rootDir . (dist/src/…): no folder is reached alike; init refuses and writes nothing, and check names the import tsc does not carry', async () => {
    const dir = repo({ ...FILES('module'), 'tsconfig.json': tsconfig({ rootDir: '.', outDir: 'dist' }) });
    const init = await cli(['init'], { cwd: dir });
    expect(init.code, init.stderr).toBe(2);
    expect(init.stderr).toContain('tsconfig.json:10:5: error: tsc (tsconfig.json) builds ./ to dist/ without allowJs');
    expect(init.stderr).toContain('src/tools.ts runs as dist/src/tools.js');
    expect(init.stderr).toContain('hint: Set "allowJs": true in tsconfig.json');
    expect(spawnSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' }).stdout, 'nothing was written').toBe('');
    // a user who writes the manifest past the refusal
    const found = await handPlacedModuleFindings(dir);
    expect(found.map((f) => f.file)).toEqual(['src/tools.ts']);
    expect(found[0]!.message).toContain("builds this file to dist/src/tools.js, where './ctrlrun.generated.js' names dist/src/ctrlrun.generated.js");
    // what the finding says is what happens
    expect(tsc(dir)).toBe('0');
    const started = spawnSync(process.execPath, ['dist/src/server.js'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect(started.stderr).toContain('ERR_MODULE_NOT_FOUND');
  }, 180_000);

  it('CommonJS package: the module is ESM (.mjs) beside src/ and dist/, and both halves start', async () => {
    const dir = repo({
      ...FILES('commonjs'),
      'src/server.ts': START_ESM('./tools.js')
        .replace(/^const result = await (.*)$/m, 'void (async () => {\n  const result = await $1')
        .replace(/(console\.log\(.*\);)\n$/, '$1\n})();\n'),
      'tsconfig.json': tsconfig({ rootDir: 'src', outDir: 'dist' }),
    });
    await loop(dir);
    expect(readFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'utf8')).toContain('output: ctrlrun.generated.mjs');
    expect(tsc(dir)).toBe('0');
    expect(startNode(dir, 'dist/server.js')).toEqual({ interruptions: ['refund'], ran: [] });
    expect(startNode(dir, 'scripts/start.mjs')).toEqual({ interruptions: ['refund'], ran: [] });
  }, 180_000);

  it('allowJs on: tsc copies the module, so it stays in src/', async () => {
    const dir = repo({ ...FILES('module'), 'tsconfig.json': tsconfig({ rootDir: 'src', outDir: 'dist', allowJs: true }) });
    await loop(dir);
    expect(readFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'utf8')).toContain('output: src/ctrlrun.generated.js');
    expect(tsc(dir)).toBe('0');
    expect(startNode(dir, 'dist/server.js')).toEqual({ interruptions: ['refund'], ran: [] });
  }, 180_000);
});
