// STUB: the scanner helper replaces the bodies; the signatures are the contract others code against.
import type { FileScan, RepoScan } from './types.js';

export interface ScanOptions {
  /** Absolute repo root (scan paths are relative to it). */
  root: string;
  /** Files or directories to scan (absolute or relative to root); default: the whole root. */
  paths?: string[];
  /** Absolute path of the generated module, which is never scanned. */
  generatedModule?: string;
  /** Called with (done, total) while scanning, for a progress line. */
  onProgress?: (done: number, total: number) => void;
}

/** Scans one file's text (pure). `file` is the path recorded in the result. */
export function scanSource(file: string, text: string): FileScan {
  void file;
  void text;
  throw new Error('not implemented yet');
}

/** Lists candidate files (honouring .gitignore, skipping node_modules, build output and the generated module), prefilters by text, parses the rest. */
export async function scanRepo(options: ScanOptions): Promise<RepoScan> {
  void options;
  throw new Error('not implemented yet');
}
