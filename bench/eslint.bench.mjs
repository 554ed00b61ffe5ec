// The ESLint plugin (eslint-plugin-ctrlrun's recommended config) on the 3,000-file bench repo of
// the check bench, against ESLint with the same other rules and no plugin, in the same run. Goal
// (issue 26): with / without <= 1.10. And an editor's loop: one ESLint instance, one file linted
// again and again with its text changing (as a language server does); goal <= 20 ms a lint after
// the first. `npm run bench -- eslint`.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { makeRepo } from './check.bench.mjs';
import { sized } from './lib/size.mjs';

const ROUNDS = sized(3, 1);
const EDITOR_LINTS = sized(60, 2);

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { createPlugin } = await import(pathToFileURL(path.join(root, 'dist/eslint/index.js')).href);

const FILES = ['**/*.ts'];
/** The other rules both runs have: typescript-eslint's recommended set (no type information), with its parser. */
const OTHER = tseslint.config({ files: FILES, extends: [tseslint.configs.recommended] });

function eslint(dir, plugin) {
  return new ESLint({ cwd: dir, overrideConfigFile: true, overrideConfig: [...OTHER, ...(plugin ? [{ files: FILES, ...plugin.configs.recommended }] : [])] });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function lintRepo(dir, withPlugin) {
  // a new plugin each round: its sessions (the repo scan) are part of what a CLI run pays
  const t0 = performance.now();
  const results = await eslint(dir, withPlugin ? createPlugin() : undefined).lintFiles(['src']);
  const ms = performance.now() - t0;
  const ours = results.reduce((n, r) => n + r.messages.filter((m) => m.ruleId?.startsWith('ctrlrun/')).length, 0);
  return { ms, files: results.length, ours };
}

export async function run() {
  const { dir, files } = makeRepo();
  try {
    // BENCH_ESLINT=editor: the editor's loop alone (the repo rounds take minutes on a loaded machine)
    if (process.env.BENCH_ESLINT !== 'editor') await repoRounds(dir);
    await editorLoop(files, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function repoRounds(dir) {
  await lintRepo(dir, false);
  const warm = await lintRepo(dir, true);
  const without = [];
  const withPlugin = [];
  for (let r = 0; r < ROUNDS; r++) {
    without.push((await lintRepo(dir, false)).ms);
    withPlugin.push((await lintRepo(dir, true)).ms);
    console.log(`round ${r + 1}: without ${without[r].toFixed(0)} ms, with ${withPlugin[r].toFixed(0)} ms`);
  }
  const a = median(without);
  const b = median(withPlugin);
  console.log(`repo: ${warm.files} files linted; the plugin reported ${warm.ours} findings`);
  console.log(`eslint (typescript-eslint recommended), median of ${ROUNDS}: ${a.toFixed(0)} ms`);
  console.log(`eslint + ctrlrun recommended, median of ${ROUNDS}: ${b.toFixed(0)} ms`);
  console.log(`ratio with / without the plugin: ${(b / a).toFixed(3)} (goal <= 1.10)`);
}

/**
 * The plugins the editor loop compares: this build's, and with BENCH_ESLINT_BEFORE=<a dist folder
 * of an earlier build> that build's too (a before / after in the same run), then ESLint alone.
 */
async function editorContenders() {
  const list = [['eslint + ctrlrun', createPlugin()]];
  const before = process.env.BENCH_ESLINT_BEFORE;
  if (before) {
    const old = await import(pathToFileURL(path.resolve(before, 'eslint/index.js')).href);
    list.push(['eslint + ctrlrun (before)', old.createPlugin()]);
  }
  list.push(['eslint alone', undefined]);
  return list;
}

/** One lint's wall time and the CPU time the process spent in it (steadier on a loaded machine). */
async function timed(fn) {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const value = await fn();
  const used = process.cpuUsage(cpu);
  return { value, ms: performance.now() - t, cpuMs: (used.user + used.system) / 1000 };
}

async function editorLoop(files, dir) {
  // The editor: one instance each, one SDK file, its text edited between lints (a new comment each
  // time); the instances take turns, so a load spike falls on all of them alike.
  const file = files.find((f) => readFileSync(f, 'utf8').includes("from '@openai/agents'"));
  const text = readFileSync(file, 'utf8');
  const runs = (await editorContenders()).map(([label, plugin]) => ({ label, plugin, instance: eslint(dir, plugin), times: [], cpu: [] }));
  for (const r of runs) r.first = (await timed(() => r.instance.lintText(text, { filePath: file }))).ms;
  for (let i = 0; i < EDITOR_LINTS; i++) {
    for (const r of runs) {
      const { value, ms, cpuMs } = await timed(() => r.instance.lintText(`${text}// edit ${i}\n`, { filePath: file }));
      r.times.push(ms);
      r.cpu.push(cpuMs);
      if (r.plugin && !value[0].messages.some((m) => m.ruleId === 'ctrlrun/unmapped-tool' || m.ruleId === 'ctrlrun/unprotected-tool'))
        throw new Error('the plugin reported nothing in the editor loop');
    }
  }
  const alone = runs[runs.length - 1];
  for (const r of runs) {
    const ratio =
      r === alone ? '' : `; ${(median(r.times) / median(alone.times)).toFixed(2)}x eslint alone (CPU ${(median(r.cpu) / median(alone.cpu)).toFixed(2)}x)`;
    console.log(
      `editor loop, ${r.label}: first lint ${r.first.toFixed(0)} ms, then median ${median(r.times).toFixed(1)} ms (CPU ${median(r.cpu).toFixed(1)} ms), max ${Math.max(...r.times).toFixed(1)} ms of ${EDITOR_LINTS}${ratio} (goal <= 20 ms)`,
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
