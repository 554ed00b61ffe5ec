import type { FileRule, RepoRule } from '../types.js';
import { hostedMcpUnguardedRule, mcpServerUnguardedRule, needsApprovalOverrideRule, parseErrorRule, stickyApprovalRule, unprotectedAgentToolRule } from './simple.js';
import { hostedToolUngatedRule, invokeReplacedRule, objectLiteralToolRule, opaqueToolFactoryRule, sdkApprovalRule, unprotectedDoorRule } from './doors.js';
import { toolMappingRule } from './tool-mapping.js';
import { tracingSensitiveDataRule } from './tracing-sensitive-data.js';
import { unknownActionRule } from './unknown-action.js';
import { unsafeErrorFunctionRule } from './unsafe-error-function.js';
import { generatedImportUnresolvedRule } from './generated-import-unresolved.js';
import { nodeModuleInBrowserRule } from './node-module-in-browser.js';
import { mcpFunctionToolRule } from './mcp-function-tool.js';
import { unmappedProtectedToolRule } from './unmapped-protected-tool.js';
import { runWithoutContextRule } from './run-without-context.js';
import { realtimeApprovalUnansweredRule } from './realtime-approval-unanswered.js';
import { observeModeRule, timeoutWithoutEffectRule } from './weak-protection.js';
import { allowAllActionRule } from './allow-all-action.js';
import { contradictoryConditionsRule } from './contradictory-conditions.js';
import { shadowedRuleRule } from './shadowed-rule.js';

export { staleGeneratedRule } from './stale-generated.js';
export { unreadableFindings } from './doors.js';
export { policyInvalidFindings } from './policy-invalid.js';

/** The rules over one parsed file (a file that does not parse gets `parse-error` only). */
export const FILE_RULES: readonly FileRule[] = [
  toolMappingRule,
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
];

export const PARSE_ERROR_RULE: FileRule = parseErrorRule;

export const REPO_RULES: readonly RepoRule[] = [
  tracingSensitiveDataRule,
  sdkApprovalRule,
  observeModeRule,
  nodeModuleInBrowserRule,
  runWithoutContextRule,
  realtimeApprovalUnansweredRule,
  shadowedRuleRule,
  contradictoryConditionsRule,
  allowAllActionRule,
];
