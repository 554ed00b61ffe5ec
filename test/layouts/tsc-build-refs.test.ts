import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { removeDir } from '../helpers/temp-repo.js';
import { committedRepo, git, JS_AGENT, runTsc, START_ESM, startNode, TS_AGENT, userLoop } from './loop-helpers.js';

/**
 * Issue 21 item 2 with project references: one package whose `npm run build` is `tsc -b` over a
 * solution tsconfig (`"files": []`, `references`) of composite projects, two of them with
 * TypeScript agents, beside `.mjs` scripts that declare tools too. The JavaScript generated module
 * must be reached by one relative path from every project's sources and their build, and tsc -b
 * must accept it (a composite project lists every file it emits: a declaration file outside is
 * read, not emitted). Needs `npm run build`.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
const OPTIONS = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, types: [] };
const project = (options: Record<string, unknown>): string => json({ compilerOptions: { ...OPTIONS, composite: true, ...options }, include: ['src'] });

/** The app's own build, as its package.json runs it. */
const tscB = (dir: string): string => runTsc(dir, ['-b']);

const FILES = (worker: Record<string, unknown>) => ({
  'package.json': json({ name: 'refs-app', private: true, type: 'module', scripts: { build: 'tsc -b', start: 'node packages/server/dist/server.js' } }),
  'tsconfig.json': json({ files: [], references: [{ path: './packages/shared' }, { path: './packages/server' }, { path: './packages/worker' }] }),
  'packages/shared/tsconfig.json': project({ rootDir: 'src', outDir: 'dist' }),
  'packages/shared/src/money.ts': 'export const cents = (n: number): number => Math.round(n * 100);\n',
  'packages/server/tsconfig.json': project({ rootDir: 'src', outDir: 'dist' }),
  'packages/server/src/tools.ts': TS_AGENT,
  'packages/server/src/server.ts': START_ESM('./tools.js'),
  'packages/worker/tsconfig.json': project({ outDir: 'dist', ...worker }),
  'packages/worker/src/jobs/tools.ts': TS_AGENT,
  'packages/worker/src/jobs/start.ts': START_ESM('./tools.js'),
  'scripts/agent.mjs': JS_AGENT,
  'scripts/start.mjs': START_ESM('./agent.mjs'),
});

describe('tsc -b over project references (issue 21 item 2)', () => {
  it('the JavaScript module goes where every referenced project and its build reach it; tsc -b, both built apps and the scripts start', async () => {
    const dir = committedRepo(dirs, 'tsc-refs-', FILES({ rootDir: 'src' }));
    const said = await userLoop(dir);
    const manifest = readFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'utf8');
    expect(manifest).toContain('output: ctrlrun.generated.js');
    expect(manifest).toContain('control: ctrlrun.control.js');
    expect(said).toContain('tsc builds packages/server/src/ to packages/server/dist/, packages/worker/src/ to packages/worker/dist/ without allowJs');
    expect(readFileSync(path.join(dir, 'packages/server/src/tools.ts'), 'utf8')).toContain("from '../../../ctrlrun.generated.js'");
    expect(readFileSync(path.join(dir, 'packages/worker/src/jobs/tools.ts'), 'utf8')).toContain("from '../../../../ctrlrun.generated.js'");
    // the solution config's empty options do not decide a JavaScript file's import: Node loads the exact file
    expect(readFileSync(path.join(dir, 'scripts/agent.mjs'), 'utf8')).toContain("from '../ctrlrun.generated.js'");
    expect(readFileSync(path.join(dir, 'ctrlrun.generated.js'), 'utf8')).toContain("from './ctrlrun.control.js'");
    expect(tscB(dir)).toBe('0');
    expect(existsSync(path.join(dir, 'packages/server/dist/ctrlrun.generated.js')), 'tsc -b emits nothing for the module').toBe(false);
    expect(startNode(dir, 'packages/server/dist/server.js')).toEqual({ interruptions: ['refund'], ran: [] });
    expect(startNode(dir, 'packages/worker/dist/jobs/start.js')).toEqual({ interruptions: ['refund'], ran: [] });
    expect(startNode(dir, 'scripts/start.mjs')).toEqual({ interruptions: ['refund'], ran: [] });
  }, 240_000);

  it('a composite project with no rootDir (its build is dist/src/…): init refuses at that tsconfig and writes nothing; with the hint followed the loop works', async () => {
    const dir = committedRepo(dirs, 'tsc-refs-', FILES({}));
    const init = await cli(['init'], { cwd: dir });
    expect(init.code).toBe(2);
    expect(init.stderr).toContain('packages/worker/tsconfig.json:10:5: error: tsc (packages/worker/tsconfig.json) builds');
    expect(init.stderr).toContain(
      'builds packages/worker/ to packages/worker/dist/ without allowJs, and no folder of the package is imported by the same relative path',
    );
    expect(init.stderr).toContain('packages/worker/src/jobs/tools.ts runs as packages/worker/dist/src/jobs/tools.js');
    expect(init.stderr).toContain('the generated module must be JavaScript (scripts/agent.mjs declares tools and would import it)');
    expect(init.stderr).toContain(
      'hint: A composite project writes declarations, which tsc cannot write for the generated JavaScript: make rootDir and outDir sibling folders ("rootDir": "src", "outDir": "dist")',
    );
    expect(init.stderr).toContain('nothing was written');
    expect(init.stderr).not.toContain('    at ');
    const status = spawnSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' });
    expect(status.stdout, 'nothing was written').toBe('');

    writeFileSync(path.join(dir, 'packages/worker/tsconfig.json'), project({ rootDir: 'src', outDir: 'dist' }));
    git(dir, 'commit', '-qam', 'rootDir src, as the hint says');
    await userLoop(dir);
    expect(tscB(dir)).toBe('0');
    expect(startNode(dir, 'packages/worker/dist/jobs/start.js')).toEqual({ interruptions: ['refund'], ran: [] });
  }, 240_000);
});
