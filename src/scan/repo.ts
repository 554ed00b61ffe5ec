import { existsSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { glob } from 'tinyglobby';
import { isSourceFile } from './parse.js';
import { scanSource } from './scan-source.js';
import type { FileScan, RepoScan } from './types.js';

/** Directories never scanned, wherever they are. Dot-directories are skipped too. */
export const SKIPPED_DIRS = ['node_modules', 'dist', 'build', 'out', 'coverage', '.next'] as const;

const SOURCE_GLOB = '**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}';
const SKIP_GLOBS = [...SKIPPED_DIRS.map((d) => `**/${d}/**`), '**/*.d.ts', '**/*.d.mts', '**/*.d.cts'];

/**
 * The cheap text test: a file that contains none of these cannot hold an SDK call, a generated
 * import, a suppression, a sticky approval or a tracing switch, and is never parsed.
 */
export const PREFILTER_TOKENS = ['@openai/agents', 'protectedTool', 'ctrlrun', 'alwaysApprove', 'tracingDisabled', 'traceIncludeSensitiveData'] as const;

export function mayMatter(text: string): boolean {
  return PREFILTER_TOKENS.some((t) => text.includes(t));
}

export interface ListOptions {
  root: string;
  paths?: string[];
  generatedModule?: string;
}

/**
 * Absolute paths of the source files to consider, sorted: under each given path (default: root),
 * honouring every `.gitignore` found under the root (nested ones apply below their directory),
 * skipping node_modules, build output, dot-directories, declaration files and the generated module.
 * A file named explicitly is kept even when git-ignored (never the generated module).
 */
export async function listSourceFiles(options: ListOptions): Promise<string[]> {
  const root = path.resolve(options.root);
  const gitignores = await loadGitignores(root);
  const isIgnored = (abs: string): boolean => {
    for (const g of gitignores) {
      const rel = path.relative(g.dir, abs);
      if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
      if (g.rules.ignores(rel.split(path.sep).join('/'))) return true;
    }
    return false;
  };
  const generated = options.generatedModule ? path.resolve(options.generatedModule) : undefined;
  const out = new Set<string>();
  for (const p of options.paths && options.paths.length > 0 ? options.paths : [root]) {
    const abs = path.resolve(root, p);
    if (!existsSync(abs)) continue;
    if (statSync(abs).isFile()) {
      if (isSourceFile(abs) && abs !== generated) out.add(abs);
      continue;
    }
    const found = await glob(SOURCE_GLOB, { cwd: abs, absolute: true, dot: false, ignore: SKIP_GLOBS, followSymbolicLinks: false, expandDirectories: false });
    for (const f of found) {
      const file = path.resolve(f);
      if (file === generated || !isSourceFile(file) || isIgnored(file)) continue;
      out.add(file);
    }
  }
  return [...out].sort();
}

async function loadGitignores(root: string): Promise<Array<{ dir: string; rules: Ignore }>> {
  const files = await glob('**/.gitignore', {
    cwd: root,
    absolute: true,
    dot: true,
    ignore: SKIPPED_DIRS.map((d) => `**/${d}/**`).concat('**/.git/**'),
    followSymbolicLinks: false,
    expandDirectories: false,
  });
  return files
    .map((f) => path.resolve(f))
    .sort()
    .map((f) => ({ dir: path.dirname(f), rules: ignore().add(readFileSync(f, 'utf8')) }));
}

const READ_CONCURRENCY = 32;

/** Lists, prefilters and parses. Files that fail the text test are counted but not returned. */
export async function scanRepoFiles(options: ListOptions & { onProgress?: (done: number, total: number) => void }): Promise<RepoScan> {
  const root = path.resolve(options.root);
  const files = await listSourceFiles(options);
  const results: Array<FileScan | undefined> = new Array(files.length);
  let next = 0;
  let done = 0;
  const progressEvery = Math.max(1, Math.floor(files.length / 100));
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const i = next++;
      const abs = files[i]!;
      const text = await readFile(abs, 'utf8');
      if (mayMatter(text)) {
        const rel = path.relative(root, abs).split(path.sep).join('/');
        results[i] = scanSource(rel, text, { root, generatedModule: options.generatedModule });
      }
      done++;
      if (options.onProgress && (done % progressEvery === 0 || done === files.length)) options.onProgress(done, files.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, files.length) }, worker));
  return { root, filesConsidered: files.length, files: results.filter((r): r is FileScan => r !== undefined) };
}
