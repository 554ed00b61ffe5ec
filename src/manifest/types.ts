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
  | { kind: 'mcp'; server: string; tool: string; action: string; loc: SourceLocation }
  | { kind: 'hosted_mcp'; serverLabel: string; action: string; loc: SourceLocation }
  /** A capability tool of SandboxAgents (`sandbox: { tool, agent? }`): of every SandboxAgent, or only of the one named `agent`. */
  | { kind: 'sandbox'; tool: string; agent?: string; action: string; loc: SourceLocation }
  /** A handoff to the agent named `to` (`handoff: { to }`). */
  | { kind: 'handoff'; to: string; action: string; loc: SourceLocation };
