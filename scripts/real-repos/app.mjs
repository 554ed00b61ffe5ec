// One pinned repository brought into a scratch folder: extracted at its commit, its dependencies
// installed with its own package manager, committed as the user's clone would be.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { git, run } from './shell.mjs';

/** The git directory of a fetched snapshot of `owner/name` under `snapshots`, in the layouts a fetch leaves. */
export function snapshotGitDir(snapshots, repo) {
  const [owner, name] = repo.split('/');
  const candidates = [`${owner}+${name}/repo`, `${owner}+${name}`, `${owner}/${name}`, `${owner}/${name}.git`, `${name}.git`, name];
  for (const rel of candidates) {
    const dir = path.join(snapshots, rel);
    if (existsSync(path.join(dir, 'HEAD')) && existsSync(path.join(dir, 'objects'))) return dir;
    if (existsSync(path.join(dir, '.git', 'HEAD'))) return path.join(dir, '.git');
  }
  return null;
}

/** The package manager a user of this folder runs: `packageManager`, else the lockfile, else npm. */
export function detectPm(appDir, installDir) {
  for (const dir of [installDir, appDir]) {
    const pj = readJson(path.join(dir, 'package.json'));
    const declared = pj?.packageManager?.split('+')[0];
    if (declared && /^(npm|pnpm|yarn)@/.test(declared)) return declared;
  }
  for (const dir of [installDir, appDir]) {
    const pnpmLock = path.join(dir, 'pnpm-lock.yaml');
    if (existsSync(pnpmLock)) return `pnpm@${pnpmForLock(readFileSync(pnpmLock, 'utf8'))}`;
    if (existsSync(path.join(dir, 'pnpm-workspace.yaml'))) return 'pnpm@9';
    if (existsSync(path.join(dir, 'yarn.lock'))) return 'yarn@1.22.22';
    if (existsSync(path.join(dir, 'package-lock.json'))) return 'npm';
  }
  return 'npm';
}

function pnpmForLock(text) {
  const version = /^lockfileVersion:\s*'?([\d.]+)/m.exec(text)?.[1] ?? '9.0';
  const major = Number(version.split('.')[0]);
  return major >= 9 ? '9' : major >= 6 ? '8' : '7';
}

/** How `pm` installs, adds and runs; `workspaceRoot` adds pnpm's `-w` where the root is a workspace. */
export function pmCommands(pm, workspaceRoot = false) {
  const [name, version] = pm.split('@');
  if (name === 'pnpm' || name === 'yarn') {
    const base = ['-y', `${name}@${version}`];
    const add = name === 'pnpm' ? ['add', ...(workspaceRoot ? ['-w'] : [])] : ['add', ...(workspaceRoot ? ['-W'] : [])];
    return {
      install: ['npx', [...base, 'install', ...(name === 'pnpm' ? ['--no-frozen-lockfile'] : [])]],
      add: (specs, dev) => ['npx', [...base, ...add, ...(dev ? ['-D'] : []), ...specs]],
      rebuild: ['npx', [...base, name === 'pnpm' ? 'rebuild' : 'install', ...(name === 'yarn' ? ['--force'] : [])]],
      runScript: (script) => `npx -y ${name}@${version} run ${script}`,
    };
  }
  return {
    install: ['npm', ['install', '--no-audit', '--no-fund']],
    add: (specs, dev) => ['npm', ['install', '--no-audit', '--no-fund', dev ? '--save-dev' : '--save', ...specs]],
    rebuild: ['npm', ['rebuild']],
    runScript: (script) => `npm run ${script}`,
  };
}

/**
 * The app's folder under `work/apps/<id>`, ready for a run: reused when it holds this entry's
 * commit, preparation and install; else extracted, prepared, committed and installed afresh.
 */
