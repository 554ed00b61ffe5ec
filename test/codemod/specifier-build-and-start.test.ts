import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generatedImportUnresolvedRule } from '../../src/check/rules/generated-import-unresolved.js';
import { scanSource } from '../../src/scan/index.js';
import { createModuleSettingsLookup } from '../../src/scan/specifier.js';
import { testProject } from '../check/rule-tester.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

// Session 13, loop bugs 2 and 3: the extension of the imports we write follows the build's own
// tsconfig too (`tsc -p tsconfig.build.json`), and a package whose start script has Node run its
// TypeScript as it is gets only the `.ts` name, or a refusal when its tsconfig rules that out.

const dirs: string[] = [];
function repo(files: Record<string, string>): string {
  const root = makeTempDir('ctrlrun-spec-');
  dirs.push(root);
  writeFiles(root, files);
  return root;
}
afterEach(() => dirs.splice(0).forEach(removeDir));

const config = (compilerOptions: Record<string, unknown>, extra: Record<string, unknown> = {}) => JSON.stringify({ compilerOptions, ...extra });
const pkg = (scripts: Record<string, string>) => JSON.stringify({ name: 'app', type: 'module', scripts });
const TS_OK = { moduleResolution: 'bundler', module: 'ESNext', allowImportingTsExtensions: true, noEmit: true };

describe('the build config decides with tsconfig.json', () => {
  it('tsconfig.json allows .ts, the build config does not: .js, which both accept', () => {
    const root = repo({
      'package.json': pkg({ build: 'tsc -p tsconfig.build.json' }),
      'tsconfig.json': config(TS_OK),
      'tsconfig.build.json': config({ allowImportingTsExtensions: false, noEmit: false, outDir: 'dist' }, { extends: './tsconfig.json' }),
    });
    expect(createModuleSettingsLookup(root)(path.join(root, 'src'))).toEqual({ tsconfig: path.join(root, 'tsconfig.build.json'), extension: 'js' });
  });

  it('a NodeNext type check and a bundler build: .js', () => {
    const root = repo({
      'package.json': pkg({ build: 'tsc --project tsconfig.build.json' }),
      'tsconfig.json': config({ module: 'NodeNext', noEmit: true }),
      'tsconfig.build.json': config({ module: 'ESNext', moduleResolution: 'bundler', outDir: 'dist' }),
    });
    expect(createModuleSettingsLookup(root)(root).extension).toBe('js');
  });

  it('the same answer from both: tsconfig.json as before', () => {
    const root = repo({
      'package.json': pkg({ build: 'tsc -p tsconfig.build.json' }),
      'tsconfig.json': config({ moduleResolution: 'bundler', module: 'ESNext', noEmit: true }),
      'tsconfig.build.json': config({ outDir: 'dist' }, { extends: './tsconfig.json' }),
    });
    expect(createModuleSettingsLookup(root)(root)).toEqual({ tsconfig: path.join(root, 'tsconfig.json'), extension: 'none' });
  });

  it('no -p in the build script: tsconfig.json alone', () => {
    const root = repo({ 'package.json': pkg({ build: 'tsc' }), 'tsconfig.json': config(TS_OK) });
    expect(createModuleSettingsLookup(root)(root).extension).toBe('ts');
  });
});

describe('a package whose start script has Node run TypeScript', () => {
  it('bundler without allowImportingTsExtensions: nodeRunsTs is set (whoever writes the import refuses)', () => {
    const root = repo({
      'package.json': pkg({ start: 'node --env-file=.env src/main.ts' }),
      'tsconfig.json': config({ moduleResolution: 'bundler', module: 'ESNext' }),
    });
    expect(createModuleSettingsLookup(root)(path.join(root, 'src'))).toMatchObject({
      extension: 'none',
      nodeRunsTs: { packageJson: path.join(root, 'package.json'), script: 'start', command: 'node --env-file=.env src/main.ts' },
    });
  });

  it('with allowImportingTsExtensions: .ts, nothing to refuse', () => {
    const root = repo({ 'package.json': pkg({ start: 'node src/main.ts' }), 'tsconfig.json': config(TS_OK) });
    expect(createModuleSettingsLookup(root)(root)).toEqual({ tsconfig: path.join(root, 'tsconfig.json'), extension: 'ts' });
  });

  it('no tsconfig: .ts, since no tsc refuses it', () => {
    const root = repo({ 'package.json': pkg({ start: 'node src/main.mts' }), 'src/main.mts': 'export {};\n' });
    expect(createModuleSettingsLookup(root)(path.join(root, 'src'))).toEqual({ extension: 'ts' });
  });

  it('a start script that runs built JavaScript, or tsx: untouched', () => {
    for (const start of ['node dist/main.js', 'tsx src/main.ts', 'node --import tsx dist/x.js']) {
      const root = repo({ 'package.json': pkg({ start }), 'tsconfig.json': config({ moduleResolution: 'bundler', module: 'ESNext' }) });
      expect(createModuleSettingsLookup(root)(root), start).toEqual({ tsconfig: path.join(root, 'tsconfig.json'), extension: 'none' });
    }
  });
});

