#!/usr/bin/env node
// The release procedure: `node scripts/release.mjs VERSION [--date YYYY-MM-DD]`, run in a clean clone
// of the branch to release (after `npm test`). It checks the tree, sets VERSION in the three packages
// (ctrlrun-gen, ctrlrun-gen-cli, eslint-plugin-ctrlrun: their versions and their pins of each other),
// the lockfile, the generated goldens' headers and the docs' refs, writes the CHANGELOG.md entry (the
// commit subjects since the last release tag), commits, and makes the annotated tag vVERSION. It
// pushes nothing: the maintainer reviews the commit, then runs what it prints (git push with the
// tag, npm publish), and pre-commit's `rev: vVERSION` and the action's ref exist from then on.
// Exit 0 tagged; 2 refused (nothing changed).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?$/;
const PACKAGES = ['package.json', 'packages/cli/package.json', 'packages/eslint-plugin-ctrlrun/package.json'];
const OWN = new Set(['ctrlrun-gen', 'ctrlrun-gen-cli', 'eslint-plugin-ctrlrun']);
/** Files that name the release as a git ref (`rev: vX`, `@… # vX`): every `vX` in them names the release. */
const REF_FILES = ['docs/ci.md', 'action.yml', '.pre-commit-hooks.yaml', 'README.md'];

class Refused extends Error {}

function git(args, cwd) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** [major, minor, patch] of a plain version (a pre-release sorts before its release: compared by its core only, then refused if equal). */
const core = (v) => v.split('-')[0].split('.').map(Number);
function compare(a, b) {
  const [x, y] = [core(a), core(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return a === b ? 0 : a.includes('-') ? -1 : b.includes('-') ? 1 : 0;
}

function parseArgs(argv) {
  const [version, ...rest] = argv;
  if (!version || !SEMVER.test(version))
    throw new Refused(`usage: node scripts/release.mjs VERSION [--date YYYY-MM-DD] (a semver version, e.g. 0.1.0), got ${JSON.stringify(version ?? '')}`);
  let date = new Date().toISOString().slice(0, 10);
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--date' && /^\d{4}-\d{2}-\d{2}$/.test(rest[i + 1] ?? '')) date = rest[++i];
    else throw new Refused(`unknown argument ${JSON.stringify(rest[i])} (only --date YYYY-MM-DD)`);
  }
  return { version, date };
}

/** The tree a release is made from: a git work tree's root, clean, on a branch, the tag not yet made, the packages agreeing on the current version. */
function checkTree(root, version) {
  let top;
  try {
    top = git(['rev-parse', '--show-toplevel'], root);
  } catch {
    throw new Refused(`${root} is not a git work tree`);
  }
  if (path.resolve(top) !== path.resolve(root)) throw new Refused(`run it at the repository's root (${top})`);
  const dirty = git(['status', '--porcelain', '--untracked-files=normal'], root);
  if (dirty !== '') throw new Refused(`the tree is not clean; commit or stash first:\n${dirty}`);
  try {
    git(['symbolic-ref', '-q', 'HEAD'], root);
  } catch {
    throw new Refused('HEAD is detached: check out the branch to release');
  }
  if (git(['tag', '-l', `v${version}`], root) !== '') throw new Refused(`the tag v${version} exists already`);
  const versions = PACKAGES.map((file) => JSON.parse(readFileSync(path.join(root, file), 'utf8')).version);
  if (new Set(versions).size !== 1) throw new Refused(`the packages disagree on their version (${PACKAGES.map((f, i) => `${f}: ${versions[i]}`).join(', ')})`);
  const current = versions[0];
  const order = compare(version, current);
  if (order < 0) throw new Refused(`${version} is older than the current version ${current}`);
  if (order === 0 && git(['tag', '-l', 'v*'], root) !== '') throw new Refused(`${version} is the current version and a release was tagged since: bump it`);
  return current;
}

/** Sets the version in each package and in their pins of each other (exact, as they are pinned). */
function bumpPackages(root, version) {
  for (const file of PACKAGES) {
    const full = path.join(root, file);
    const pkg = JSON.parse(readFileSync(full, 'utf8'));
    pkg.version = version;
    for (const field of ['dependencies', 'devDependencies', 'peerDependencies'])
      for (const name of Object.keys(pkg[field] ?? {})) if (OWN.has(name)) pkg[field][name] = version;
    writeFileSync(full, `${JSON.stringify(pkg, null, 2)}\n`);
  }
  const lockFile = path.join(root, 'package-lock.json');
  if (existsSync(lockFile)) {
    const lock = JSON.parse(readFileSync(lockFile, 'utf8'));
    lock.version = version;
    if (lock.packages?.['']) lock.packages[''].version = version;
    writeFileSync(lockFile, `${JSON.stringify(lock, null, 2)}\n`);
  }
}

/** Text files under `dir` (recursively) whose name matches. */
function filesUnder(dir, match) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && match.test(e.name))
    .map((e) => path.join(e.parentPath ?? e.path, e.name));
}