export function prepareApp(entry, { snapshots, work, env, log }) {
  const appDir = path.join(work, 'apps', entry.id);
  const key = createHash('sha256')
    .update(
      JSON.stringify([entry.repo, entry.commit, entry.extract, entry.setDeps, entry.setJson, entry.removeFiles, entry.installDirs, entry.pm, entry.noInstall]),
    )
    .digest('hex');
  const markerFile = path.join(appDir, '.git', 'real-repos.json');
  const marker = readJson(markerFile);
  if (marker?.key === key) return { appDir, ...marker, reused: true };
  const gitDir = snapshotGitDir(snapshots, entry.repo);
  if (!gitDir) return { appDir, error: `no snapshot of ${entry.repo} under ${snapshots}` };
  rmSync(appDir, { recursive: true, force: true });
  mkdirSync(appDir, { recursive: true });
  const paths = (entry.extract ?? []).map((p) => `'${p}'`).join(' ');
  const extracted = run(`git --git-dir='${gitDir}' archive --format=tar ${entry.commit} ${paths ? `-- ${paths}` : ''} | tar -x -C '${appDir}'`, '', {
    cwd: appDir,
    env,
    log,
    timeout: 600,
  });
  if (extracted.exit !== 0) return { appDir, error: `cannot extract ${entry.repo}@${entry.commit}: ${extracted.stderr.trim()}` };
  applySetDeps(appDir, entry.setDeps ?? {});
  applySetJson(appDir, entry.setJson ?? {});
  // a lockfile naming versions the registry here does not serve is resolved afresh
  for (const file of entry.removeFiles ?? []) rmSync(path.join(appDir, file), { force: true });
  git(appDir, ['init', '-q', '.'], env);
  writeFileSync(path.join(appDir, '.git', 'info', 'exclude'), 'node_modules/\n');
  git(appDir, ['add', '-A'], env);
  git(appDir, ['commit', '-qm', `the app as it was (${entry.repo}@${entry.commit.slice(0, 12)})`], env);
  const installs = installApp(entry, appDir, env, log);
  git(appDir, ['add', '-A'], env);
  git(appDir, ['commit', '-qm', 'installed', '--allow-empty'], env);
  git(appDir, ['tag', '-f', 'real-repos-base'], env);
  const state = { key, installs, pm: installs[0]?.pm ?? 'npm' };
  writeFileSync(markerFile, `${JSON.stringify(state, null, 2)}\n`);
  return { appDir, ...state, reused: false };
}

/** The app's own install in each of its install folders; nothing for an entry marked `noInstall`. */
function installApp(entry, appDir, env, log) {
  if (entry.noInstall) return [];
  return installDirs(entry).map((rel) => {
    const cwd = path.join(appDir, rel);
    const pm = entry.pm ?? detectPm(appDir, cwd);
    const [cmd, args] = pmCommands(pm).install;
    const r = run(cmd, args, { cwd, env, log, timeout: 1800 });
    return { dir: rel, pm, exit: r.exit, seconds: r.seconds };
  });
}

export function installDirs(entry) {
  return entry.installDirs ?? [entry.dir ?? '.'];
}

/** `setDeps`: the versions a user sets before installing (an SDK the tool supports, a `workspace:*` that has no workspace here). */
function applySetDeps(appDir, setDeps) {
  for (const [file, deps] of Object.entries(setDeps)) {
    const full = path.join(appDir, file);
    const pj = readJson(full) ?? {};
    for (const [name, version] of Object.entries(deps)) {
      const section = ['dependencies', 'devDependencies'].find((s) => pj[s]?.[name] !== undefined) ?? 'dependencies';
      pj[section] = { ...pj[section], [name]: version };
      if (version === null) delete pj[section][name];
    }
    writeFileSync(full, `${JSON.stringify(pj, null, 2)}\n`);
  }
}

/** `setJson`: a setting a user changes by hand before the loop (a hint followed), by dotted key path. */
function applySetJson(appDir, setJson) {
  for (const [file, settings] of Object.entries(setJson)) {
    const full = path.join(appDir, file);
    const json = readJson(full) ?? {};
    for (const [keyPath, value] of Object.entries(settings)) {
      const keys = keyPath.split('.');
      let at = json;
      for (const key of keys.slice(0, -1)) at = at[key] ??= {};
      at[keys.at(-1)] = value;
    }
    writeFileSync(full, `${JSON.stringify(json, null, 2)}\n`);
  }
}

export function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}
