// The two packages of a git ref, packed as a registry would serve them, from a temporary clone.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { git, run } from './shell.mjs';

/**
 * Packs `ref` of the project at `projectRoot` into `<work>/tarballs/<sha>/`: ctrlrun-gen and
 * ctrlrun-gen-cli, the companion's dependency on ctrlrun-gen pointing at that tarball (so no
 * package manager looks for it elsewhere). Reused when already packed.
 */
export function packRef({ projectRoot, ref, work, env, log }) {
  const resolved = git(projectRoot, ['rev-parse', '--verify', `${ref}^{commit}`], env);
  if (resolved.exit !== 0) throw new Error(`${ref}: not a commit of ${projectRoot}`);
  const sha = resolved.stdout.trim();
  const dir = path.join(work, 'tarballs', sha);
  const done = path.join(dir, 'packed.json');
  if (existsSync(done)) return { sha, ...JSON.parse(readFileSync(done, 'utf8')) };
  mkdirSync(dir, { recursive: true });
  const clone = mkdtempSync(path.join(work, 'clone-'));
  try {
    must(git(work, ['clone', '-q', '--no-hardlinks', projectRoot, clone], env), `clone ${projectRoot}`);
    must(git(clone, ['checkout', '-q', sha], env), `checkout ${sha}`);
    installProject(projectRoot, clone, env, log);
    must(run('npm', ['run', 'build'], { cwd: clone, env, log, timeout: 900 }), 'npm run build');
    const runtime = packDir(clone, dir, env, log);
    const cli = repointCompanion(packDir(path.join(clone, 'packages/cli'), dir, env, log), runtime, dir, env, log);
    const version = JSON.parse(readFileSync(path.join(clone, 'package.json'), 'utf8')).version;
    const packed = { runtime, cli, version };
    writeFileSync(done, `${JSON.stringify(packed, null, 2)}\n`);
    return { sha, ...packed };
  } finally {
    rmSync(clone, { recursive: true, force: true });
  }
}

/** The clone's dependencies: the project's own node_modules when the lockfiles are the same, else `npm ci`. */
function installProject(projectRoot, clone, env, log) {
  const lock = (dir) => (existsSync(path.join(dir, 'package-lock.json')) ? readFileSync(path.join(dir, 'package-lock.json'), 'utf8') : null);
  if (existsSync(path.join(projectRoot, 'node_modules')) && lock(projectRoot) === lock(clone)) {
    symlinkSync(path.join(projectRoot, 'node_modules'), path.join(clone, 'node_modules'), 'dir');
    return;
  }
  must(run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: clone, env, log, timeout: 1200 }), 'npm ci');
}

function packDir(dir, dest, env, log) {
  const r = must(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dest], { cwd: dir, env, log, timeout: 300 }), `npm pack ${dir}`);
  return path.join(dest, JSON.parse(r.stdout)[0].filename);
}

/** Rewrites the companion tarball so its `ctrlrun-gen` dependency is the runtime tarball packed beside it. */
function repointCompanion(cliTgz, runtimeTgz, dest, env, log) {
  const tmp = mkdtempSync(path.join(dest, 'cli-'));
  try {
    must(run('tar', ['-xzf', cliTgz, '-C', tmp], { cwd: dest, env, log }), 'untar companion');
    const pj = path.join(tmp, 'package', 'package.json');
    const manifest = JSON.parse(readFileSync(pj, 'utf8'));
    manifest.dependencies['ctrlrun-gen'] = `file:${runtimeTgz}`;
    writeFileSync(pj, `${JSON.stringify(manifest, null, 2)}\n`);
    must(run('tar', ['-czf', cliTgz, '-C', tmp, 'package'], { cwd: dest, env, log }), 'tar companion');
    return cliTgz;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function must(result, what) {
  if (result.exit !== 0) throw new Error(`${what} failed (exit ${result.exit}):\n${result.stderr.slice(-2000)}`);
  return result;
}
