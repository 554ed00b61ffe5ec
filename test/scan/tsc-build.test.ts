import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generatedImportUnresolvedRule } from '../../src/check/rules/generated-import-unresolved.js';
import { scanSource } from '../../src/scan/index.js';
import { tscBuild } from '../../src/scan/tsc-build.js';
import { testProject } from '../check/rule-tester.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * Issue 21 item 2, the build half: where a JavaScript generated module goes when the package's own
 * tsc builds its TypeScript importers into an outDir without allowJs (src/scan/tsc-build.ts), and
 * the `generated-import-unresolved` finding for a built import that reaches no file.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function pkg(compilerOptions: Record<string, unknown>, extra: Record<string, string> = {}, config = 'tsconfig.json'): string {
  const dir = makeTempDir('tsc-build-');
  dirs.push(dir);
  writeFiles(dir, {
    'package.json': JSON.stringify({
      name: 'app',
      type: 'module',
      ...(config !== 'tsconfig.json' ? { scripts: { build: `tsc -p ${config} && node scripts/copy.mjs` } } : {}),
    }),
    [config]: JSON.stringify({ compilerOptions: { module: 'NodeNext', ...compilerOptions }, include: ['src'] }),
    'src/tools.ts': 'export const a = 1;\n',
    'src/agents/desk.ts': 'export const b = 1;\n',
    ...extra,
  });
  return dir;
}

describe('tscBuild', () => {
  it('rootDir src, outDir dist: the folder that holds both', () => {
    const dir = pkg({ rootDir: 'src', outDir: 'dist' });
    expect(tscBuild(dir, [path.join(dir, 'src/tools.ts')])).toMatchObject({ kind: 'beside', folder: '' });
  });

  it('no rootDir: the common folder of the inputs, as tsc computes it', () => {
    const dir = pkg({ outDir: 'dist' });
    expect(tscBuild(dir, [path.join(dir, 'src/agents/desk.ts')])).toMatchObject({ kind: 'beside', folder: '', programs: [{ rootDir: path.join(dir, 'src') }] });
  });

  it('nested: app/src to app/build gives app/', () => {
    const dir = pkg({ rootDir: 'app/src', outDir: 'app/build' }, { 'app/src/x.ts': 'export {};\n' });
    expect(tscBuild(dir, [path.join(dir, 'src/tools.ts')])).toMatchObject({ kind: 'beside', folder: 'app/' });
  });

  it('the tsconfig the build script names', () => {
    const dir = pkg({ rootDir: 'src', outDir: 'out' }, { 'tsconfig.json': JSON.stringify({ compilerOptions: { noEmit: true } }) }, 'tsconfig.build.json');
    expect(tscBuild(dir, [path.join(dir, 'src/tools.ts')])).toMatchObject({ kind: 'beside', programs: [{ outDir: path.join(dir, 'out') }] });
  });

  it('rootDir . to dist: no folder is reached alike', () => {
    const dir = pkg({ rootDir: '.', outDir: 'dist' });
    expect(tscBuild(dir, [path.join(dir, 'src/tools.ts')])).toMatchObject({ kind: 'unreachable' });
  });

  it('an outDir outside the package: no folder of the package is reached alike', () => {
    const dir = pkg({ rootDir: 'src', outDir: '../build/app' });
    expect(tscBuild(dir, [path.join(dir, 'src/tools.ts')])).toMatchObject({ kind: 'unreachable', program: { outDir: path.resolve(dir, '../build/app') } });
  });

  it('the preferred folder when the build reaches it alike', () => {
    const dir = pkg({ rootDir: 'src', outDir: 'dist' }, { 'lib/x.ts': 'export {};\n' });
    expect(tscBuild(dir, [path.join(dir, 'src/tools.ts')], 'lib/')).toMatchObject({ kind: 'beside', folder: 'lib/' });
    expect(tscBuild(dir, [path.join(dir, 'src/tools.ts')], 'src/'), 'src/ is the rootDir: its build is dist/').toMatchObject({ kind: 'beside', folder: '' });
  });

  for (const [name, options] of [
    ['allowJs (tsc copies the module)', { rootDir: 'src', outDir: 'dist', allowJs: true }],
    ['noEmit', { outDir: 'dist', noEmit: true }],
    ['no outDir (emitted beside the sources)', {}],
  ] as const) {
    it(`nothing to do: ${name}`, () => {
      const dir = pkg(options);
      expect(tscBuild(dir, [path.join(dir, 'src/tools.ts')])).toBeUndefined();
    });
  }

  it('nothing to do: the importer is not in the program', () => {
    const dir = pkg({ rootDir: 'src', outDir: 'dist' }, { 'scripts/x.ts': 'export {};\n' });
    expect(tscBuild(dir, [path.join(dir, 'scripts/x.ts')])).toBeUndefined();
  });
});

