import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_TOOLS } from '../../src/cli/launch.js';
import { REPO_ROOT } from '../helpers/paths.js';

/**
 * Issue 11.6: `ctrlrun-gen` depends on what the runtime imports and nothing else; the command
 * line's tools come with the companion package `ctrlrun-gen-cli` (packages/cli), a dev dependency.
 * The declared dependencies are checked against the imports of the built code, and the bin is run
 * from packed tarballs: without the companion it says what to install (exit 2), with the companion
 * nested (not hoisted, as pnpm lays it out) it runs.
 */
interface Manifest {
  version: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}
const root = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
const companion = JSON.parse(readFileSync(path.join(REPO_ROOT, 'packages/cli/package.json'), 'utf8')) as Manifest;

/** Package names a built file imports (static, dynamic, re-exports), Node built-ins left out. */
function importedPackages(dir: string, skip: (rel: string) => boolean): Set<string> {
  const found = new Set<string>();
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      const rel = path.relative(path.join(REPO_ROOT, 'dist'), full);
      if (skip(rel)) continue;
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.js')) {
        // the compiler's own import scan: import/export … from, import(), require(); never comments or strings
        for (const { fileName: spec } of ts.preProcessFile(readFileSync(full, 'utf8'), true, true).importedFiles) {
          if (spec.startsWith('.') || spec.startsWith('node:') || builtinModules.includes(spec)) continue;
          found.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
        }
      }
    }
  };
  walk(dir);
  return found;
}

/** The top folders under node_modules that hold these packages (a scope's folder for a scoped name). */
const packageDirs = (names: string[]) => new Set(names.map((n) => (n.startsWith('@') ? n.split('/')[0]! : n)));

const isRuntime = (rel: string) => /^(runtime|testing|cjs)(\/|$)/.test(rel);
const peers = new Set(Object.keys(root.peerDependencies ?? {}));

