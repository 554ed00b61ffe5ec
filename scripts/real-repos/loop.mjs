// The user's loop on one prepared app with one Node: the app's checks before, ctrlrun-gen installed
// from the packed tarballs, init, generate, codemod (dry run, then --write), check, the checks after.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { installDirs, pmCommands, readJson } from './app.mjs';
import { census, unseenKinds } from './census.mjs';
import { appChecks, runCheck, verdict } from './checks.mjs';
import { git, run } from './shell.mjs';

const INTERNAL = /internal error/i;
const STACK = /\n\s+at (?:async )?[^\n]*\(?[^\s()]+:\d+:\d+\)?/;

export function runLoop(entry, app, { node, nodeVersion, packed, env, logDir, timeout, work, baseline }) {
  const appDir = app.appDir;
  const loopDir = path.join(appDir, entry.dir ?? '.');
  const log = (name) => path.join(logDir, `${name}.log`);
  const tracked = (dir) => listTracked(appDir, dir, env);
  const record = { node: nodeVersion, steps: [], checks: [], flags: [] };
  const step = (name, r, extra = {}) => {
    const s = { name, exit: r.exit, seconds: r.seconds, ...extra };
    record.steps.push(s);
    return s;
  };

  resetTree(appDir, env);
  rebuildNative(entry, app, appDir, env, log('install'));
  const pm = app.pm ?? 'npm';
  const checks = appChecks({ appDir, dirs: checkDirs(entry, appDir), explicit: entry.checks, runScript: pmCommands(pm).runScript, trackedFiles: tracked });
  // on a later Node the checks before are run only where they decide the verdict (the check fails after)
  const before = baseline ? checks.map(() => null) : checks.map((c) => runCheck(c, { appDir, env, log: log('before'), timeout, trackedFiles: tracked }));
  resetTree(appDir, env);
  record.census = census(path.join(appDir, entry.dir ?? '.'), tracked(entry.dir ?? '.'));

  const bin = installTool(entry, app, appDir, loopDir, { packed, env, log: log('tool-install'), work, step });
  if (!bin) return finish(record, checks, baseline?.map((b) => b.before) ?? before, null);
  // the install is the user's own change; what init changes in a package.json after it is init's
  commitAll(appDir, 'add ctrlrun-gen and ctrlrun-gen-cli', env);
  const ctrl = (name, args) => {
    const r = run(node, [bin, ...args], { cwd: loopDir, env, log: log(name), timeout: 900 });
    const text = r.stdout + r.stderr;
    const said = r.exit === 0 || !r.stderr.trim() ? undefined : firstLines(r.stderr);
    const s = step(name, r, { internalError: INTERNAL.test(text), stack: STACK.test(r.stderr), ...(said ? { said } : {}) });
    if (s.internalError) record.flags.push(`internal error in ${name}`);
    if (s.stack) record.flags.push(`stack trace in ${name}`);
    return { ...r, s };
  };

  record.check0 = findingsByRule(parseJson(ctrl('check0', ['check', '--format', 'json']).stdout));
  const init = ctrl('init', ['init']);
  record.init = readInit(init.stdout, appDir, env);
  if (init.exit !== 0 && record.init.manifests.length === 0)
    return finish(record, checks, baseline?.map((b) => b.before) ?? before, null, 'init stopped the loop');
  if (packageJsonsChanged(appDir, env)) reinstall(entry, app, appDir, { env, log: log('reinstall'), step });
  const generate = ctrl('generate', ['generate']);
  commitAll(appDir, 'ctrlrun-gen init and generate', env);
  record.codemodDry = codemodSummary(parseJson(ctrl('codemod', ['codemod', '--json']).stdout));
  const write = ctrl('codemod-write', ['codemod', '--write', '--json']);
  record.codemodWrite = codemodSummary(parseJson(write.stdout));
  commitAll(appDir, 'ctrlrun-gen codemod --write', env);
  const check = ctrl('check', ['check', '--format', 'json']);
  record.check = findingsByRule(parseJson(check.stdout));
  const entryKinds = record.init.entryKinds;
  record.unseen = unseenKinds(record.census, entryKinds, Object.keys(record.check?.byRule ?? {}));
  if (generate.exit !== 0) record.flags.push(`generate exit ${generate.exit}`);
  const after = checks.map((c) => runCheck(c, { appDir, env, log: log('after'), timeout, trackedFiles: tracked }));
  if (baseline) beforeWhereNeeded({ checks, before, after, baseline, appDir, env, log: log('before'), timeout, tracked });
  return finish(record, checks, before, after);
}

