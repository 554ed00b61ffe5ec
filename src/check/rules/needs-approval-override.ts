import type { FileScan } from '../../scan/types.js';
import type { Finding, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';

export const needsApprovalOverrideMeta: RuleMeta = {
  id: 'needs-approval-override',
  severity: 'error',
  short: '`needsApproval` passed to protectedTool() overrides the policy.',
  full: "A protected tool's approvals come from the policy; a `needsApproval` in its options would replace the policy's decision with the code's, out of sight of the policy file and its hash.",
  help: 'Remove `needsApproval` and express the condition as a rule with `decision: approve` in ctrlrun.yaml.',
};

/** `needs-approval-override`: `needsApproval` passed to `protectedTool`. */
export function needsApprovalOverrideRule(scan: FileScan): Finding[] {
  const findings: Finding[] = [];
  for (const call of scan.protectedToolCalls) {
    const prop = call.options.properties.needsApproval;
    if (!prop) continue;
    findings.push(
      findingOf(
        needsApprovalOverrideMeta,
        scan.file,
        prop.span,
        `\`needsApproval\` passed to protectedTool(${call.action !== undefined ? `'${call.action}'` : ''}): the policy decides approvals; this would override it.`,
        'Remove `needsApproval` and express the condition as a rule with `decision: approve` in ctrlrun.yaml.',
      ),
    );
  }
  return findings;
}
