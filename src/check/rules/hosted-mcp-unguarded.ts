import type { FileScan } from '../../scan/types.js';
import type { PolicyAction } from '../../policy/types.js';
import { yamlScalar } from './finding.js';
import type { Finding, ProjectContext, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';

export const hostedMcpUnguardedMeta: RuleMeta = {
  id: 'hosted-mcp-unguarded',
  severity: 'error',
  short: 'hostedMcpTool() whose calls can run with no approval the policy answers.',
  full:
    'A hosted MCP tool runs on the model provider\'s side; the SDK defaults `requireApproval` to `\'never\'`, so every tool of that server runs with no human and no policy. A tool listed in `requireApproval.never` is never shown to the policy either, so it is reported unless the server\'s action always allows (with no policy loaded, check says it cannot tell). A hand-written `onApproval` answers each request inline: it cannot wait for a person and records nothing. `protectHostedMcp(...)` from the generated module is not reported.',
  help: 'Use `protectHostedMcp({ serverLabel, ... })` from the generated module (no `requireApproval`, no `onApproval`), with `- hosted_mcp: { server_label }` mapped to an action in ctrlrun.tools.yaml; `npx ctrlrun-gen codemod --write` rewrites it.',
};

/**
 * `hosted-mcp-unguarded`: `hostedMcpTool` whose calls can run with no approval request the policy
 * answers: no `requireApproval` or `'never'`; a `never` list holding a tool the server's action does
 * not always allow; a hand-written `onApproval` (it answers inline: no person, no record).
 * `protectHostedMcp(...)` is not reported (it is not the SDK's factory).
 */
export function hostedMcpUnguardedRule(scan: FileScan, project: ProjectContext | undefined): Finding[] {
  const findings: Finding[] = [];
  const hint = (label: string | undefined) =>
    `Use \`protectHostedMcp({ serverLabel${label !== undefined ? `: '${label}'` : ''}, ... })\` from the generated module (no requireApproval, no onApproval), with \`- hosted_mcp: { server_label }\` mapped to an action in ctrlrun.tools.yaml; \`npx ctrlrun-gen codemod --write\` rewrites it.`;
  for (const call of scan.hostedMcpCalls) {
    const prop = call.options.properties.requireApproval;
    const label = call.serverLabel !== undefined ? ` for '${call.serverLabel}'` : '';
    const onApproval = call.options.properties.onApproval;
    if (onApproval) {
      findings.push(
        findingOf(
          hostedMcpUnguardedMeta,
          scan.file,
          onApproval.span,
          `hostedMcpTool()${label}: a hand-written \`onApproval\` answers each approval request inline: it cannot wait for a person, records no approver and no receipt.`,
          hint(call.serverLabel),
        ),
      );
    }
    if (prop?.valueKind === 'string' && prop.stringValue === 'always') {
      if (call.spreadAfterRequireApproval) {
        findings.push(
          findingOf(
            hostedMcpUnguardedMeta,
            scan.file,
            call.spreadAfterRequireApproval,
            `hostedMcpTool()${label}: a spread after \`requireApproval: 'always'\` can override it (the last property wins), so check cannot tell that any call asks for approval.`,
            hint(call.serverLabel),
          ),
        );
      }
      continue;
    }
    const never = call.neverToolNames;
    if (prop && never) {
      const action = project && call.serverLabel !== undefined ? hostedAction(project, call.serverLabel) : undefined;
      const allows = action ? alwaysAllows(action) : false;
      const why = !project
        ? 'check has no policy (the manifest or policy did not load), so it cannot tell whether the policy always allows it'
        : call.serverLabel === undefined
          ? 'the server label is not a literal, so check cannot find its action'
          : !action
            ? `the manifest maps no action to server '${call.serverLabel}' (\`- hosted_mcp: { server_label: ${yamlScalar(call.serverLabel)} }\`), so check cannot tell whether the policy always allows it`
            : `the policy does not always allow ${action.id}`;
      if (!never.complete) {
        findings.push(
          findingOf(
            hostedMcpUnguardedMeta,
            scan.file,
            never.span,
            `hostedMcpTool()${label}: \`requireApproval.never\` lists tools check cannot read (not string literals): they run at OpenAI with no approval request.`,
            hint(call.serverLabel),
          ),
        );
      }
      if (allows || never.names.length === 0) continue;
      for (const n of never.names) {
        findings.push(
          findingOf(
            hostedMcpUnguardedMeta,
            scan.file,
            n.span,
            `hostedMcpTool()${label}: '${n.name}' is in \`requireApproval.never\`, so OpenAI runs it with no approval request and the policy never sees it; ${why}.`,
            hint(call.serverLabel),
          ),
        );
      }
      continue;
    }
    findings.push(
      findingOf(
        hostedMcpUnguardedMeta,
        scan.file,
        prop?.span ?? call.span,
        prop
          ? `hostedMcpTool()${label}: \`requireApproval\` is not 'always', so some of the server's tools run with no approval.`
          : `hostedMcpTool()${label} has no \`requireApproval\`: the SDK defaults it to 'never', so every tool of the server runs with no approval.`,
        hint(call.serverLabel),
      ),
    );
  }
  return findings;
}

/** The policy action the manifest maps a hosted MCP server label to. */
function hostedAction(project: ProjectContext, label: string): PolicyAction | undefined {
  const entry = project.manifest.tools.find((t) => t.kind === 'hosted_mcp' && t.serverLabel === label);
  return entry && Object.hasOwn(project.policy.actions, entry.action) ? project.policy.actions[entry.action] : undefined;
}

/** Whether every call of the action is allowed with no person: rules up to a catch-all are all `allow`. */
export function alwaysAllows(action: PolicyAction): boolean {
  for (const rule of action.rules) {
    if (rule.decision !== 'allow') return false;
    if (rule.when.length === 0) return true;
  }
  return false;
}
