import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN, REPO_ROOT } from '../helpers/paths.js';

/**
 * Issue 10 item 10: the bin is esbuild's bundle of the CLI (scripts/bundle-cli.mjs). What it must
 * keep outside: the runtime (one copy of each runtime class, the one a user's generated module
 * imports) and the TypeScript compiler (required lazily, only once the prefilter finds a file).
 */
const BIN_DIR = path.join(REPO_ROOT, 'dist/bin');
const bundleFiles = readdirSync(BIN_DIR).filter((f) => f.endsWith('.js'));
const bundleText = (f: string) => readFileSync(path.join(BIN_DIR, f), 'utf8');

describe('the CLI bundle (dist/bin)', () => {
  it("is what package.json's bin names", () => {
    const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string>; files: string[] };
    expect(path.join(REPO_ROOT, manifest.bin['ctrlrun-gen']!)).toBe(CLI_BIN);
    expect(bundleText('ctrlrun-gen.js').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('defines no runtime class: it imports tsc’s dist/runtime files, which users import too', () => {
    for (const f of bundleFiles) {
      expect(bundleText(f), f).not.toMatch(/class (StoreError|CtrlrunError)\b/);
    }
    const runtimeImports = bundleFiles.flatMap((f) => [...bundleText(f).matchAll(/from "(\.\.\/runtime\/[^"]+)"/g)].map((m) => m[1]!));
    expect(runtimeImports).toContain('../runtime/stores/errors.js');
    for (const spec of runtimeImports) expect(() => readFileSync(path.join(BIN_DIR, spec))).not.toThrow();
  });

  it('does not inline the TypeScript compiler', () => {
    for (const f of bundleFiles) expect(bundleText(f), f).not.toContain('function createSourceFile(fileName, sourceText');
  });

  it('finds package.json, templates and the demo sample from where it sits (not at a fixed ../..)', () => {
    const work = mkdtempSync(path.join(tmpdir(), 'ctrlrun-bundle-'));
    try {
      const version = spawnSync(process.execPath, [CLI_BIN, '--version'], { encoding: 'utf8' });
      expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).version);
      // generate reads templates/generated-module.ts.tmpl
      writeFileSync(path.join(work, 'ctrlrun.yaml'), 'schema: ctrlrun.policy/v6\nactions:\n  records.read:\n    decision: allow\n');
      writeFileSync(
        path.join(work, 'ctrlrun.tools.yaml'),
        'schema: ctrlrun.tools/v1\npolicy: ctrlrun.yaml\noutput: ctrlrun.generated.ts\ncontrol: ctrlrun.control.ts\ntools:\n  - tool: lookup\n    action: records.read\n',
      );
      writeFileSync(path.join(work, 'ctrlrun.control.ts'), 'export default {};\n');
      writeFileSync(
        path.join(work, 'agent.ts'),
        "import { tool } from '@openai/agents';\nimport { z } from 'zod';\nexport const lookup = tool({ name: 'lookup', description: 'd', parameters: z.object({ id: z.string() }), execute: async () => 'x' });\n",
      );
      const r = spawnSync(process.execPath, [CLI_BIN, 'generate'], { cwd: work, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      expect(r.status, r.stderr).toBe(0);
      expect(readFileSync(path.join(work, 'ctrlrun.generated.ts'), 'utf8')).toContain('records.read');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('--debug stack traces name the modules and functions they come from, not the bundle’s chunks', () => {
    const work = mkdtempSync(path.join(tmpdir(), 'ctrlrun-bundle-debug-'));
    try {
      const r = spawnSync(process.execPath, [CLI_BIN, 'generate', '--debug', '--policy', 'missing.yaml'], {
        cwd: work,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      });
      expect(r.status).toBe(2);
      const frames = r.stderr.split('\n').filter((l) => l.trimStart().startsWith('at '));
      expect(frames.length).toBeGreaterThan(0);
      expect(frames.join('\n')).not.toContain('dist/bin/chunk-');
      expect(frames.join('\n')).toMatch(/at Object\.run \(.*[\\/]cli[\\/]commands[\\/]generate\.[jt]s:\d+:\d+\)/);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('speaks yargs’ languages as before (its locales travel with the bundle)', () => {
    const env = { ...process.env, LC_ALL: 'de_DE.UTF-8', LANG: 'de_DE.UTF-8', NO_COLOR: '1' };
    const r = spawnSync(process.execPath, [CLI_BIN, 'check', '--bogus'], { encoding: 'utf8', env });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('Unbekanntes Argument: bogus');
  });
});

const work = mkdtempSync(path.join(tmpdir(), 'ctrlrun-code-cache-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the compiler’s code cache (src/scan/code-cache.ts)', () => {
  const codeCache = path.join(REPO_ROOT, 'dist/scan/code-cache.js');
  const script = (dir: string, large = false) =>
    `import { createRequire } from 'node:module';
     import { requireWithCodeCache } from ${JSON.stringify(codeCache)};
     const req = createRequire(${JSON.stringify(path.join(REPO_ROOT, 'package.json'))});
     const common = createRequire(req.resolve('ts-morph')).resolve('@ts-morph/common');
     const file = createRequire(common).resolve('./typescript.js');
     const ts = requireWithCodeCache(file, ${JSON.stringify(dir)});
     const sf = ts.createSourceFile('a.ts', 'const a: number = 1;', ts.ScriptTarget.Latest);
     // a larger run: the emitter's functions, which the parse alone never compiles
     if (${large}) ts.transpileModule('export class A { m(x: number): number { return x * 2; } }', { compilerOptions: { target: ts.ScriptTarget.ES2015 } });
     // ts-morph, loaded after, requires this very compiler instance
     createRequire(common)('@ts-morph/common');
     const same = createRequire(common)('./typescript.js') === ts;
     console.log(JSON.stringify({ variable: ts.isVariableStatement(sf.statements[0]), same }));`;
  const run = (dir: string, large = false) => spawnSync(process.execPath, ['--input-type=module', '-e', script(dir, large)], { encoding: 'utf8' });
  // the header of a cache file (src/scan/code-cache.ts): magic, bytecode size, checks left
  const checksLeft = (file: string) => readFileSync(file).readUInt32LE(8);

  it('names a cache file by a key of hex digits, a different name for each compiler copy and Node', async () => {
    const { cacheKey } = (await import(pathToFileURL(codeCache).href)) as { cacheKey: (key: string) => string };
    const keys = new Set<string>();
    for (const version of ['v20.20.0', 'v20.20.1', 'v22.1.0']) {
      for (let size = 9_000_000; size < 9_000_200; size++) {
        const key = cacheKey(`${version}\0x64\0/app/node_modules/@ts-morph/common/dist/typescript.js\0${size}\0${1_700_000_000_000 + size}`);
        expect(key).toMatch(/^[0-9a-f]{17,}$/);
        keys.add(key);
      }
    }
    expect(keys.size).toBe(600);
    expect(cacheKey('a')).toBe(cacheKey('a'));
  });

  it('is the CLI’s on every Node, also where Node has a compile cache of its own', () => {
    // Node's built-in cache (22.1+) holds the compiler's top level only; the CLI keeps its own,
    // written after the run with every function the run compiled (issue 40, item 8)
    const tmp = path.join(work, 'tmp');
    const repo = path.join(work, 'repo');
    mkdirSync(tmp, { recursive: true });
    mkdirSync(repo, { recursive: true });
    writeFileSync(
      path.join(repo, 'agent.ts'),
      "import { tool } from '@openai/agents';\nexport const t = tool({ name: 'x', description: 'd', execute: async () => 'x' });\n",
    );
    const r = spawnSync(process.execPath, [CLI_BIN, 'check', '--cwd', repo, '--format', 'json'], {
      encoding: 'utf8',
      env: { ...process.env, TMPDIR: tmp, TMP: tmp, TEMP: tmp, NO_COLOR: '1' },
    });
    // exit 2: no manifest (policy-invalid); the file was parsed all the same, so the compiler loaded
    expect(JSON.parse(r.stdout).summary.filesParsed, r.stderr).toBe(1);
    const user = typeof process.getuid === 'function' ? String(process.getuid()) : userInfo().username;
    const blobs = readdirSync(path.join(tmp, `ctrlrun-gen-code-cache-${user}`));
    const sizes = blobs.map((b) => readFileSync(path.join(tmp, `ctrlrun-gen-code-cache-${user}`, b)).length);
    // the compiler's cache is the one of megabytes
    expect(Math.max(...sizes)).toBeGreaterThan(1_000_000);
  });

  it('is written at exit, read on the next run, and a damaged cache is replaced, never fatal', () => {
    const dir = path.join(work, 'cache');
    const first = run(dir);
    expect(first.status, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ variable: true, same: true });
    const [blob] = readdirSync(dir);
    expect(blob).toMatch(/\.bin$/);
    const size = readFileSync(path.join(dir, blob!)).length;
    expect(size).toBeGreaterThan(100_000);

    const second = run(dir);
    expect(JSON.parse(second.stdout)).toEqual({ variable: true, same: true });

    writeFileSync(path.join(dir, blob!), 'not a code cache');
    const third = run(dir);
    expect(third.status, third.stderr).toBe(0);
    expect(JSON.parse(third.stdout)).toEqual({ variable: true, same: true });
    expect(readFileSync(path.join(dir, blob!)).length).toBeGreaterThan(100_000);

    // a header of ours before data V8 rejects (a cache of another compiler copy): written anew too
    const header = readFileSync(path.join(dir, blob!)).subarray(0, 12);
    header.writeUInt32LE(0xffffffff, 4);
    writeFileSync(path.join(dir, blob!), Buffer.concat([header, Buffer.alloc(1000, 7)]));
    expect(run(dir).status).toBe(0);
    expect(readFileSync(path.join(dir, blob!)).length).toBeGreaterThan(100_000);
  });

  it('bounds its folder: writing a cache removes the oldest past the bound', async () => {
    const { MAX_CACHE_FILES } = (await import(pathToFileURL(codeCache).href)) as { MAX_CACHE_FILES: number };
    const dir = path.join(work, 'bounded');
    mkdirSync(dir, { recursive: true });
    // caches of earlier installs, a day old and older: none is this run's key
    const old = Array.from({ length: MAX_CACHE_FILES + 5 }, (_, i) => `${String(i).padStart(17, '0')}.bin`);
    for (const [i, name] of old.entries()) {
      writeFileSync(path.join(dir, name), 'stale');
      const t = Date.now() / 1000 - 86_400 * (i + 1);
      utimesSync(path.join(dir, name), t, t);
    }
    const r = run(dir);
    expect(r.status, r.stderr).toBe(0);
    const left = readdirSync(dir);
    expect(left).toHaveLength(MAX_CACHE_FILES);
    // the new cache and the most recent old ones stay; the oldest went
    expect(left.filter((f) => !old.includes(f))).toHaveLength(1);
    expect(left).toContain(old[0]);
    expect(left).not.toContain(old.at(-1));
  });

  it('grows: a larger run after a small one writes a larger cache (issue 40, item 8)', () => {
    const dir = path.join(work, 'grows');
    expect(run(dir).status).toBe(0);
    const [blob] = readdirSync(dir);
    const small = readFileSync(path.join(dir, blob!)).length;
    const larger = run(dir, true);
    expect(larger.status, larger.stderr).toBe(0);
    expect(readFileSync(path.join(dir, blob!)).length).toBeGreaterThan(small);
  });

  it('counts its checks down on runs that compile nothing new, then leaves the file alone', async () => {
    const { GROWTH_CHECKS } = (await import(pathToFileURL(codeCache).href)) as { GROWTH_CHECKS: number };
    const dir = path.join(work, 'settles');
    expect(run(dir, true).status).toBe(0);
    const [blob] = readdirSync(dir);
    const file = path.join(dir, blob!);
    const written = readFileSync(file).subarray(12);
    expect(checksLeft(file)).toBe(GROWTH_CHECKS);
    for (let left = GROWTH_CHECKS - 1; left >= 0; left--) {
      expect(run(dir, true).status).toBe(0);
      expect(checksLeft(file)).toBe(left);
    }
    // the counting runs kept V8's data as it was written: they made none
    expect(readFileSync(file).subarray(12).equals(written)).toBe(true);
    const before = statSync(file);
    const last = run(dir, true);
    expect(JSON.parse(last.stdout)).toEqual({ variable: true, same: true });
    const after = statSync(file);
    expect([after.ino, after.mtimeMs, after.size]).toEqual([before.ino, before.mtimeMs, before.size]);
  });
});
