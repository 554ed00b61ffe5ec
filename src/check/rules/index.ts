import type { FileRule, RepoRule } from '../types.js';
import { unprotectedToolRule } from './unprotected-tool.js';
import { unmappedToolRule } from './unmapped-tool.js';
import { unknownActionRule } from './unknown-action.js';
import { unsafeErrorFunctionRule } from './unsafe-error-function.js';
import { stickyApprovalRule } from './sticky-approval.js';
import { needsApprovalOverrideRule } from './needs-approval-override.js';
import { hostedMcpSdkRunRule } from './hosted-mcp-sdk-run.js';
import { hostedMcpUnguardedRule } from './hosted-mcp-unguarded.js';
import { mcpServerUnguardedRule } from './mcp-server-unguarded.js';
import { opaqueToolFactoryRule } from './opaque-tool-factory.js';
import { objectLiteralToolRule } from './object-literal-tool.js';
import { invokeReplacedRule } from './invoke-replaced.js';
import { unprotectedDoorRule } from './unprotected-door.js';
import { unprotectedAgentToolRule } from './unprotected-agent-tool.js';
import { unprotectedSandboxAgentRule } from './unprotected-sandbox-agent.js';
import { unprotectedHandoffRule } from './unprotected-handoff.js';
import { hostedToolUngatedRule } from './hosted-tool-ungated.js';
import { timeoutWithoutEffectRule } from './timeout-without-effect.js';
import { generatedImportUnresolvedRule } from './generated-import-unresolved.js';
import { mcpFunctionToolRule } from './mcp-function-tool.js';
import { unmappedProtectedToolRule } from './unmapped-protected-tool.js';
import { parseErrorRule } from './parse-error.js';
import { tracingSensitiveDataRule } from './tracing-sensitive-data.js';
import { sdkApprovalRule } from './sdk-approval.js';
import { observeModeRule } from './observe-mode.js';
import { nodeModuleInBrowserRule } from './node-module-in-browser.js';
import { runWithoutContextRule } from './run-without-context.js';
import { realtimeApprovalUnansweredRule } from './realtime-approval-unanswered.js';
import { shadowedRuleRule } from './shadowed-rule.js';
import { contradictoryConditionsRule } from './contradictory-conditions.js';
import { allowAllActionRule } from './allow-all-action.js';
import { impossibleConditionRule } from './impossible-condition.js';
import { alwaysTrueConditionRule } from './always-true-condition.js';
import { mcpCallsRefusedRule } from './mcp-calls-refused.js';
import { errorFunctionWithoutEffectRule } from './error-function-without-effect.js';
import { sdkVersionUntestedRule } from './sdk-version-untested.js';

/*
 * One module per rule id (src/check/rules/<id>.ts): its meta (the list of check/meta.ts), its
 * code and its messages; its page is docs/rules/<id>.md. The findings check reports without a rule
 * over the scans come from the engine: `stale-generated`, `control-missing`, `policy-invalid`, `unreadable-file`, and
 * the suppressions' own (`invalid-suppression`, `unused-suppression`).
 */
export { staleGeneratedRule } from './stale-generated.js';
export { controlMissingRule } from './control-missing.js';
export { unreadableFindings } from './unreadable-file.js';
export { policyInvalidFindings } from './policy-invalid.js';

/** The rules over one parsed file (a file that does not parse gets `parse-error` only). */
export const FILE_RULES: readonly FileRule[] = [
  unprotectedToolRule,
  unmappedToolRule,
  unknownActionRule,
  unsafeErrorFunctionRule,
  stickyApprovalRule,
  needsApprovalOverrideRule,
  hostedMcpUnguardedRule,
  mcpServerUnguardedRule,
  opaqueToolFactoryRule,
  objectLiteralToolRule,
  invokeReplacedRule,
  unprotectedDoorRule,
  unprotectedAgentToolRule,
  hostedToolUngatedRule,
  timeoutWithoutEffectRule,
  generatedImportUnresolvedRule(),
  mcpFunctionToolRule,
  unmappedProtectedToolRule,
  unprotectedSandboxAgentRule,
  unprotectedHandoffRule,

  mcpCallsRefusedRule,
  errorFunctionWithoutEffectRule,
];

export const PARSE_ERROR_RULE: FileRule = parseErrorRule;

export const REPO_RULES: readonly RepoRule[] = [
  tracingSensitiveDataRule,
  sdkApprovalRule,
  observeModeRule,
  nodeModuleInBrowserRule,
  runWithoutContextRule,
  hostedMcpSdkRunRule,
  realtimeApprovalUnansweredRule,
  shadowedRuleRule,
  contradictoryConditionsRule,
  allowAllActionRule,
  impossibleConditionRule,
  alwaysTrueConditionRule,
  sdkVersionUntestedRule,
];