/** The goldens' header (`· ctrlrun-gen X`) and the docs' refs (`vX`) name the new version. */
function renameVersion(root, from, to) {
  const header = new RegExp(`(· ctrlrun-gen )${from.replaceAll('.', '\\.')}\\b`, 'g');
  for (const file of [...filesUnder(path.join(root, 'fixtures'), /^expected\.generated\./), path.join(root, 'README.md')]) {
    const text = readFileSync(file, 'utf8');
    const next = text.replace(header, `$1${to}`);
    if (next !== text) writeFileSync(file, next);
  }
  const ref = new RegExp(`(?<![\\w.])v${from.replaceAll('.', '\\.')}(?![\\w.])`, 'g');
  for (const rel of REF_FILES) {
    const file = path.join(root, rel);
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    const next = text.replace(ref, `v${to}`);
    if (next !== text) writeFileSync(file, next);
  }
}

/** The CHANGELOG.md entry: the commit subjects since the last release tag (every commit for the first release), newest first. */
function writeChangelog(root, version, date) {
  const last = git(['tag', '-l', 'v*', '--sort=-v:refname'], root).split('\n').filter(Boolean)[0];
  const range = last ? [`${last}..HEAD`] : ['HEAD'];
  const subjects = git(['log', '--no-merges', '--format=%s', ...range], root)
    .split('\n')
    .filter((s) => s.trim() !== '');
  const entry = [`## ${version} (${date})`, '', ...(subjects.length ? subjects.map((s) => `- ${s}`) : ['- (no changes)']), ''].join('\n');
  const file = path.join(root, 'CHANGELOG.md');
  const head = '# Changelog\n\nEach release of ctrlrun-gen, ctrlrun-gen-cli and eslint-plugin-ctrlrun (one version for the three).\n\n';
  const before = existsSync(file) ? readFileSync(file, 'utf8') : head;
  const at = before.indexOf('\n## ');
  writeFileSync(file, at === -1 ? `${before.trimEnd()}\n\n${entry}` : `${before.slice(0, at + 1)}${entry}\n${before.slice(at + 1)}`);
}

export function release(root, argv) {
  const { version, date } = parseArgs(argv);
  const current = checkTree(root, version);
  bumpPackages(root, version);
  if (current !== version) renameVersion(root, current, version);
  writeChangelog(root, version, date);
  git(['add', '-A'], root);
  git(['commit', '-q', '-m', `Release ${version}`], root);
  git(['tag', '-a', `v${version}`, '-m', `ctrlrun-gen ${version}`], root);
  return { version, commit: git(['rev-parse', 'HEAD'], root), branch: git(['symbolic-ref', '--short', 'HEAD'], root) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const done = release(process.cwd(), process.argv.slice(2));
    process.stdout.write(
      `Tagged v${done.version} at ${done.commit} (nothing pushed). Review the commit, then:\n\n` +
        `  git push origin ${done.branch} v${done.version}\n` +
        `  npm publish && npm publish ./packages/cli && npm publish ./packages/eslint-plugin-ctrlrun\n\n` +
        `The action is then used as <owner>/ctrlrun-gen@${done.commit} # v${done.version}, pre-commit as rev: v${done.version}.\n`,
    );
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    process.stderr.write(`release: ${error.message}\nNothing changed.\n`);
    process.exit(2);
  }
}
