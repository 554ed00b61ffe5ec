// STUB: the policy helper replaces the bodies; the signatures are the contract others code against.
import type { Diagnostic } from '../diagnostics.js';
import type { Policy } from './types.js';

/** The result of loading a YAML file: a value when there are no errors, and every diagnostic found. */
export interface LoadResult<T> {
  value?: T;
  diagnostics: Diagnostic[];
  /** The file's text (for code frames). */
  source: string;
}

/** Pure: parses and checks `ctrlrun.yaml` text. Never throws for any input text. */
export function parsePolicy(text: string, file: string): LoadResult<Policy> {
  void text;
  void file;
  throw new Error('not implemented yet');
}

/** Reads and parses a policy file; a missing/unreadable file is a diagnostic, not a throw. */
export function loadPolicyFile(file: string): LoadResult<Policy> {
  void file;
  throw new Error('not implemented yet');
}
