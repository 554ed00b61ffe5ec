// `npm run bench -- install`: what installing costs a user, from packed tarballs into temp dirs
// (offline-capable: --prefer-offline takes every registry package from npm's cache when it is
// there). Three installs, each timed and measured (packages, MB on disk, seconds, and which heavy
// or native packages came along):
//   baseline  an app with the SDK only (@openai/agents + zod): what the app costs without us
//   runtime   the same app with ctrlrun-gen, production mode (npm install --omit=dev)
//   cli       ctrlrun-gen + ctrlrun-gen-cli (the command line's tools, a dev dependency)
// Ratios are against the baseline of the same run. Install scripts are skipped in all three
// (--ignore-scripts), so the figures leave out compiling better-sqlite3 where no prebuilt binary
// can be fetched: the `native` column says which native modules an install would build.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HEAVY = ['typescript', 'ts-morph', 'yargs', 'yaml', 'hono', 'better-sqlite3', 'pg', 'esbuild'];

function pack(dir, dest) {
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dest], { cwd: dir, encoding: 'utf8' });
  return path.join(dest, JSON.parse(out)[0].filename);
}

/** Every installed package under node_modules (nested too), with the bytes of its own files. */
function measure(modules) {
  const packages = new Set();
  let bytes = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (path.basename(dir) === 'node_modules' || path.basename(path.dirname(dir)) === 'node_modules') {
          if (existsSync(path.join(full, 'package.json')) && entry.name !== '.bin') {
            const { name } = JSON.parse(readFileSync(path.join(full, 'package.json'), 'utf8'));
            if (name) packages.add(`${name}@${full}`);
          }
        }
        walk(full);
      } else if (entry.isFile()) bytes += lstatSync(full).size;
    }
  };
  if (existsSync(modules)) walk(modules);
  const names = new Set([...packages].map((p) => p.slice(0, p.indexOf('@', 1))));
  return { packages: packages.size, mb: bytes / 1e6, names };
}

function install(label, dependencies, devDependencies, args) {
  const dir = mkdtempSync(path.join(tmpdir(), `ctrlrun-install-${label}-`));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `bench-${label}`, private: true, type: 'module', dependencies, devDependencies }, null, 2));
  const started = performance.now();
  execFileSync('npm', ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', ...args], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  const seconds = (performance.now() - started) / 1000;
  const m = measure(path.join(dir, 'node_modules'));
  rmSync(dir, { recursive: true, force: true });
  return { label, seconds, ...m };
}

export async function run() {
  const packDir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-pack-'));
  try {
    const runtimeTgz = pack(ROOT, packDir);
    const cliTgz = pack(path.join(ROOT, 'packages/cli'), packDir);
    const sdk = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@openai/agents/package.json'), 'utf8')).version;
    const zod = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/zod/package.json'), 'utf8')).version;
    const app = { '@openai/agents': sdk, zod };
    const rows = [
      install('baseline', app, {}, ['--omit=dev']),
      install('runtime', { ...app, 'ctrlrun-gen': `file:${runtimeTgz}` }, {}, ['--omit=dev']),
      install('cli', { ...app, 'ctrlrun-gen': `file:${runtimeTgz}` }, { 'ctrlrun-gen-cli': `file:${cliTgz}` }, []),
    ];
    const base = rows[0];
    console.log('install    packages        MB   seconds   ×MB(baseline)  heavy or native packages present');
    for (const r of rows) {
      const heavy = HEAVY.filter((h) => r.names.has(h));
      console.log(
        `${r.label.padEnd(9)} ${String(r.packages).padStart(9)} ${r.mb.toFixed(1).padStart(9)} ${r.seconds.toFixed(1).padStart(9)} ${(r.mb / base.mb).toFixed(2).padStart(14)}  ${heavy.join(', ') || '-'}`,
      );
    }
    const runtime = rows[1];
    console.log(
      `runtime-only over the SDK alone: +${runtime.packages - base.packages} packages, +${(runtime.mb - base.mb).toFixed(2)} MB; ` +
        `the CLI's tools add ${rows[2].packages - runtime.packages} packages and ${(rows[2].mb - runtime.mb).toFixed(1)} MB (dev only)`,
    );
  } finally {
    rmSync(packDir, { recursive: true, force: true });
  }
}