/**
 * A later Node's checks before: run on the app as it was where the check fails after in a way the
 * first Node's did not (another exit or another count of type errors); elsewhere the first Node's,
 * marked so: a check that passes after, or fails after as it did on the first Node, has its verdict.
 */
function beforeWhereNeeded({ checks, before, after, baseline, appDir, env, log, timeout, tracked }) {
  const same = (a, b) => a && b && a.exit === b.exit && a.tsErrors === b.tsErrors;
  const needed = checks.map((_, i) => !baseline[i]?.before || (after[i].exit !== 0 && !same(after[i], baseline[i].after)));
  if (needed.some(Boolean)) resetTree(appDir, env);
  checks.forEach((c, i) => {
    before[i] = needed[i] ? runCheck(c, { appDir, env, log, timeout, trackedFiles: tracked }) : { ...baseline[i].before, fromNode: 'first' };
  });
}

function finish(record, checks, before, after, stopped) {
  record.checks = checks.map((c, i) => ({
    name: c.name,
    dir: c.dir,
    before: before[i],
    after: after?.[i] ?? null,
    verdict: after ? verdict(before[i], after[i]) : 'n/a',
  }));
  for (const c of record.checks) if (c.verdict === 'BROKE' || c.verdict === 'WORSE') record.flags.push(`${c.name} ${c.verdict}`);
  if (stopped) record.flags.push(stopped);
  return record;
}

function resetTree(appDir, env) {
  git(appDir, ['reset', '-q', '--hard', 'real-repos-base'], env);
  git(appDir, ['clean', '-qfdx', '-e', 'node_modules'], env);
}

function checkDirs(entry, appDir) {
  if (entry.checkDirs) return entry.checkDirs;
  const dir = entry.dir ?? '.';
  return existsSync(path.join(appDir, dir, 'package.json')) ? [dir] : installDirs(entry);
}

/** A native addon built by node-gyp holds one Node's ABI: rebuilt for the Node of this run. */
function rebuildNative(entry, app, appDir, env, log) {
  for (const dir of installDirs(entry)) {
    const modules = path.join(appDir, dir, 'node_modules');
    if (!existsSync(modules) || !hasGypBuild(modules)) continue;
    const [cmd, args] = pmCommands(app.pm ?? 'npm').rebuild;
    run(cmd, args, { cwd: path.join(appDir, dir), env, log, timeout: 1200 });
  }
}

function hasGypBuild(modules) {
  const r = run('find', [modules, '-path', '*/build/Release/*.node', '-print', '-quit'], { cwd: modules, timeout: 120 });
  return r.stdout.trim() !== '';
}

/**
 * Installs the two tarballs as a user would (runtime a dependency, CLI a dev dependency) with the
 * app's package manager, in the folder the loop runs in (or each install folder when it has no
 * package.json); an entry marked `noInstall` gets them in a folder beside it. Returns the CLI's bin.
 */
function installTool(entry, app, appDir, loopDir, { packed, env, log, work, step }) {
  if (entry.noInstall) return sideInstall(packed, work, env, log, step);
  const dirs = existsSync(path.join(loopDir, 'package.json')) ? [path.relative(appDir, loopDir) || '.'] : installDirs(entry);
  for (const rel of dirs) {
    const cwd = path.join(appDir, rel);
    const commands = pmCommands(
      app.pm ?? 'npm',
      existsSync(path.join(cwd, 'pnpm-workspace.yaml')) || Boolean(readJson(path.join(cwd, 'package.json'))?.workspaces),
    );
    for (const [specs, dev] of [
      [[packed.runtime], false],
      [[packed.cli], true],
    ]) {
      const [cmd, args] = commands.add(specs, dev);
      const s = step(`add ${dev ? 'ctrlrun-gen-cli' : 'ctrlrun-gen'}${rel === '.' ? '' : ` in ${rel}`}`, run(cmd, args, { cwd, env, log, timeout: 1200 }));
      if (s.exit !== 0) return null;
    }
  }
  return findBin(
    loopDir,
    appDir,
    dirs.map((d) => path.join(appDir, d)),
  );
}

