/**
 * What the shared scanner (SPEC §6, §7) reports about one source file. The codemod, `check`, the
 * generator (to find a tool's parameters) and `init` all consume this; there is one scanner.
 * Offsets are UTF-16 offsets into the file text (as the TypeScript compiler gives them);
 * lines and columns are 1-based.
 */

export interface Span {
  start: number;
  end: number;
  line: number;
  column: number;
}

/** The SDK modules whose `tool` (and friends) the scanner resolves. */
export type SdkModule = '@openai/agents' | '@openai/agents-core' | '@openai/agents-realtime' | '@openai/agents/realtime';

/** How the callee of an SDK call was bound in the file. */
export interface CalleeBinding {
  module: string;
  /** named: `import { tool as t }`; namespace: `import * as agents` / `agents.tool` / `realtime.tool`;
   *  require: `const { tool } = require(...)`. */
  kind: 'named' | 'namespace' | 'require';
  /** The local identifier used at the call site (`t`, `agents`, `realtime`). */
  localName: string;
}

/** A property of the options object literal. */
export interface OptionProperty {
  span: Span;
  /** Span of the value expression (for a shorthand or method, the whole property). */
  valueSpan: Span;
  /** `true` / `false` / `null` literal, a string literal, or anything else. */
  valueKind: 'true' | 'false' | 'null' | 'string' | 'function' | 'other';
  /** The literal text for string values. */
  stringValue?: string;
}

export interface ToolCallOptions {
  /** Span of the object literal passed as the first argument; absent when it is not a literal. */
  span?: Span;
  /** Properties by name (only those written literally in the object literal). */
  properties: Record<string, OptionProperty>;
  /** The object literal has a spread (`...base`): other properties may come from elsewhere. */
  hasSpread: boolean;
}

/** A call of the SDK's `tool(...)`. */
export interface SdkToolCall {
  kind: 'sdk-tool';
  span: Span;
  /** The callee expression (`tool`, `t`, `agents.tool`), which the codemod replaces. */
  callee: Span;
  binding: CalleeBinding;
  /** The literal `name`, when written as a string literal. */
  name?: string;
  options: ToolCallOptions;
  /** Offset just after the call's `(` (where the codemod inserts the action id). */
  argumentsStart?: number;
  /** The call has type arguments (`tool<Ctx>(...)`). */
  hasTypeArguments?: boolean;
}

/** A call of `protectedTool('<action>', {...})` imported from the generated module. */
export interface ProtectedToolCall {
  kind: 'protected-tool';
  span: Span;
  callee: Span;
  /** The literal action id; absent when not a string literal. */
  action?: string;
  /** The literal `name` in the options, when written as a string literal. */
  name?: string;
  actionSpan?: Span;
  options: ToolCallOptions;
}

export interface HostedMcpCall {
  kind: 'hosted-mcp';
  span: Span;
  binding: CalleeBinding;
  /** `server_label` / `serverLabel` literal if written. */
  serverLabel?: string;
  options: ToolCallOptions;
}

/** `new Agent({ mcpServers: [...] })` (also `Agent.create({...})`). */
export interface AgentMcpServers {
  kind: 'agent-mcp-servers';
  span: Span;
  /** The `mcpServers` property. */
  property: Span;
}

/** `state.approve(item, { alwaysApprove: true })` or `runContext.approveTool(item, { alwaysApprove: true })`. */
export interface StickyApproval {
  kind: 'sticky-approval';
  span: Span;
  method: 'approve' | 'approveTool';
  /** The `alwaysApprove` property. */
  property: Span;
}

/** An import (or require) of the generated module that binds `protectedTool`. */
export interface GeneratedModuleImport {
  span: Span;
  specifier: string;
  localName: string;
  /** `import` declaration or destructuring `require`. */
  syntax?: 'import' | 'require';
}

/** A `// ctrlrun-ignore <rule> -- <reason>` comment. */
export interface SuppressionComment {
  span: Span;
  ruleId: string;
  reason?: string;
}

/** One named binding of an import declaration or a destructuring `require`. */
export interface ImportedName {
  /** The exported name (`tool` in `tool as t`). */
  imported: string;
  /** The local name (`t`). */
  local: string;
  /** Span of the specifier / binding element (`tool as t`). */
  span: Span;
  typeOnly: boolean;
  /** Identifier references to this binding in the file (not counting the import itself). */
  references: number;
}

/** A top-level `import ... from 'm'`, or `const {...} = require('m')` / `const x = require('m')`. */
export interface ModuleImport {
  /** The whole statement. */
  span: Span;
  module: string;
  syntax: 'import' | 'require';
  /** `import type { ... }`. */
  typeOnly: boolean;
  defaultName?: string;
  /** `import * as x` or `const x = require(...)`. */
  namespaceName?: string;
  named: ImportedName[];
  /** Span of the `{ ... }` of named bindings, when present. */
  namedSpan?: Span;
}

export interface FileScan {
  /** Path relative to the scan root, with forward slashes. */
  file: string;
  /** Set when the file does not parse; nothing else is reliable then. */
  parseError?: { line: number; column: number; message: string };
  /** The file imports or requires an SDK module at all. */
  importsSdk: boolean;
  sdkToolCalls: SdkToolCall[];
  protectedToolCalls: ProtectedToolCall[];
  generatedImports: GeneratedModuleImport[];
  hostedMcpCalls: HostedMcpCall[];
  agentMcpServers: AgentMcpServers[];
  stickyApprovals: StickyApproval[];
  /** `setTracingDisabled(true)`, `tracingDisabled: true`, or `traceIncludeSensitiveData: false` appear. */
  disablesSensitiveTracing: boolean;
  suppressions: SuppressionComment[];
  /** Every top-level import / require statement (additive; the codemod edits import lines with it). */
  moduleImports?: ModuleImport[];
  /** `commonjs` when the file uses top-level `require` and no ESM import/export, or is `.cts`/`.cjs`. */
  moduleSyntax?: 'esm' | 'commonjs';
}

export interface RepoScan {
  root: string;
  /** Every file considered (after ignore rules), relative, sorted. */
  filesConsidered: number;
  /** Files that passed the text prefilter and were parsed. */
  files: FileScan[];
}
