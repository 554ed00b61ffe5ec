import type { SourceLocation } from '../policy/types.js';

/** The typed form of `ctrlrun.tools.yaml` (SPEC §3). Paths are absolute, resolved from the manifest's directory. */
export interface Manifest {
  schemaVersion: 1;
  /** Absolute path of the manifest file. */
  file: string;
  /** The repo root: the manifest's directory. */
  root: string;
  /** Absolute path of the policy file. */
  policy: string;
  /** Absolute path of the generated module. */
  output: string;
  /** Absolute path of the operator's control module. */
  control: string;
  tools: ManifestTool[];
}

export type ManifestTool =
  | { kind: 'function'; tool: string; action: string; loc: SourceLocation }
  /**
   * Tools whose name the code computes (`flows.map((f) => tool({ name: f.name, … }))`), mapped by
   * the place of the `tool()` call that makes them (issue 40, item 5): every such call of `at.file`,
   * or those written in its top-level declaration `at.in`; `names` is the pattern their (sanitized)
   * names keep to (`*`: any).
   */
  | { kind: 'computed'; at: ToolSite; names: string; action: string; loc: SourceLocation }
  | { kind: 'mcp'; server: string; tool: string; action: string; loc: SourceLocation }
  | { kind: 'hosted_mcp'; serverLabel: string; action: string; loc: SourceLocation }
  /** A capability tool of SandboxAgents (`sandbox: { tool, agent? }`): of every SandboxAgent, or only of the one named `agent`. */
  | { kind: 'sandbox'; tool: string; agent?: string; action: string; loc: SourceLocation }
  /** A handoff to the agent named `to` (`handoff: { to }`). */
  | { kind: 'handoff'; to: string; action: string; loc: SourceLocation };

/**
 * Where a `tool()` call with a computed name is: a repo-relative file (`/` separated), and the
 * top-level declaration it is written in (`flowTools`, `reportTool`, `default`) when the file has
 * several: a name, not a line, so an import the codemod adds or an edit above does not move it.
 */
export interface ToolSite {
  file: string;
  in?: string;
}
