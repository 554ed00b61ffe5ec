import { VERSION } from '../version.js';
import type { RuleMeta } from './types.js';
import { unprotectedToolMeta } from './rules/unprotected-tool.js';
import { unmappedToolMeta } from './rules/unmapped-tool.js';
import { unknownActionMeta } from './rules/unknown-action.js';
import { unsafeErrorFunctionMeta } from './rules/unsafe-error-function.js';
import { stickyApprovalMeta } from './rules/sticky-approval.js';
import { needsApprovalOverrideMeta } from './rules/needs-approval-override.js';
import { hostedMcpUnguardedMeta } from './rules/hosted-mcp-unguarded.js';
import { mcpServerUnguardedMeta } from './rules/mcp-server-unguarded.js';
import { staleGeneratedMeta } from './rules/stale-generated.js';
import { policyInvalidMeta } from './rules/policy-invalid.js';
import { tracingSensitiveDataMeta } from './rules/tracing-sensitive-data.js';
import { parseErrorMeta } from './rules/parse-error.js';
import { invalidSuppressionMeta } from './rules/invalid-suppression.js';
import { unusedSuppressionMeta } from './rules/unused-suppression.js';
import { opaqueToolFactoryMeta } from './rules/opaque-tool-factory.js';
import { objectLiteralToolMeta } from './rules/object-literal-tool.js';
import { invokeReplacedMeta } from './rules/invoke-replaced.js';
import { sdkApprovalMeta } from './rules/sdk-approval.js';
import { unreadableFileMeta } from './rules/unreadable-file.js';
import { unprotectedDoorMeta } from './rules/unprotected-door.js';
import { unprotectedAgentToolMeta } from './rules/unprotected-agent-tool.js';
import { hostedToolUngatedMeta } from './rules/hosted-tool-ungated.js';
import { observeModeMeta } from './rules/observe-mode.js';
import { timeoutWithoutEffectMeta } from './rules/timeout-without-effect.js';
import { generatedImportUnresolvedMeta } from './rules/generated-import-unresolved.js';
import { nodeModuleInBrowserMeta } from './rules/node-module-in-browser.js';
import { mcpFunctionToolMeta } from './rules/mcp-function-tool.js';
import { unmappedProtectedToolMeta } from './rules/unmapped-protected-tool.js';
import { runWithoutContextMeta } from './rules/run-without-context.js';
import { hostedMcpSdkRunMeta } from './rules/hosted-mcp-sdk-run.js';
import { realtimeApprovalUnansweredMeta } from './rules/realtime-approval-unanswered.js';
import { shadowedRuleMeta } from './rules/shadowed-rule.js';
import { contradictoryConditionsMeta } from './rules/contradictory-conditions.js';
import { allowAllActionMeta } from './rules/allow-all-action.js';
import { impossibleConditionMeta } from './rules/impossible-condition.js';
import { alwaysTrueConditionMeta } from './rules/always-true-condition.js';
import { unprotectedSandboxAgentMeta } from './rules/unprotected-sandbox-agent.js';
import { unprotectedHandoffMeta } from './rules/unprotected-handoff.js';

import { mcpCallsRefusedMeta } from './rules/mcp-calls-refused.js';
import { errorFunctionWithoutEffectMeta } from './rules/error-function-without-effect.js';
import { sdkVersionUntestedMeta } from './rules/sdk-version-untested.js';
import { controlMissingMeta } from './rules/control-missing.js';

/** The project's page (SARIF `informationUri`). */
export const DOCS_BASE = 'https://www.npmjs.com/package/ctrlrun-gen';

/** A rule's page, `docs/rules/<id>.md`, as published in the package of this version (SARIF `helpUri`). */
export function ruleDocsUri(id: string): string {
  return `https://unpkg.com/ctrlrun-gen@${VERSION}/docs/rules/${id}.md`;
}

/**
 * Every rule `check` can report, in a fixed order (the SARIF `ruleIndex` is the position here):
 * SPEC §7's first, the lint's own input, then each round's. Each rule's meta lives in its module,
 * src/check/rules/<id>.ts, beside its code and messages (docs/rules/<id>.md is its page); `check`
 * and the ESLint plugin both read them from this list.
 */
export const RULES: readonly RuleMeta[] = [
  unprotectedToolMeta,
  unmappedToolMeta,
  unknownActionMeta,
  unsafeErrorFunctionMeta,
  stickyApprovalMeta,
  needsApprovalOverrideMeta,
  hostedMcpUnguardedMeta,
  mcpServerUnguardedMeta,
  staleGeneratedMeta,
  policyInvalidMeta,
  tracingSensitiveDataMeta,
  parseErrorMeta,
  invalidSuppressionMeta,
  unusedSuppressionMeta,
  opaqueToolFactoryMeta,
  objectLiteralToolMeta,
  invokeReplacedMeta,
  sdkApprovalMeta,
  unreadableFileMeta,
  unprotectedDoorMeta,
  unprotectedAgentToolMeta,
  hostedToolUngatedMeta,
  observeModeMeta,
  timeoutWithoutEffectMeta,
  generatedImportUnresolvedMeta,
  nodeModuleInBrowserMeta,
  mcpFunctionToolMeta,
  unmappedProtectedToolMeta,
  runWithoutContextMeta,
  hostedMcpSdkRunMeta,
  realtimeApprovalUnansweredMeta,
  shadowedRuleMeta,
  contradictoryConditionsMeta,
  allowAllActionMeta,
  impossibleConditionMeta,
  alwaysTrueConditionMeta,
  unprotectedSandboxAgentMeta,
  unprotectedHandoffMeta,

  mcpCallsRefusedMeta,
  errorFunctionWithoutEffectMeta,
  sdkVersionUntestedMeta,
  controlMissingMeta,
];

export const RULE_IDS: readonly string[] = RULES.map((r) => r.id);

export function ruleMeta(id: string): RuleMeta {
  const meta = RULES.find((r) => r.id === id);
  if (!meta) throw new Error(`unknown rule id ${id}`);
  return meta;
}
