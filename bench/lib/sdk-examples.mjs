// The codemod's real corpus (issue 40, item 8): the SDK's own `examples/` of openai/openai-agents-js
// at a pinned commit, as one package (the nested package.json files left out) with the manifest
// `init` writes. Found as an `examples` folder (CTRLRUN_BENCH_SDK_EXAMPLES) or in a fetched git
// snapshot of the repository (REAL_REPOS_SNAPSHOTS, as scripts/real-repos.mjs finds it).
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const SDK_EXAMPLES_COMMIT = '6d0c61a5f62a5ed8142996a25b33446c810f84b3';

function snapshotGitDir(snapshots) {
  for (const rel of ['openai+openai-agents-js/repo', 'openai+openai-agents-js', 'openai/openai-agents-js', 'openai-agents-js.git', 'openai-agents-js']) {
    const dir = path.join(snapshots, rel);
    if (existsSync(path.join(dir, 'HEAD')) && existsSync(path.join(dir, 'objects'))) return dir;
    if (existsSync(path.join(dir, '.git', 'HEAD'))) return path.join(dir, '.git');
  }
  return undefined;
}

/** Where the corpus comes from, or undefined (the bench says how to provide it). */
export function sdkExamplesSource(env = process.env) {
  if (env.CTRLRUN_BENCH_SDK_EXAMPLES) return { kind: 'folder', dir: path.resolve(env.CTRLRUN_BENCH_SDK_EXAMPLES) };
  const git = env.REAL_REPOS_SNAPSHOTS ? snapshotGitDir(env.REAL_REPOS_SNAPSHOTS) : undefined;
  return git ? { kind: 'git', dir: git } : undefined;
}

function dropNestedPackages(dir, top = dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== 'node_modules') dropNestedPackages(p, top);
    else if (e.name === 'package.json' && dir !== top) rmSync(p);
  }
}

/**
 * A temporary copy of the corpus, one package with `init`'s manifest (run with `bin`), its files
 * listed as the codemod lists them. The caller removes `dir`.
 */
export function prepareSdkExamples(source, bin) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ctrlrun-sdk-examples-'));
  if (source.kind === 'folder') cpSync(source.dir, dir, { recursive: true, filter: (p) => !p.split(path.sep).includes('node_modules') });
  else {
    const tar = execFileSync('git', ['--git-dir', source.dir, 'archive', SDK_EXAMPLES_COMMIT, 'examples'], { maxBuffer: 256 * 1024 * 1024 });
    execFileSync('tar', ['-x', '--strip-components=1', '-C', dir], { input: tar });
  }
  if (!statSync(dir).isDirectory()) throw new Error('the corpus could not be copied');
  dropNestedPackages(dir);
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'sdk-examples', type: 'module', dependencies: { '@openai/agents': '0.20.0' } }));
  const init = spawnSync(process.execPath, [bin, 'init'], { cwd: dir, encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`init failed on the corpus (${init.status}): ${init.stderr}`);
  return dir;
}
