// `npm run bench -- install`: what installing costs a user, from packed tarballs into temp dirs
// (--prefer-offline takes every registry package from npm's cache when it is there). Install
// scripts run as they would for a user, so a native build shows in the seconds. Four installs:
//   baseline  an app with the SDK only (@openai/agents + zod): what the app costs without us
//   runtime   the same app with ctrlrun-gen, production mode (npm install --omit=dev)
//   sqlite    the runtime app with the driver `init` adds for the SQLite store on this Node
//   cli       ctrlrun-gen-cli alone (the lint's CI job: check, generate, codemod), dev mode
// Ratios are against the baseline of the same run. Then the two tarballs: size, unpacked size and
// file count, beside the figures of round 5 (before this round's packaging work).
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tiny } from './lib/size.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HEAVY = ['typescript', 'ts-morph', 'yargs', 'yaml', 'hono', 'better-sqlite3', 'pg', 'esbuild'];
/** `npm pack` of ctrlrun-gen 0.1.0 at the end of round 5, for comparison. */
const ROUND_5 = { 'ctrlrun-gen': { unpackedMb: 6.4, files: 813 } };

function pack(dir, dest) {
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dest], { cwd: dir, encoding: 'utf8' });
  const [info] = JSON.parse(out);
  return { file: path.join(dest, info.filename), name: info.name, mb: info.size / 1e6, unpackedMb: info.unpackedSize / 1e6, files: info.entryCount };
}

/** Every installed package under node_modules (nested too), the bytes of its files, and which ran a native build. */
function measure(modules) {
  const packages = new Set();
  const native = new Set();
  let bytes = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (path.basename(dir) === 'node_modules' || path.basename(path.dirname(dir)) === 'node_modules') {
          if (existsSync(path.join(full, 'package.json')) && entry.name !== '.bin') {
            const { name } = JSON.parse(readFileSync(path.join(full, 'package.json'), 'utf8'));
            if (name) packages.add(`${name}@${full}`);
            if (name && existsSync(path.join(full, 'build', 'Release'))) native.add(name);
          }
        }
        walk(full);
      } else if (entry.isFile()) bytes += lstatSync(full).size;
    }
  };
  if (existsSync(modules)) walk(modules);
  const names = new Set([...packages].map((p) => p.slice(0, p.indexOf('@', 1))));
  return { packages: packages.size, mb: bytes / 1e6, names, native };
}

function install(label, dependencies, devDependencies, args) {
  const dir = mkdtempSync(path.join(tmpdir(), `ctrlrun-install-${label}-`));
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: `bench-${label}`, private: true, type: 'module', dependencies, devDependencies }, null, 2),
  );
  const started = performance.now();
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...args], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const seconds = (performance.now() - started) / 1000;
  const m = measure(path.join(dir, 'node_modules'));
  rmSync(dir, { recursive: true, force: true });
  return { label, seconds, ...m };
}

/** What `init` adds to an app's dependencies for the SQLite store on this Node (src/init/store-driver.ts). */
async function sqliteDriver() {
  const { storeDriverDependencies } = await import(pathToFileURL(path.join(ROOT, 'dist/init/store-driver.js')).href);
  return storeDriverDependencies('sqlite', process.versions.node);
}

export async function run() {
  const packDir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-pack-'));
  try {
    const runtimeTgz = pack(ROOT, packDir);
    const cliTgz = pack(path.join(ROOT, 'packages/cli'), packDir);
    const sdk = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@openai/agents/package.json'), 'utf8')).version;
    const zod = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/zod/package.json'), 'utf8')).version;
    const app = { '@openai/agents': sdk, zod };
    const withRuntime = { ...app, 'ctrlrun-gen': `file:${runtimeTgz.file}` };
    const driver = await sqliteDriver();
    // tiny (a smoke run, its ratios against itself): the runtime app alone, the install of ours
    const rows = tiny
      ? [install('runtime', withRuntime, {}, ['--omit=dev'])]
      : [
          install('baseline', app, {}, ['--omit=dev']),
          install('runtime', withRuntime, {}, ['--omit=dev']),
          install('sqlite', { ...withRuntime, ...driver }, {}, ['--omit=dev']),
          install('cli', {}, { 'ctrlrun-gen': `file:${runtimeTgz.file}`, 'ctrlrun-gen-cli': `file:${cliTgz.file}` }, []),
        ];
    const base = rows[0];
    console.log(`node ${process.versions.node}; the SQLite store's driver here: ${Object.keys(driver).join(', ') || 'none (node:sqlite)'}`);
    console.log('install    packages        MB   seconds   ×MB(baseline)  native builds  heavy packages present');
    for (const r of rows) {
      const heavy = HEAVY.filter((h) => r.names.has(h));
      console.log(
        `${r.label.padEnd(9)} ${String(r.packages).padStart(9)} ${r.mb.toFixed(1).padStart(9)} ${r.seconds.toFixed(1).padStart(9)} ${(r.mb / base.mb).toFixed(2).padStart(14)}  ${([...r.native].join(', ') || '-').padEnd(13)}  ${heavy.join(', ') || '-'}`,
      );
    }
    console.log('tarball            packed MB  unpacked MB  files   round 5 (unpacked MB, files)');
    for (const t of [runtimeTgz, cliTgz]) {
      const before = ROUND_5[t.name];
      console.log(
        `${t.name.padEnd(17)} ${t.mb.toFixed(2).padStart(10)} ${t.unpackedMb.toFixed(2).padStart(12)} ${String(t.files).padStart(6)}   ${before ? `${before.unpackedMb}, ${before.files}` : '-'}`,
      );
    }
  } finally {
    rmSync(packDir, { recursive: true, force: true });
  }
}
