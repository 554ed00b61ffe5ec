// The app's own type-check and build (or what stands for them), found in its package.json and tsconfig.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readJson } from './app.mjs';
import { run } from './shell.mjs';

const TYPECHECK_SCRIPTS = ['typecheck', 'type-check', 'check-types', 'types:check', 'tsc', 'build-check'];

/**
 * The checks to run before and after, in each folder of `dirs` (relative to `appDir`): its
 * `typecheck`-like and `build` scripts; else `tsc --noEmit` over its tsconfig when it has TypeScript;
 * else `node --check` over its JavaScript. `explicit` (the pinned entry's `checks`) replaces them.
 */
export function appChecks({ appDir, dirs, explicit, runScript, trackedFiles }) {
  if (explicit) return explicit.map((c) => ({ name: c.name ?? c.cmd, dir: c.dir ?? dirs[0], cmd: c.cmd }));
  return dirs.flatMap((dir) => checksOf(appDir, dir, runScript, trackedFiles));
}

function checksOf(appDir, dir, runScript, trackedFiles) {
  const full = path.join(appDir, dir);
  const scripts = readJson(path.join(full, 'package.json'))?.scripts ?? {};
  const checks = [];
  const typecheck = TYPECHECK_SCRIPTS.find((s) => typeof scripts[s] === 'string' && !/^echo /.test(scripts[s]));
  // a build that type-checks already (`tsc`, or a script holding the type-check's own command) is run alone
  const buildTypeChecks =
    typeof scripts.build === 'string' && typecheck && (/^tsc(\s+-p\s+\S+)?$/.test(scripts.build.trim()) || scripts.build.includes(scripts[typecheck]));
  if (typecheck) {
    if (!buildTypeChecks) checks.push({ name: typecheck, dir, cmd: runScript(typecheck) });
  } else if (existsSync(path.join(full, 'tsconfig.json')) && hasTypeScript(full, appDir))
    checks.push({ name: 'tsc --noEmit', dir, cmd: 'npx --no-install tsc --noEmit -p tsconfig.json' });
  if (typeof scripts.build === 'string') checks.push({ name: 'build', dir, cmd: runScript('build') });
  if (checks.length === 0) {
    const js = trackedFiles(dir).filter((f) => /\.(?:m|c)?js$/.test(f) && !/(^|\/)(node_modules|dist|build|public|\.next)\//.test(f));
    if (js.length > 0) checks.push({ name: `node --check (${js.length} files)`, dir, cmd: 'node-check', files: js.slice(0, 400) });
  }
  return checks;
}

function hasTypeScript(dir, appDir) {
  for (let d = dir; d.startsWith(appDir); d = path.dirname(d)) {
    if (existsSync(path.join(d, 'node_modules', 'typescript', 'package.json'))) return true;
    if (d === appDir) break;
  }
  return false;
}

/** Runs one check; `node-check` checks the syntax of each listed file (relative to the check's folder). */
export function runCheck(check, { appDir, env, log, timeout, trackedFiles }) {
  const cwd = path.join(appDir, check.dir);
  if (check.cmd !== 'node-check') {
    const r = run(check.cmd, '', { cwd, env, log, timeout });
    return { exit: r.exit, seconds: r.seconds, tsErrors: countTsErrors(r.stdout + r.stderr), tail: tail(r.stdout + r.stderr) };
  }
  // after the loop the folder holds the generated module too: check every JavaScript file tracked then
  const files = trackedFiles(check.dir).filter((f) => /\.(?:m|c)?js$/.test(f) && !/(^|\/)(node_modules|dist|build|public|\.next)\//.test(f));
  let failed = 0;
  let seconds = 0;
  const failures = [];
  for (const file of files.slice(0, 400)) {
    const r = run('node', ['--check', file], { cwd, env, log, timeout: 60 });
    seconds += r.seconds;
    if (r.exit !== 0) {
      failed++;
      failures.push(file);
    }
  }
  return { exit: failed === 0 ? 0 : 1, seconds: Math.round(seconds * 10) / 10, tsErrors: 0, files: files.length, tail: failures.slice(0, 5).join(', ') };
}

function countTsErrors(text) {
  return text.match(/error TS\d+:/g)?.length ?? 0;
}

function tail(text) {
  return text.trim().split('\n').slice(-6).join('\n').slice(-800);
}

/** before → after of one check: whether the app stopped building. */
export function verdict(before, after) {
  if (!before || !after) return 'n/a';
  if (before.exit === 0 && after.exit === 0) return 'ok';
  if (before.exit === 0) return 'BROKE';
  if (after.exit === 0) return 'fixed';
  return after.tsErrors > before.tsErrors ? 'WORSE' : 'same-fail';
}

export function readIfExists(file) {
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
}