describe('the scripts that run the package: start, dev, serve, watch, preview, test and their variants (session 14)', () => {
  const BUNDLER = config({ moduleResolution: 'bundler', module: 'ESNext' });
  const runs = (scripts: Record<string, string>) =>
    createModuleSettingsLookup(repo({ 'package.json': pkg(scripts), 'tsconfig.json': BUNDLER }))(dirs.at(-1)!).nodeRunsTs;

  it.each([
    [{ start: 'node dist/main.js', dev: 'node --watch --env-file=.env src/main.ts' }, 'dev', 'node --watch --env-file=.env src/main.ts'],
    [{ serve: 'node src/server.mts' }, 'serve', 'node src/server.mts'],
    [{ 'dev:api': 'pnpm -C api build && node api/main.ts' }, 'dev:api', 'pnpm -C api build && node api/main.ts'],
    [{ 'test:unit': 'node --test src/refund.test.ts' }, 'test:unit', 'node --test src/refund.test.ts'],
    // several: the one that starts the app is named, whatever the order in package.json
    [{ test: 'node --test src/a.test.ts', dev: 'node src/dev.ts', start: 'node src/main.ts' }, 'start', 'node src/main.ts'],
  ])('%o: its %s script is named, as written', (scripts, script, command) => {
    expect(runs(scripts)).toEqual({ packageJson: path.join(dirs.at(-1)!, 'package.json'), script, command });
  });

  it('a build or a tool script Node runs as TypeScript does not run the app: not counted', () => {
    expect(runs({ build: 'node scripts/build.ts', 'gen:types': 'node scripts/gen.ts', prestart: 'node scripts/env.ts', start: 'vite' })).toBeUndefined();
  });

  it('no scripts, or scripts that are no object: nothing', () => {
    expect(runs({})).toBeUndefined();
    const root = repo({ 'package.json': JSON.stringify({ name: 'app', scripts: ['node src/main.ts'] }), 'tsconfig.json': BUNDLER });
    expect(createModuleSettingsLookup(root)(root).nodeRunsTs).toBeUndefined();
  });
});

describe('generated-import-unresolved in a package Node runs as TypeScript', () => {
  const check = (start: string | Record<string, string>, spec: string) => {
    const root = repo({
      'package.json': pkg(typeof start === 'string' ? { start } : start),
      'tsconfig.json': config(TS_OK),
      'src/ctrlrun.generated.ts': 'export {};\n',
    });
    const p = testProject();
    const output = path.join(root, 'src/ctrlrun.generated.ts');
    const project = { ...p, manifest: { ...p.manifest, root, output } };
    const scan = scanSource('src/main.ts', `import { protectedTool } from '${spec}';\n`, { root, generatedModule: output });
    return generatedImportUnresolvedRule()(scan, project);
  };

  it('invalid: no extension, or .js: Node loads neither', () => {
    for (const spec of ['./ctrlrun.generated', './ctrlrun.generated.js']) {
      const found = check('node src/main.ts', spec);
      expect(
        found.map((f) => f.ruleId),
        spec,
      ).toEqual(['generated-import-unresolved']);
      expect(found[0]!.message).toContain(
        'and the package runs `node src/main.ts` (its `start` script): Node runs this TypeScript as it is and loads an import only by the file',
      );
    }
  });

  it('a dev script that runs the TypeScript: the finding names it', () => {
    const found = check({ start: 'node dist/main.js', dev: 'node --watch src/main.ts' }, './ctrlrun.generated');
    expect(found.map((f) => f.message)).toEqual([expect.stringContaining('and the package runs `node --watch src/main.ts` (its `dev` script): Node runs')]);
  });

  it('valid: the .ts name; and the extensionless import when Node does not run the TypeScript', () => {
    expect(check('node src/main.ts', './ctrlrun.generated.ts')).toEqual([]);
    expect(check('node dist/main.js', './ctrlrun.generated')).toEqual([]);
  });
});