/** One package built by `tsc -b` (its build script) over a solution config of composite projects. */
function refs(server: Record<string, unknown>, build = 'tsc -b'): string {
  const dir = makeTempDir('tsc-build-');
  dirs.push(dir);
  const project = (options: Record<string, unknown>) =>
    JSON.stringify({ compilerOptions: { module: 'NodeNext', composite: true, ...options }, include: ['src'] });
  writeFiles(dir, {
    'package.json': JSON.stringify({ name: 'app', type: 'module', scripts: { build } }),
    'tsconfig.json': JSON.stringify({ files: [], references: [{ path: './packages/shared' }, { path: './packages/server' }] }),
    'packages/shared/tsconfig.json': project({ rootDir: 'src', outDir: 'dist' }),
    'packages/shared/src/a.ts': 'export {};\n',
    'packages/server/tsconfig.json': JSON.stringify({
      ...JSON.parse(project({ outDir: 'dist', ...server })),
      references: [{ path: '../shared' }],
    }),
    'packages/server/src/tools.ts': 'export const a = 1;\n',
  });
  return dir;
}

describe('tscBuild with project references (tsc -b)', () => {
  it('follows the references to the project that compiles the tool file', () => {
    const dir = refs({ rootDir: 'src' });
    const build = tscBuild(dir, [path.join(dir, 'packages/server/src/tools.ts')], '');
    expect(build).toMatchObject({ kind: 'beside', folder: '', programs: [{ tsconfig: path.join(dir, 'packages/server/tsconfig.json') }] });
  });

  it('a composite project without rootDir builds from its own folder (dist/src/…): unreachable', () => {
    const dir = refs({});
    const build = tscBuild(dir, [path.join(dir, 'packages/server/src/tools.ts')], '');
    expect(build).toMatchObject({ kind: 'unreachable', program: { rootDir: path.join(dir, 'packages/server') } });
  });

  it('the projects `tsc -b <project>` names, up to its options', () => {
    const dir = refs({ rootDir: 'src' }, 'tsc -b packages/shared packages/server --verbose && node x.mjs');
    expect(tscBuild(dir, [path.join(dir, 'packages/server/src/tools.ts')], '')).toMatchObject({ kind: 'beside' });
    const other = refs({ rootDir: 'src' }, 'tsc -b packages/shared');
    expect(tscBuild(other, [path.join(other, 'packages/server/src/tools.ts')], ''), 'server is not built by that command').toBeUndefined();
  });
});

/** The rule on one import of a JavaScript module (and its `.d.ts`) written at `output` in `dir`. */
const check = (dir: string, output: string, importer: string, spec: string) => {
  const p = testProject();
  const project = { ...p, manifest: { ...p.manifest, root: dir, output: path.join(dir, output) } };
  writeFiles(dir, { [output]: 'export {};\n', [output.replace(/\.js$/, '.d.ts')]: 'export {};\n' });
  const code = `import { protectedTool } from '${spec}';\n`;
  return generatedImportUnresolvedRule()(scanSource(importer, code, { root: dir, generatedModule: path.join(dir, output) }), project);
};

describe('generated-import-unresolved: the built import', () => {
  it('invalid: a JavaScript module in src/ that tsc does not copy to dist/', () => {
    const dir = pkg({ rootDir: 'src', outDir: 'dist' });
    const found = check(dir, 'src/ctrlrun.generated.js', 'src/agents/desk.ts', '../ctrlrun.generated.js');
    expect(found.map((f) => [f.ruleId, f.line])).toEqual([['generated-import-unresolved', 1]]);
    expect(found[0]!.message).toContain("builds this file to dist/agents/desk.js, where '../ctrlrun.generated.js' names dist/ctrlrun.generated.js");
    expect(found[0]!.hint).toContain('allowJs');
  });

  it('invalid: through project references, the referenced project that builds the importer', () => {
    const dir = refs({ rootDir: 'src' });
    const found = check(dir, 'packages/server/src/ctrlrun.generated.js', 'packages/server/src/tools.ts', './ctrlrun.generated.js');
    expect(found[0]?.message).toContain(
      "tsc (packages/server/tsconfig.json, no allowJs) builds this file to packages/server/dist/tools.js, where './ctrlrun.generated.js' names packages/server/dist/ctrlrun.generated.js",
    );
    expect(check(dir, 'ctrlrun.generated.js', 'packages/server/src/tools.ts', '../../../ctrlrun.generated.js'), 'reached alike').toEqual([]);
  });

  it('valid: the module beside src/ and dist/', () => {
    const dir = pkg({ rootDir: 'src', outDir: 'dist' });
    expect(check(dir, 'ctrlrun.generated.js', 'src/agents/desk.ts', '../../ctrlrun.generated.js')).toEqual([]);
  });

  it('valid: allowJs copies the module', () => {
    const dir = pkg({ rootDir: 'src', outDir: 'dist', allowJs: true });
    expect(check(dir, 'src/ctrlrun.generated.js', 'src/agents/desk.ts', '../ctrlrun.generated.js')).toEqual([]);
  });

  it('valid: a TypeScript module is compiled with its importers', () => {
    const dir = pkg({ rootDir: 'src', outDir: 'dist' });
    writeFiles(dir, { 'src/ctrlrun.generated.ts': 'export {};\n' });
    const p = testProject();
    const project = { ...p, manifest: { ...p.manifest, root: dir, output: path.join(dir, 'src/ctrlrun.generated.ts') } };
    const scan = scanSource('src/tools.ts', "import { protectedTool } from './ctrlrun.generated.js';\n", {
      root: dir,
      generatedModule: path.join(dir, 'src/ctrlrun.generated.ts'),
    });
    expect(generatedImportUnresolvedRule()(scan, project)).toEqual([]);
  });
});

