import type { FileScan, RepoScan } from './types.js';
import { scanSource as scanSourceWith, type ScanSourceOptions } from './scan-source.js';
import { scanRepoFiles, scanRepoFilesSync, scanRepoIndexedSync, type RepoIndex } from './repo.js';
import type { RepoRead } from './read.js';

export type { ScanSourceOptions } from './scan-source.js';
export { listSourceFiles, PREFILTER_TOKENS, mayMatter, readSource, readSourceText } from './repo.js';
export { encodeSource, type SourceEncoding } from './decode.js';
export { treeOf } from './scan-source.js';
export { startRepoRead, type PendingRepoRead } from './parallel-read.js';
export { listedTextReader, type RepoRead } from './read.js';
export type { RepoIndex } from './repo.js';

export interface ScanOptions {
  /** Absolute repo root (scan paths are relative to it). */
  root: string;
  /** Files or directories to scan (absolute or relative to root); default: the whole root. */
  paths?: string[];
  /** Absolute path of the generated module, which is never scanned. */
  generatedModule?: string;
  /** Called with (done, total) while scanning, for a progress line. */
  onProgress?: (done: number, total: number) => void;
  /** The repo listed and read ahead for the same root and paths (see `startRepoRead`). */
  read?: RepoRead;
}

/**
 * Scans one file's text (pure). `file` is the path recorded in the result. With `options.root` and
 * `options.generatedModule`, imports of the generated module are recognised by resolved path;
 * otherwise `protectedTool` imported from any relative specifier counts.
 */
export function scanSource(file: string, text: string, options?: ScanSourceOptions): FileScan {
  return scanSourceWith(file, text, options);
}

/**
 * Lists candidate files (what git tracks, untracked files .gitignore does not exclude; never
 * node_modules or the generated module), prefilters by text, parses the rest, following barrels,
 * aliases and workspace packages that lead to the SDK.
 */
export async function scanRepo(options: ScanOptions): Promise<RepoScan> {
  return scanRepoFiles(options);
}

/** `scanRepo`, synchronously (no progress). */
export function scanRepoSync(options: Omit<ScanOptions, 'onProgress'>): RepoScan {
  return scanRepoFilesSync(options);
}

/** `scanRepoSync`, with the index a one-file front end (the ESLint plugin) rescans an edited file's text with. */
export function scanRepoIndexed(options: Omit<ScanOptions, 'onProgress' | 'read'>): { scan: RepoScan; index: RepoIndex } {
  return scanRepoIndexedSync(options);
}
