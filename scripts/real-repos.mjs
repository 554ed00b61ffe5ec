#!/usr/bin/env node
// The user's loop on the pinned public repositories (scripts/real-repos.json): a regression suite
// run by hand, not by CI, since it needs the repositories fetched beforehand. docs/real-repos.md.
//
//   node scripts/real-repos.mjs --snapshots <dir> [--ref <git ref>] [--node <path>]... [--only id,id]
//   node scripts/real-repos.mjs --compare <a/results.json> <b/results.json>
//   node scripts/real-repos.mjs --merge --out <dir> <a/results.json> <b/results.json>...
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { prepareApp } from './real-repos/app.mjs';
import { runLoop } from './real-repos/loop.mjs';
import { packRef } from './real-repos/pack.mjs';
import { compareRuns, markdownTable } from './real-repos/report.mjs';
import { envFor } from './real-repos/shell.mjs';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    snapshots: { type: 'string', default: process.env.REAL_REPOS_SNAPSHOTS },
    ref: { type: 'string', default: 'HEAD' },
    node: { type: 'string', multiple: true },
    only: { type: 'string' },
    skip: { type: 'string' },
    list: { type: 'string', default: path.join(projectRoot, 'scripts', 'real-repos.json') },
    work: { type: 'string', default: process.env.REAL_REPOS_WORK ?? path.join(tmpdir(), 'real-repos') },
    out: { type: 'string' },
    timeout: { type: 'string', default: '1200' },
    clean: { type: 'boolean', default: false },
    fresh: { type: 'boolean', default: false },
    compare: { type: 'boolean', default: false },
    merge: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  process.stdout.write(
    `${readFileSync(fileURLToPath(import.meta.url), 'utf8')
      .split('\n')
      .slice(1, 7)
      .map((line) => line.replace(/^\/\/ ?/, ''))
      .join('\n')}\n`,
  );
  process.exit(0);
}

if (values.compare) {
  if (positionals.length !== 2) fail('--compare takes two results.json files');
  const [a, b] = positionals.map((file) => JSON.parse(readFileSync(file, 'utf8')));
  process.stdout.write(compareRuns(a, b));
  process.exit(0);
}

if (values.merge) {
  // runs of one ref split across processes (--only), put back into one results.json and table
  if (positionals.length < 2 || !values.out) fail('--merge takes an --out folder and two or more results.json files');
  const runs = positionals.map((file) => JSON.parse(readFileSync(file, 'utf8')));
  if (new Set(runs.map((r) => r.sha)).size !== 1) fail('--merge: the runs are of different refs');
  const order = JSON.parse(readFileSync(values.list, 'utf8')).repos.map((e) => e.id);
  const repos = new Map(runs.flatMap((r) => r.repos).map((r) => [r.id, r]));
  const merged = { ...runs[0], repos: [...repos.values()].sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id)) };
  mkdirSync(values.out, { recursive: true });
  writeFileSync(path.join(values.out, 'results.json'), `${JSON.stringify(merged, null, 2)}\n`);
  writeFileSync(path.join(values.out, 'table.md'), markdownTable(merged));
  process.stdout.write(markdownTable(merged));
  process.exit(0);
}

if (!values.snapshots) fail('say where the fetched snapshots are: --snapshots <dir> (or REAL_REPOS_SNAPSHOTS)');
const list = JSON.parse(readFileSync(values.list, 'utf8'));
const only = values.only?.split(',').filter(Boolean);
const skip = values.skip?.split(',').filter(Boolean) ?? [];
const entries = list.repos.filter((e) => (!only || only.includes(e.id)) && !skip.includes(e.id));
if (only) for (const id of only) if (!list.repos.some((e) => e.id === id)) fail(`no repository ${id} in ${values.list}`);
const nodes = (values.node ?? [process.execPath]).map((node) => ({ node, version: execFileSync(node, ['-v'], { encoding: 'utf8' }).trim().replace(/^v/, '') }));
const work = path.resolve(values.work);
mkdirSync(work, { recursive: true });

const buildEnv = envFor(process.execPath);
const packed = packRef({ projectRoot, ref: values.ref, work, env: buildEnv, log: path.join(work, 'pack.log') });
const out = path.resolve(values.out ?? path.join(work, 'out', `${packed.sha.slice(0, 12)}`));
mkdirSync(out, { recursive: true });
const results = { ref: values.ref, sha: packed.sha, version: packed.version, started: new Date().toISOString(), nodes: nodes.map((n) => n.version), repos: [] };
// a run of some repositories into an output folder of the same ref adds to (or replaces in) what is there
const earlier = readJsonFile(path.join(out, 'results.json'));
if (earlier?.sha === packed.sha) results.repos = earlier.repos.filter((r) => !entries.some((e) => e.id === r.id));
const save = () => {
  writeFileSync(path.join(out, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(path.join(out, 'table.md'), markdownTable(results));
};

for (const entry of entries) {
  const logs = path.join(out, 'logs', entry.id);
  rmSync(logs, { recursive: true, force: true });
  const started = Date.now();
  process.stderr.write(`${entry.id} (${entry.repo}@${entry.commit.slice(0, 12)}${entry.dir ? ` ${entry.dir}` : ''}): `);
  if (values.fresh) rmSync(path.join(work, 'apps', entry.id), { recursive: true, force: true });
  const app = prepareApp(entry, { snapshots: values.snapshots, work, env: envFor(nodes[0].node), log: path.join(logs, 'install.log') });
  const repo = {
    id: entry.id,
    repo: entry.repo,
    commit: entry.commit,
    dir: entry.dir ?? '.',
    layout: entry.layout,
    doors: entry.doors ?? [],
    install: app.installs ?? [],
  };
  if (app.error) repo.error = app.error;
  else {
    repo.runs = [];
    for (const { node, version } of nodes) {
      const logDir = path.join(logs, `node${version.split('.')[0]}`);
      const baseline = repo.runs[0]?.checks.map((c) => ({ before: c.before, after: c.after }));
      repo.runs.push(runLoop(entry, app, { node, nodeVersion: version, packed, env: envFor(node), logDir, timeout: Number(values.timeout), work, baseline }));
      process.stderr.write(`node ${version.split('.')[0]} done; `);
    }
  }
  repo.seconds = Math.round((Date.now() - started) / 1000);
  results.repos.push(repo);
  results.repos.sort((a, b) => list.repos.findIndex((e) => e.id === a.id) - list.repos.findIndex((e) => e.id === b.id));
  save();
  process.stderr.write(`${repo.error ?? 'ok'} in ${repo.seconds}s\n`);
  if (values.clean) rmSync(app.appDir, { recursive: true, force: true });
}
results.finished = new Date().toISOString();
save();
process.stdout.write(markdownTable(results));
process.stderr.write(`\nresults: ${path.join(out, 'results.json')}\ntable:   ${path.join(out, 'table.md')}\nlogs:    ${path.join(out, 'logs')}\n`);

function readJsonFile(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

function fail(message) {
  process.stderr.write(`real-repos: ${message}\n`);
  process.exit(2);
}