function sideInstall(packed, work, env, log, step) {
  const dir = path.join(work, 'tools', packed.sha);
  const bin = path.join(dir, 'node_modules', 'ctrlrun-gen', 'dist', 'bin', 'ctrlrun-gen.cjs');
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), '{"name":"ctrlrun-gen-beside","private":true}\n');
  const s = step(
    'add ctrlrun-gen beside',
    run('npm', ['install', '--no-audit', '--no-fund', packed.runtime, packed.cli], { cwd: dir, env, log, timeout: 1200 }),
  );
  return s.exit === 0 ? bin : null;
}

function findBin(loopDir, appDir, extra) {
  const rel = path.join('node_modules', 'ctrlrun-gen', 'dist', 'bin', 'ctrlrun-gen.cjs');
  for (let d = loopDir; d.startsWith(appDir); d = path.dirname(d)) {
    if (existsSync(path.join(d, rel))) return path.join(d, rel);
    if (d === appDir) break;
  }
  return extra.map((d) => path.join(d, rel)).find((f) => existsSync(f)) ?? null;
}

function reinstall(entry, app, appDir, { env, log, step }) {
  for (const rel of entry.noInstall ? [] : installDirs(entry)) {
    const [cmd, args] = pmCommands(app.pm ?? 'npm').install;
    step(`reinstall${rel === '.' ? '' : ` in ${rel}`}`, run(cmd, args, { cwd: path.join(appDir, rel), env, log, timeout: 1800 }));
  }
}

function packageJsonsChanged(appDir, env) {
  const r = git(appDir, ['status', '--porcelain'], env);
  return r.stdout.split('\n').some((l) => /(^|\/)package\.json$/.test(l.slice(3)) && !/^\?\?/.test(l));
}

function commitAll(appDir, message, env) {
  git(appDir, ['add', '-A'], env);
  git(appDir, ['commit', '-qm', message, '--allow-empty', '--no-verify'], env);
}

/** What init said and wrote: its count line, its notes, and each manifest's entries by kind. */
function readInit(stdout, appDir, env) {
  const found = /Found (\d+) new tool names? in (\d+) calls?/.exec(stdout);
  const notes = stdout.split('\n').filter((l) => l.startsWith('note:'));
  const status = git(appDir, ['status', '--porcelain', '--untracked-files=all'], env).stdout.split('\n');
  const manifests = status.map((l) => l.slice(3)).filter((f) => f === 'ctrlrun.tools.yaml' || f.endsWith('/ctrlrun.tools.yaml'));
  const entryKinds = {};
  for (const file of manifests) {
    const tools = safeYaml(readFileSync(path.join(appDir, file), 'utf8'))?.tools ?? [];
    for (const t of tools) {
      const kind = Object.keys(t ?? {}).find((k) => k !== 'action') ?? '?';
      entryKinds[kind] = (entryKinds[kind] ?? 0) + 1;
    }
  }
  return { toolNames: found ? Number(found[1]) : null, calls: found ? Number(found[2]) : null, notes, manifests, entryKinds };
}

/** The codemod's summary; at a workspace root, the sum of each package's. */
function codemodSummary(json) {
  if (json?.summary) return json.summary;
  if (!Array.isArray(json?.packages)) return null;
  const sum = {};
  for (const { summary } of json.packages) for (const [k, v] of Object.entries(summary ?? {})) if (typeof v === 'number') sum[k] = (sum[k] ?? 0) + v;
  return sum;
}

function findingsByRule(report) {
  if (!report?.findings) return null;
  const byRule = {};
  for (const f of report.findings) byRule[f.ruleId] = (byRule[f.ruleId] ?? 0) + 1;
  return { errors: report.summary?.errors ?? null, warnings: report.summary?.warnings ?? null, byRule, findings: report.findings };
}

function listTracked(appDir, dir, env) {
  const r = git(appDir, ['ls-files', '-z', '--', dir === '.' ? '.' : dir], env);
  const prefix = dir === '.' ? '' : `${dir.replace(/\/$/, '')}/`;
  return r.stdout
    .split('\0')
    .filter(Boolean)
    .map((f) => (prefix && f.startsWith(prefix) ? f.slice(prefix.length) : f));
}

function firstLines(text) {
  return text.trim().split('\n').slice(0, 3).join('\n').slice(0, 600);
}

function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    const start = text.indexOf('{');
    try {
      return start >= 0 ? JSON.parse(text.slice(start)) : null;
    } catch {
      return null;
    }
  }
}

function safeYaml(text) {
  try {
    return parseYaml(text);
  } catch {
    return null;
  }
}

export function listLogs(dir) {
  return existsSync(dir) ? readdirSync(dir) : [];
}
