/** `ctrlrun-gen/runtime`: what generated modules and user code import at run time. */
export type * from './types.js';
export { canonicalJson, canonicalHash } from './canonical.js';
export { GENESIS_HASH, receiptHash } from './receipts-hash.js';
export { normaliseIdentity, checkIdentity, sameIdentity, type IdentityCheck } from './identity.js';

// --- the control and protected tools --------------------------------------------------------
export { createControl, DEFAULT_APPROVAL_TTL_MS, DEFAULT_EFFECT_LEASE_MS, type Control, type ControlOptions, type Identity } from './control.js';
export { bindProtectedTool, type ProtectedTool, type ProtectedToolOptions } from './doors/function-tool.js';
export { run, unwrap } from './run.js';
export type { TelemetryOptions, TelemetryOption, OpenTelemetryApi } from './observe/telemetry.js';
export { eventOfReceipt, type ObservedEvent, type EventKind } from './observe/event.js';
export {
  CtrlrunError,
  ActionDenied,
  ApprovalMismatch,
  DuplicateEffect,
  AmbiguousEffect,
  NotExecuted,
  type ApprovalMismatchReason,
} from './errors.js';
export { verifyReceipts, verifyReceiptChain, type VerifyResult, type ReceiptBreak, type VerifyOptions } from './receipts.js';
export { generateReceiptKey, publicKeyOf, CHECKPOINT_ACTION } from './signing.js';

// --- stores --------------------------------------------------------------------------------
export { memoryStore } from './memory-store.js';
// sqliteStore and postgresStore live behind their own entries, `ctrlrun-gen/runtime/sqlite` and
// `ctrlrun-gen/runtime/postgres`, so that this one imports no Node built-in and no native module
// (browsers, edge runtimes, bundlers).
export { httpStore, type HttpStoreOptions } from './stores/http.js';
export { StoreError, type StoreErrorCode } from './stores/errors.js';

// --- other doors -----------------------------------------------------------------------------
export { bindMcp, mcpToolSchemaHash, prefixedMcpToolName, type McpDoors, type ProtectMcpToolsOptions } from './doors/mcp.js';
export { bindHostedMcp, POLICY_APPROVER, type ProtectHostedMcp, type ProtectHostedMcpOptions } from './doors/hosted-mcp.js';
export {
  bindLocalTools,
  presentShellAction,
  presentPatchOperation,
  presentComputerCall,
  type LocalDoors,
  type ProtectShellToolOptions,
  type ProtectApplyPatchToolOptions,
  type ProtectComputerToolOptions,
} from './doors/local-tools.js';
export {
  bindAgentTools,
  type AgentDoors,
  type AgentToolParameters,
  type ProtectAgentTool,
  type ProtectAgentToolOptions,
  type ProtectAgentToolOptionsWithParameters,
} from './doors/agent-tool.js';
export { bindSandbox, type SandboxDoors } from './doors/sandbox.js';
export { bindHandoffs, type HandoffDoors, type ProtectHandoff } from './doors/handoff.js';
