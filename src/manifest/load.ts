// STUB: the policy helper replaces the bodies; the signatures are the contract others code against.
import type { LoadResult } from '../policy/load.js';
import type { Policy } from '../policy/types.js';
import type { Manifest } from './types.js';

export const MANIFEST_FILE = 'ctrlrun.tools.yaml';

/** Pure: parses and checks manifest text (paths resolved against the file's directory). Never throws. */
export function parseManifest(text: string, file: string): LoadResult<Manifest> {
  void text;
  void file;
  throw new Error('not implemented yet');
}

/** Searches `ctrlrun.tools.yaml` from `cwd` upward; undefined when there is none. */
export function findManifest(cwd: string): string | undefined {
  void cwd;
  throw new Error('not implemented yet');
}

export interface Project {
  manifest: Manifest;
  policy: Policy;
  /** File text by absolute path, for code frames. */
  sources: Map<string, string>;
}

/**
 * Loads the manifest (found upward from cwd unless given) and its policy (the manifest's `policy`
 * unless overridden), and cross-checks them (every mapped action exists; a tool name maps to one
 * action; output and control inside the repo). Throws `UserError` carrying EVERY diagnostic found.
 */
export function loadProject(options: { cwd: string; manifest?: string; policy?: string }): Project {
  void options;
  throw new Error('not implemented yet');
}
