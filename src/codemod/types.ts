import type { SourceEncoding } from '../scan/decode.js';
import type { BehaviourChange } from './behaviour.js';
import type { RunLackingContext } from '../scan/context-runs.js';
import type { Policy } from '../policy/types.js';
import type { CalleeBinding } from '../scan/types.js';
import type { TextEdit } from './edits.js';

/** What the codemod found and did, for the summary, `--json` and tests. Paths are absolute. */
export interface Located {
  file: string;
  line: number;
  column: number;
}

/** The other doors the codemod rewrites (besides `tool()`). */
export type DoorKind =
  | 'hostedMcpTool'
  | 'shellTool'
  | 'applyPatchTool'
  | 'computerTool'
  | 'asTool'
  | 'mcpServers'
  | 'getAllMcpTools'
  | 'mcpToFunctionTool'
  | 'SandboxAgent'
  | 'handoff'
  /** A function tool's `invoke`, or an agent's tool sources, replaced (only ever left: door-write-conflicts.ts). */
  | 'tool'
  | 'agent';

/** A door the codemod leaves as it is (one kind of its findings). */
export type DoorLeft = Extract<CodemodFinding, { kind: 'door-left' }>;

export type CodemodFinding =
  /** A door rewritten to the generated module's variant (`to`: what it became); `removed`: options dropped (only ever stricter). */
  | (Located & { kind: 'door-rewritten'; door: DoorKind; name: string; action?: string; to: string; removed: string[] })
  /** A door left as it is, with why and what to do; counted with the conflicts, unmapped, not rewritable or unknown actions. */
  | (Located & {
      kind: 'door-left';
      door: DoorKind;
      name?: string;
      reason: 'unmapped' | 'conflict' | 'unanalysable' | 'unknown-action';
      message: string;
      hint: string;
    })
  /** An SDK tool() rewritten to protectedTool(). */
  | (Located & { kind: 'rewritten'; tool: string; action: string; needsApprovalRemoved: boolean; changes: BehaviourChange[] })
  /**
   * A tool left as it is, and why (`cause`): a hand-written needsApproval the policy would weaken
   * (the default), `generate` leaving the tool unprotected (its declaration cannot be checked
   * against the policy), or the app answering the tool's approvals itself in a way the rewrite
   * would break.
   */
  | (Located & {
      kind: 'conflict';
      tool: string;
      action: string;
      message: string;
      related: Located & { message: string };
      cause?: 'needs-approval' | 'generate' | 'app-approvals';
      /** `app-approvals`: where the app answers (the first few, in file then position order), each to change before the tool can be protected. */
      answers?: Array<Located & { call: string }>;
      /** `app-approvals`: how many answers more than `answers` lists. */
      moreAnswers?: number;
    })
  /** An SDK tool whose name no manifest entry maps. */
  | (Located & { kind: 'unmapped'; tool: string })
  /** An SDK tool whose name cannot be resolved statically (a literal, or a `const` of the file or a relative module). */
  | (Located & { kind: 'no-literal-name'; reason?: string })
  /** The options are not an object literal, or spread other properties in: cannot be checked. */
  | (Located & { kind: 'unanalysable'; tool: string; action: string; message: string })
  /** The manifest maps the tool to an action the policy does not have. */
  | (Located & { kind: 'unknown-action'; tool: string; action: string })
  /** An SDK tool left as it is keeps the SDK's default errorFunction, which turns every error into "try again". */
  | (Located & { kind: 'error-function'; tool?: string; message: string })
  /** A file that does not parse: skipped. */
  | (Located & { kind: 'parse-error'; message: string })
  /** A file or folder the scan could not read or decode: it may hold tools, so it blocks like a parse error. */
  | (Located & { kind: 'unreadable'; message: string; hint?: string });

export interface FileChange {
  /** Absolute path. */
  file: string;
  before: string;
  after: string;
  /** The file's encoding, kept when it is written (default UTF-8 without a byte-order mark). */
  encoding?: SourceEncoding;
}

export interface CodemodSummary {
  /** Source files considered after ignore rules. */
  filesScanned: number;
  /** Files that passed the text test and were parsed. */
  filesParsed: number;
  filesRewritten: number;
  toolsRewritten: number;
  /** Other doors rewritten (hosted MCP, shell, apply_patch, computer, agent tools, MCP servers). */
  doorsRewritten: number;
  alreadyProtected: number;
  conflicts: number;
  unmapped: number;
  noLiteralName: number;
  unanalysable: number;
  unknownActions: number;
  unparseable: number;
  errorFunction: number;
}

export interface CodemodResult {
  root: string;
  changes: FileChange[];
  findings: CodemodFinding[];
  summary: CodemodSummary;
  /**
   * Runs that pass no context the control's identity reads (absolute file paths): every protected
   * call of them is refused (`no_principal`). Named in the summary; the exit code does not change.
   */
  runsWithoutContext?: RunLackingContext[];
  /** 0: every mapped tool protected, no conflict; 1: conflicts, unparseable files or unmapped SDK tools remain. */
  exitCode: 0 | 1;
}

/** What the door rewrites need to know of the project and of the file's imports. */
export interface DoorContext {
  fileAbs: string;
  /** Function tool name → action (an agent tool, a shell or apply_patch tool is mapped by its SDK name). */
  actions: ReadonlyMap<string, string>;
  /** Hosted MCP server labels the manifest maps. */
  hostedLabels: ReadonlySet<string>;
  /** MCP server names the manifest maps (`- mcp: { server, tool }`). */
  mcpServers: ReadonlySet<string>;
  /** Those of them with a mapped tool whose action pins a TLS certificate: built with `fetch: upstreamFetch(name)`. */
  pinnedMcpServers: ReadonlySet<string>;
  /** The manifest maps SandboxAgent capability tools (`- sandbox: { tool }`). */
  sandboxMapped: boolean;
  /** Handoff target agent name → action (`- handoff: { to }`). */
  handoffActions: ReadonlyMap<string, string>;
  policy: Policy;
  /** The text that calls an export of the generated module here (`protectShellTool`, `gen.protectShellTool`). */
  callee: (name: string) => string;
  /** Quotes a string as the file does. */
  quoted: (value: string) => string;
}

/** An SDK factory whose call was replaced (its import may go). */
export interface ReplacedFactory {
  factory: string;
  binding: CalleeBinding;
  start: number;
}

export interface DoorPlan {
  edits: TextEdit[];
  findings: CodemodFinding[];
  /** Exports of the generated module the edits call. */
  used: Set<string>;
  replaced: ReplacedFactory[];
}
