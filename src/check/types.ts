import type { Manifest } from '../manifest/types.js';
import type { ProtectedDependency, WorkspaceListings } from '../manifest/workspace-dependencies.js';
import type { Policy } from '../policy/types.js';
import type { PackageFacts } from '../scan/package-facts.js';
import type { FileScan } from '../scan/types.js';

export type Severity = 'error' | 'warning';

/** One problem `check` reports. `file` is relative to the working directory, with forward slashes. */
export interface Finding {
  ruleId: string;
  severity: Severity;
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  message: string;
  hint: string;
}

/** What the rules know about the project; absent when the manifest or policy did not load. */
export interface ProjectContext {
  manifest: Manifest;
  policy: Policy;
}

/** A rule over one scanned file. Pure: same inputs, same findings. `file` in findings is the scan's path. */
export type FileRule = (scan: FileScan, project: ProjectContext | undefined) => Finding[];

/** A scanned file and its text, for rules that look at the whole repo. */
export interface ScannedFile {
  scan: FileScan;
  /** Reads the file's text (only called for the few files a repo rule needs). */
  text: () => string;
}

/**
 * What the repo rules read from the disk besides the scans (package folders and builds), asked once
 * and kept: one per `check` run, one per ESLint session.
 */
export interface RepoFacts {
  packages: PackageFacts;
  /** Each workspace root's packages, listed once while the facts are kept (sdk-approval's dependencies). */
  workspaces?: WorkspaceListings;
  /**
   * Files (as scanned) whose imports reach a module declaring a protected tool of another package,
   * by path and not by a package.json dependency, with that package's folder (sdk-approval: issue 40).
   */
  importsProtected?: ReadonlyMap<string, string>;
  /** Answering files (as scanned) whose package depends on packages whose tools are protected, with those packages (sdk-approval: issue 40). */
  protectedDependencies?: ReadonlyMap<string, readonly ProtectedDependency[]>;
}

export type RepoRule = (files: ScannedFile[], project: ProjectContext | undefined, facts?: RepoFacts) => Finding[];

/** The documentation of one rule (also the SARIF `rules[]` entry). */
export interface RuleMeta {
  id: string;
  severity: Severity;
  /** One line. */
  short: string;
  /** One paragraph. */
  full: string;
  /** How to fix it. */
  help: string;
}