describe('one package for the runtime, a companion for the command line', () => {
  it("ctrlrun-gen's dependencies are exactly the runtime's imports (no compiler, CLI framework or native module); the stores' drivers are optional peers", () => {
    const runtime = importedPackages(path.join(REPO_ROOT, 'dist'), (rel) => !/^(runtime|testing)(\/|$)/.test(rel));
    const external = [...runtime].filter((p) => !peers.has(p)).sort();
    expect(external).toEqual(Object.keys(root.dependencies ?? {}).sort());
    expect([...runtime].filter((p) => peers.has(p)).sort()).toEqual(['@openai/agents', 'better-sqlite3', 'pg', 'undici']);
    const meta = (root as { peerDependenciesMeta?: Record<string, { optional?: boolean }> }).peerDependenciesMeta ?? {};
    expect(meta['better-sqlite3']?.optional).toBe(true);
    expect(meta.pg?.optional).toBe(true);
    expect(meta.undici?.optional).toBe(true);
    // OpenTelemetry's API: an optional peer the runtime never imports by name (handed over, or imported on demand)
    expect(meta['@opentelemetry/api']?.optional).toBe(true);
  });

  it("ctrlrun-gen-cli depends on every package the CLI imports beyond the runtime's, at the versions this repo tests with", () => {
    const cli = importedPackages(path.join(REPO_ROOT, 'dist'), (rel) => isRuntime(rel));
    const needed = [...cli].filter((p) => p !== 'ctrlrun-gen' && !peers.has(p) && !(p in (root.dependencies ?? {})));
    // ts-morph (its bundled compiler) and v8-compile-cache are loaded with createRequire, not imported;
    // no SQLite driver (issue 22.3): the store opens node:sqlite, or the app's own better-sqlite3
    const declared = Object.keys(companion.dependencies ?? {}).filter((p) => p !== 'ctrlrun-gen');
    expect(declared.sort()).toEqual([...new Set([...needed.filter((p) => p !== 'better-sqlite3'), 'ts-morph', 'v8-compile-cache'])].sort());
    for (const name of declared) expect(`${name}@${companion.dependencies![name]}`).toBe(`${name}@${root.devDependencies![name]}`);
    expect(companion.dependencies!['ctrlrun-gen']).toBe(root.version);
    expect(companion.version).toBe(root.version);
    // the launcher's probe list names only packages the companion brings
    for (const tool of CLI_TOOLS) expect(declared).toContain(tool);
  });

  it('installing ctrlrun-gen-cli runs no install script: none in the locked tree of its dependencies (nor of the runtime)', () => {
    type Locked = { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string>; hasInstallScript?: boolean };
    const lock = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, Locked> };
    // npm's own layout: a dependency resolves from the nearest node_modules up from its dependent
    const resolve = (from: string, name: string): string | undefined => {
      for (let dir = from; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/node_modules/')))) {
        const key = `${dir ? `${dir}/` : ''}node_modules/${name}`;
        if (lock.packages[key]) return key;
        if (!dir) return undefined;
      }
    };
    const seen = new Set<string>();
    const scripted: string[] = [];
    const visit = (key: string) => {
      if (seen.has(key)) return;
      seen.add(key);
      const entry = lock.packages[key]!;
      if (entry.hasInstallScript) scripted.push(key);
      for (const dep of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
        const found = resolve(key, dep);
        if (found) visit(found);
      }
    };
    for (const name of [...Object.keys(companion.dependencies!).filter((d) => d !== 'ctrlrun-gen'), ...Object.keys(root.dependencies ?? {})])
      visit(resolve('', name)!);
    expect(seen.size).toBeGreaterThan(50);
    expect(scripted).toEqual([]);
  });

  describe('the bin, from packed tarballs', { timeout: 300_000 }, () => {
    let work: string;
    let app: string;
    let runtimeTgz: string;
    let cliTgz: string;
    const bin = (dir = app) => path.join(dir, 'node_modules/ctrlrun-gen/dist/bin/ctrlrun-gen.js');
    const runBin = (args: string[], env: Record<string, string> = {}, dir = app) =>
      spawnSync(process.execPath, [bin(dir), ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env } });

    /** An app with ctrlrun-gen installed for production (no companion) and one SDK tool. */
    const makeApp = (dir: string) => {
      const modules = path.join(dir, 'node_modules');
      mkdirSync(path.join(modules, 'ctrlrun-gen'), { recursive: true });
      expect(spawnSync('tar', ['-xzf', runtimeTgz, '-C', path.join(modules, 'ctrlrun-gen'), '--strip-components=1']).status).toBe(0);
      // an app's production install: the runtime's dependency and the app's own packages
      for (const dep of packageDirs([...Object.keys(root.dependencies ?? {}), '@openai/agents', 'zod']))
        symlinkSync(path.join(REPO_ROOT, 'node_modules', dep), path.join(modules, dep), 'dir');
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
      writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', strict: true } }));
      mkdirSync(path.join(dir, 'src'));
      writeFileSync(
        path.join(dir, 'src/tools.ts'),
        `import { tool } from '@openai/agents';\nimport { z } from 'zod';\nexport const refund = tool({ name: 'refund', description: 'Refund', parameters: z.object({ amount: z.number() }), execute: async () => 'ok' });\n`,
      );
    };

    beforeAll(() => {
      work = mkdtempSync(path.join(tmpdir(), 'ctrlrun-split-'));
      const pack = (dir: string) => {
        const r = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: dir, encoding: 'utf8' });
        expect(r.status, r.stderr).toBe(0);
        return path.join(work, (JSON.parse(r.stdout) as Array<{ filename: string }>)[0]!.filename);
      };
      runtimeTgz = pack(REPO_ROOT);
      cliTgz = pack(path.join(REPO_ROOT, 'packages/cli'));
      app = path.join(work, 'app');
      makeApp(app);
      mkdirSync(path.join(work, 'cli-unpacked'), { recursive: true });
      expect(spawnSync('tar', ['-xzf', cliTgz, '-C', path.join(work, 'cli-unpacked'), '--strip-components=1']).status).toBe(0);
    });
    afterAll(() => {
      if (work) rmSync(work, { recursive: true, force: true });
    });

    it('without ctrlrun-gen-cli and told not to fetch it: exit 2 and what to install, no stack trace', () => {
      const r = runBin(['init'], { CTRLRUN_GEN_NO_FETCH: '1' });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`npm install --save-dev ctrlrun-gen-cli@${root.version}`);
      expect(r.stderr).toContain(`npx ctrlrun-gen-cli@${root.version} init`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(path.join(app, 'ctrlrun.yaml'))).toBe(false);
    });

    it('without ctrlrun-gen-cli, when npm cannot fetch it (offline, no such version): exit 2 and the same hint', () => {
      const r = runBin(['init'], { CTRLRUN_GEN_CLI_SPEC: path.join(work, 'no-such-ctrlrun-gen-cli.tgz'), npm_config_offline: 'true' });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('through npm exec');
      expect(r.stderr).toContain('npm could not run');
      expect(r.stderr).toContain(`npm install --save-dev ctrlrun-gen-cli@${root.version}`);
      expect(existsSync(path.join(app, 'ctrlrun.yaml'))).toBe(false);
    });

    it('journey 1 (npx ctrlrun-gen init in a fresh repo): npm runs the companion of its own version; arguments, output and exit code pass through', () => {
      const fresh = path.join(work, 'fresh');
      makeApp(fresh);
      // the companion and the ctrlrun-gen it depends on, as npm would fetch them (packed here: no registry)
      const env = {
        CTRLRUN_GEN_CLI_SPEC: `${cliTgz} ${runtimeTgz}`,
        npm_config_ignore_scripts: 'true',
        npm_config_prefer_offline: 'true',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
      };
      const init = runBin(['init'], env, fresh);
      expect(init.status, init.stderr).toBe(0);
      expect(init.stderr).toContain(`running ${cliTgz} ${runtimeTgz} through npm exec`);
      expect(readFileSync(path.join(fresh, 'ctrlrun.tools.yaml'), 'utf8')).toContain('refund');
      expect(existsSync(path.join(fresh, 'src/ctrlrun.control.ts'))).toBe(true);
      // exit code: the module is not generated yet, so generate --check exits 1 (stale), through npm
      const check = runBin(['generate', '--check'], env, fresh);
      expect(check.status, check.stderr).toBe(1);
      expect(check.stderr).not.toContain('npm could not run');
      const generate = runBin(['generate'], env, fresh);
      expect(generate.status, generate.stderr).toBe(0);
      expect(readFileSync(path.join(fresh, 'src/ctrlrun.generated.ts'), 'utf8')).toContain("from 'ctrlrun-gen/runtime'");
    });

    it('with ctrlrun-gen-cli nested (its tools not hoisted): the CLI runs, init then generate', () => {
      const companionDir = path.join(app, 'node_modules/ctrlrun-gen-cli');
      // the companion installed: no npm exec (it would fail here), the CLI runs in-process
      renameSync(path.join(work, 'cli-unpacked'), companionDir);
      mkdirSync(path.join(companionDir, 'node_modules'), { recursive: true });
      // only its direct dependencies: they are links into this repo's node_modules, where theirs resolve
      const linked = Object.keys(companion.dependencies!).filter((d) => d !== 'ctrlrun-gen');
      for (const name of new Set(linked.map((n) => (n.startsWith('@') ? n.split('/')[0]! : n)))) {
        symlinkSync(path.join(REPO_ROOT, 'node_modules', name), path.join(companionDir, 'node_modules', name), 'dir');
      }
      const version = runBin(['--version'], { CTRLRUN_GEN_NO_FETCH: '1' });
      expect(version.stdout.trim(), version.stderr).toBe(root.version);
      const init = runBin(['init'], { CTRLRUN_GEN_NO_FETCH: '1' });
      expect(init.status, init.stderr).toBe(0);
      expect(readFileSync(path.join(app, 'src/ctrlrun.control.ts'), 'utf8')).toContain("from 'ctrlrun-gen/runtime/sqlite'");
      const generate = runBin(['generate'], { CTRLRUN_GEN_NO_FETCH: '1' });
      expect(generate.status, generate.stderr).toBe(0);
      expect(readFileSync(path.join(app, 'src/ctrlrun.generated.ts'), 'utf8')).toContain("from 'ctrlrun-gen/runtime'");
      // check from the installed package finds the unprotected refund (the repo read on the main thread)
      const check = runBin(['check', '--debug'], { CTRLRUN_GEN_NO_FETCH: '1' });
      expect(check.stderr).toMatch(/debug: the repo was listed and read on the main thread \(\d+ files\)/);
      expect(check.stdout).toContain('unprotected-tool');
      expect(check.status).toBe(1);
      // the same without --debug: the plain check's file loaded through the code cache finds the companion's compiler
      const quiet = runBin(['check'], { CTRLRUN_GEN_NO_FETCH: '1' });
      expect(quiet.stdout).toContain('unprotected-tool');
      expect(quiet.status, quiet.stderr).toBe(1);
    });
  });
});
