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
    expect(tscBuild(dir, [path.join(dir, 'src/agents/desk.ts')])).toMatchObject({ kind: 'beside', folder: '', rootDir: path.join(dir, 'src') });
  });

  it('nested: app/src to app/build gives app/', () => {
    const dir = pkg({ rootDir: 'app/src', outDir: 'app/build' }, { 'app/src/x.ts': 'export {};\n' });
    expect(tscBuild(dir, [path.join(dir, 'src/tools.ts')])).toMatchObject({ kind: 'beside', folder: 'app/' });
  });

  it('the tsconfig the build script names', () => {
    const dir = pkg({ rootDir: 'src', outDir: 'out' }, { 'tsconfig.json': JSON.stringify({ compilerOptions: { noEmit: true } }) }, 'tsconfig.build.json');
    expect(tscBuild(dir, [path.join(dir, 'src/tools.ts')])).toMatchObject({ kind: 'beside', outDir: path.join(dir, 'out') });
  });

  it('rootDir . to dist: no folder is reached alike', () => {
    const dir = pkg({ rootDir: '.', outDir: 'dist' });
    expect(tscBuild(dir, [path.join(dir, 'src/tools.ts')])).toMatchObject({ kind: 'unreachable' });
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

describe('generated-import-unresolved: the built import', () => {
  const check = (dir: string, output: string, importer: string, spec: string) => {
    const p = testProject();
    const project = { ...p, manifest: { ...p.manifest, root: dir, output: path.join(dir, output) } };
    writeFiles(dir, { [output]: 'export {};\n', [output.replace(/\.js$/, '.d.ts')]: 'export {};\n' });
    const code = `import { protectedTool } from '${spec}';\n`;
    return generatedImportUnresolvedRule()(scanSource(importer, code, { root: dir, generatedModule: path.join(dir, output) }), project);
  };

  it('invalid: a JavaScript module in src/ that tsc does not copy to dist/', () => {
    const dir = pkg({ rootDir: 'src', outDir: 'dist' });
    const found = check(dir, 'src/ctrlrun.generated.js', 'src/agents/desk.ts', '../ctrlrun.generated.js');
    expect(found.map((f) => [f.ruleId, f.line])).toEqual([['generated-import-unresolved', 1]]);
    expect(found[0]!.message).toContain("builds this file to dist/agents/desk.js, where '../ctrlrun.generated.js' names dist/ctrlrun.generated.js");
    expect(found[0]!.hint).toContain('allowJs');
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
