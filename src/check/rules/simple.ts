import type { FileScan } from '../../scan/types.js';
import type { Finding } from '../types.js';
import { findingAt } from './finding.js';

/** `sticky-approval`: `alwaysApprove: true` passed to `state.approve` / `approveTool`. */
export function stickyApprovalRule(scan: FileScan): Finding[] {
  return scan.stickyApprovals.map((s) =>
    findingAt(
      'sticky-approval',
      scan.file,
      s.property,
      `\`alwaysApprove: true\` in ${s.method}(): one answer approves every later call of this tool in the run, calls no human saw.`,
      'Approve each call on its own: `control.approve(state, item, { approver })`, without alwaysApprove.',
    ),
  );
}

/** `needs-approval-override`: `needsApproval` passed to `protectedTool`. */
export function needsApprovalOverrideRule(scan: FileScan): Finding[] {
  const findings: Finding[] = [];
  for (const call of scan.protectedToolCalls) {
    const prop = call.options.properties.needsApproval;
    if (!prop) continue;
    findings.push(
      findingAt(
        'needs-approval-override',
        scan.file,
        prop.span,
        `\`needsApproval\` passed to protectedTool(${call.action !== undefined ? `'${call.action}'` : ''}): the policy decides approvals; this would override it.`,
        'Remove `needsApproval` and express the condition as a rule with `decision: approve` in ctrlrun.yaml.',
      ),
    );
  }
  return findings;
}

/** `hosted-mcp-unguarded`: `hostedMcpTool` without `requireApproval: 'always'`. */
export function hostedMcpUnguardedRule(scan: FileScan): Finding[] {
  const findings: Finding[] = [];
  for (const call of scan.hostedMcpCalls) {
    const prop = call.options.properties.requireApproval;
    if (prop?.valueKind === 'string' && prop.stringValue === 'always') continue;
    const label = call.serverLabel !== undefined ? ` for '${call.serverLabel}'` : '';
    findings.push(
      findingAt(
        'hosted-mcp-unguarded',
        scan.file,
        prop?.span ?? call.span,
        prop
          ? `hostedMcpTool()${label}: \`requireApproval\` is not 'always', so some of the server's tools run with no approval.`
          : `hostedMcpTool()${label} has no \`requireApproval\`: the SDK defaults it to 'never', so every tool of the server runs with no approval.`,
        "Pass `requireApproval: 'always'`.",
      ),
    );
  }
  return findings;
}

/** `mcp-server-unguarded` (warning): an Agent given `mcpServers`. */
export function mcpServerUnguardedRule(scan: FileScan): Finding[] {
  return scan.agentMcpServers.map((a) =>
    findingAt(
      'mcp-server-unguarded',
      scan.file,
      a.property,
      'Agent given `mcpServers`: the SDK builds their tools every turn with no approval hook, so no policy decides their calls.',
      'Map the server\'s tools in ctrlrun.tools.yaml (`- mcp: { server, tool }`) and keep destructive tools off MCP servers until `protectAgent` is available.',
    ),
  );
}

/** `parse-error`: the file does not parse. */
export function parseErrorRule(scan: FileScan): Finding[] {
  if (!scan.parseError) return [];
  return [
    findingAt(
      'parse-error',
      scan.file,
      scan.parseError,
      `This file does not parse (${scan.parseError.message}), so it was not checked.`,
      'Fix the syntax error; nothing else in this file is checked until it parses.',
    ),
  ];
}
