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

const ROUNDS = 3;
const EDITOR_LINTS = 30;

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

async function editorLoop(files, dir) {
  // The editor: one instance, one SDK file, its text edited between lints (a new comment each time).
  const file = files.find((f) => readFileSync(f, 'utf8').includes("from '@openai/agents'"));
  const text = readFileSync(file, 'utf8');
  for (const [label, plugin] of [['eslint + ctrlrun', createPlugin()], ['eslint alone', undefined]]) {
    const instance = eslint(dir, plugin);
    const t0 = performance.now();
    await instance.lintText(text, { filePath: file });
    const first = performance.now() - t0;
    const times = [];
    for (let i = 0; i < EDITOR_LINTS; i++) {
      const t = performance.now();
      const [result] = await instance.lintText(`${text}// edit ${i}\n`, { filePath: file });
      times.push(performance.now() - t);
      if (plugin && !result.messages.some((m) => m.ruleId === 'ctrlrun/unmapped-tool' || m.ruleId === 'ctrlrun/unprotected-tool')) throw new Error('the plugin reported nothing in the editor loop');
    }
    console.log(`editor loop, ${label}: first lint ${first.toFixed(0)} ms, then median ${median(times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms of ${EDITOR_LINTS} (goal <= 20 ms)`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
