import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';
import { globSync } from 'tinyglobby';
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
  return listSourceFilesSync(options);
}

/** `listSourceFiles`, synchronously (the generator is a synchronous function of the repo's files). */
export function listSourceFilesSync(options: ListOptions): string[] {
  const root = path.resolve(options.root);
  // One walk finds both the sources and the .gitignore files (dot-directories excluded by pattern).
  const walked = walk(root);
  const gitignores = walked
    .filter((f) => path.basename(f) === '.gitignore')
    .sort()
    .map((f) => ({ dir: path.dirname(f), rules: ignore().add(readFileSync(f, 'utf8')) }));
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
    const under = abs === root ? walked : walk(abs);
    for (const file of under) {
      if (file === generated || !isSourceFile(file) || isIgnored(file)) continue;
      out.add(file);
    }
  }
  return [...out].sort();
}

/** Source files and .gitignore files under `dir` (absolute), skipping SKIPPED_DIRS and dot-directories. */
function walk(dir: string): string[] {
  const found = globSync([SOURCE_GLOB, '**/.gitignore'], {
    cwd: dir,
    absolute: true,
    dot: true,
    ignore: [...SKIP_GLOBS, '**/.*/**', '**/.*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'],
    followSymbolicLinks: false,
    expandDirectories: false,
  });
  return found.map((f) => path.resolve(f));
}

/** Lists, prefilters and parses. Files that fail the text test are counted but not returned. */
export async function scanRepoFiles(options: ListOptions & { onProgress?: (done: number, total: number) => void }): Promise<RepoScan> {
  const root = path.resolve(options.root);
  const files = listSourceFilesSync(options);
  const scans: FileScan[] = [];
  const progressEvery = Math.max(1, Math.floor(files.length / 100));
  // Synchronous reads: for many small files they beat the thread pool's open/stat/read/close hops.
  for (let i = 0; i < files.length; i++) {
    const abs = files[i]!;
    const text = readFileSync(abs, 'utf8');
    if (mayMatter(text)) {
      const rel = path.relative(root, abs).split(path.sep).join('/');
      scans.push(scanSource(rel, text, { root, generatedModule: options.generatedModule }));
    }
    const done = i + 1;
    if (options.onProgress && (done % progressEvery === 0 || done === files.length)) {
      options.onProgress(done, files.length);
      // Let the progress line reach the terminal.
      if (done % (progressEvery * 10) === 0) await new Promise((r) => setImmediate(r));
    }
  }
  return { root, filesConsidered: files.length, files: scans };
}
