import type { FileScan } from '../../scan/types.js';
import type { Finding, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';

export const stickyApprovalMeta: RuleMeta = {
  id: 'sticky-approval',
  severity: 'error',
  short: '`alwaysApprove: true` makes one approval authorize every later call of the tool.',
  full: '`state.approve(item, { alwaysApprove: true })` (or `approveTool`) tells the SDK to approve every later call of that tool in the run: calls no human saw. Protected tools refuse such calls (the store has no answer for them), so the run stalls; unprotected tools run them.',
  help: 'Approve each call on its own with the Control: `control.approve(state, item, { approver })`.',
};

/** `sticky-approval`: `alwaysApprove: true` passed to `state.approve` / `approveTool`. */
export function stickyApprovalRule(scan: FileScan): Finding[] {
  return scan.stickyApprovals.map((s) =>
    findingOf(
      stickyApprovalMeta,
      scan.file,
      s.property,
      `\`alwaysApprove: true\` in ${s.method}(): one answer approves every later call of this tool in the run, calls no human saw.`,
      'Approve each call on its own: `control.approve(state, item, { approver })`, without alwaysApprove.',
    ),
  );
}
