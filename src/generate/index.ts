// STUB: the generator helper replaces the bodies; the signatures are the contract others code against.
import type { Diagnostic } from '../diagnostics.js';
import type { Project } from '../manifest/load.js';

export interface GeneratedModule {
  /** Absolute path the module is written to (the manifest's `output`). */
  path: string;
  text: string;
  /** Warnings (e.g. parameters that cannot be read statically). Errors throw UserError. */
  diagnostics: Diagnostic[];
}

/** Pure with respect to its inputs: reads the repo's tool declarations and renders the module. */
export function renderGeneratedModule(project: Project): GeneratedModule {
  void project;
  throw new Error('not implemented yet');
}