/** A package whose tsconfig has allowJs on, with its own include (Session 13, loop bug 1). */
function withAllowJs(compilerOptions: Record<string, unknown>, include: string[] | undefined): string {
  const dir = makeTempDir('tsc-build-');
  dirs.push(dir);
  writeFiles(dir, {
    'package.json': JSON.stringify({ name: 'app', type: 'module' }),
    'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', allowJs: true, ...compilerOptions }, ...(include ? { include } : {}) }),
    'src/tools.ts': 'export const a = 1;\n',
  });
  return dir;
}

describe('allowJs copies the module only when tsc takes it and writes no declarations', () => {
  const tools = (dir: string) => [path.join(dir, 'src/tools.ts')];

  it('include "src", no declarations: the module stays in src/ (tsc copies it)', () => {
    const dir = withAllowJs({ rootDir: 'src', outDir: 'dist' }, ['src']);
    expect(tscBuild(dir, tools(dir), 'src/')).toBeUndefined();
  });

  it('an include of TypeScript only ("src/**/*.ts"): the module goes beside src/ and dist/', () => {
    const dir = withAllowJs({ rootDir: 'src', outDir: 'dist' }, ['src/**/*.ts']);
    expect(tscBuild(dir, tools(dir), 'src/')).toMatchObject({ kind: 'beside', folder: '' });
  });

  it('rootDir . and an include of TypeScript only: unreachable, because of the include', () => {
    const dir = withAllowJs({ rootDir: '.', outDir: 'dist' }, ['**/*.ts']);
    expect(tscBuild(dir, tools(dir), 'src/')).toMatchObject({ kind: 'unreachable', blocker: 'include', module: path.join(dir, 'src/ctrlrun.generated.js') });
  });

  it('rootDir . with declarations on: unreachable, because of the declarations', () => {
    const dir = withAllowJs({ rootDir: '.', outDir: 'dist', declaration: true }, ['src']);
    expect(tscBuild(dir, tools(dir), 'src/')).toMatchObject({ kind: 'unreachable', blocker: 'declaration' });
  });

  it('the exclude counts: an excluded module is not taken', () => {
    const dir = withAllowJs({ rootDir: '.', outDir: 'dist' }, ['src']);
    writeFiles(dir, {
      'tsconfig.json': JSON.stringify({
        compilerOptions: { module: 'NodeNext', allowJs: true, rootDir: '.', outDir: 'dist' },
        include: ['src'],
        exclude: ['src/ctrlrun.*'],
      }),
    });
    expect(tscBuild(dir, tools(dir), 'src/')).toMatchObject({ kind: 'unreachable', blocker: 'include' });
  });

  it('a folder whose module tsc would take as an input (outside rootDir, with declarations) is not chosen', () => {
    const dir = withAllowJs({ rootDir: 'src', outDir: 'dist', declaration: true }, undefined);
    expect(tscBuild(dir, tools(dir), 'src/')).toMatchObject({ kind: 'unreachable', blocker: 'declaration' });
  });

  it('generated-import-unresolved: allowJs with an include of TypeScript only is reported', () => {
    const dir = withAllowJs({ rootDir: 'src', outDir: 'dist' }, ['src/**/*.ts']);
    const found = check(dir, 'src/ctrlrun.generated.js', 'src/tools.ts', './ctrlrun.generated.js');
    expect(found.map((f) => f.message)).toEqual([
      "tsc (tsconfig.json, allowJs, but its include does not take the module) builds this file to dist/tools.js, where './ctrlrun.generated.js' names dist/ctrlrun.generated.js: tsc does not copy the JavaScript generated module there, so the built app fails to start (ERR_MODULE_NOT_FOUND).",
    ]);
  });

  it('generated-import-unresolved: allowJs with declarations on is reported; off, it is not', () => {
    const on = withAllowJs({ rootDir: 'src', outDir: 'dist', declaration: true }, ['src']);
    expect(check(on, 'src/ctrlrun.generated.js', 'src/tools.ts', './ctrlrun.generated.js')[0]?.message).toContain(
      '(tsconfig.json, allowJs, but declarations on)',
    );
    const off = withAllowJs({ rootDir: 'src', outDir: 'dist' }, ['src']);
    expect(check(off, 'src/ctrlrun.generated.js', 'src/tools.ts', './ctrlrun.generated.js')).toEqual([]);
  });
});
