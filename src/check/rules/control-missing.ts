import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Manifest } from '../../manifest/types.js';
import type { Finding, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';

export const controlMissingMeta: RuleMeta = {
  id: 'control-missing',
  severity: 'error',
  short: "The manifest's control module, which the generated module imports, does not exist.",
  full: "The generated module imports the operator's control (the manifest's `control:`, `src/ctrlrun.control.ts` by default), where approvals, effects and receipts are kept. When that file is not there (moved, deleted, a manifest written by hand), every type check of the generated module fails (TS2307) and the app does not start (ERR_MODULE_NOT_FOUND), though the tools look protected. `generate` and `check --fix` still write the module, and say the control is missing.",
  help: 'Create the control module: `npx ctrlrun-gen init --force` writes one where the manifest says (it keeps the actions and mappings already there); or point `control:` in ctrlrun.tools.yaml at your control module.',
};

/** Whether `file` is a regular file (a folder of that name is no module either). */
function isFile(file: string): boolean {
  try {
    return existsSync(file) && statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Whether the manifest's control module is missing (not a file): the rule's question, without its
 * findings, for `generate` and `check --fix`, which only say so.
 */
export function controlIsMissing(manifest: Pick<Manifest, 'control'>, exists: (file: string) => boolean = isFile): boolean {
  return !exists(manifest.control);
}

/**
 * `control-missing` (error): the manifest's control module is not a file, so the generated module's
 * import of it names nothing. Placed at the manifest's `control:` line (`at`, the loader's location;
 * line 1 when the key is left to its default). `relative` makes the paths shown relative.
 */
export function controlMissingRule(
  manifest: Pick<Manifest, 'file' | 'root' | 'control' | 'output'>,
  relative: (file: string) => string,
  at: { line: number; column: number } = { line: 1, column: 1 },
  exists: (file: string) => boolean = isFile,
): Finding[] {
  if (!controlIsMissing(manifest, exists)) return [];
  return [findingOf(controlMissingMeta, relative(manifest.file), at, controlMissingMessage(manifest, relative), controlMissingMeta.help)];
}

/** The sentence `check`, `check --fix` and `generate` say about a missing control. */
export function controlMissingMessage(manifest: Pick<Manifest, 'root' | 'control' | 'output'>, relative: (file: string) => string): string {
  const shown = (f: string) => relative(f).split(path.sep).join('/');
  return `The control module ${shown(manifest.control)} does not exist: the generated module ${shown(manifest.output)} imports it, so the app does not build or start (TS2307, ERR_MODULE_NOT_FOUND).`;
}
