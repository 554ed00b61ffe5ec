import type { FileScan, Span } from '../../scan/types.js';
import type { PolicyAction } from '../../policy/types.js';
import { yamlScalar } from '../../manifest/yaml-scalar.js';
import type { Finding, ProjectContext, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';
import { capitalized, doorWriteText } from './door-write-text.js';
import { hostedLabelsOf } from '../../scan/names.js';

export const hostedMcpUnguardedMeta: RuleMeta = {
  id: 'hosted-mcp-unguarded',
  severity: 'error',
  short: 'hostedMcpTool() whose calls can run with no approval the policy answers.',
  full: "A hosted MCP tool runs on the model provider's side; the SDK defaults `requireApproval` to `'never'`, so every tool of that server runs with no human and no policy. A tool listed in `requireApproval.never` is never shown to the policy either, so it is reported unless the server's action always allows (with no policy loaded, check says it cannot tell). A hand-written `onApproval` answers each request inline: it cannot wait for a person and records nothing. `protectHostedMcp(...)` from the generated module is not reported. The approval a hosted MCP tool was made with, turned off in the tool afterwards (its `providerData` replaced, `providerData.require_approval` set to other than 'always', `providerData.on_approval` set), is reported there: the SDK sends `providerData` as it is.",
  help: 'Use `protectHostedMcp({ serverLabel, ... })` from the generated module (no `requireApproval`, no `onApproval`), with `- hosted_mcp: { server_label }` mapped to an action in ctrlrun.tools.yaml; `npx ctrlrun-gen codemod --write` rewrites it.',
};

/**
 * `hosted-mcp-unguarded`: `hostedMcpTool` whose calls can run with no approval request the policy
 * answers: no `requireApproval` or `'never'`; a `never` list holding a tool the server's action does
 * not always allow; a hand-written `onApproval` (it answers inline: no person, no record).
 * `protectHostedMcp(...)` is not reported (it is not the SDK's factory).
 */
export function hostedMcpUnguardedRule(scan: FileScan, project: ProjectContext | undefined): Finding[] {
  return [...scan.hostedMcpCalls.flatMap((call) => callFindings(scan.file, call, project)), ...approvalDropped(scan)];
}

/** A hosted MCP tool's approval turned off after it was made (file/door-writes.ts). */
function approvalDropped(scan: FileScan): Finding[] {
  return (scan.doorWrites ?? [])
    .filter((d) => d.door === 'hostedMcpTool' || d.door === 'protectHostedMcp')
    .map((d) => {
      const what = d.inner !== undefined ? `\`${d.target ?? 'the tool'}.providerData.${d.inner}\` is written` : capitalized(doorWriteText(d));
      return findingOf(
        hostedMcpUnguardedMeta,
        scan.file,
        d.span,
        `${what} after ${d.door}(): the SDK sends \`providerData\` to the model provider as it is, so ${d.inner === 'on_approval' ? 'an inline answer replaces the approval the policy gives' : 'its calls may run with no approval the policy answers'}.`,
        d.door === 'protectHostedMcp'
          ? 'Keep the tool protectHostedMcp returns as it is: it asks for approval of every call, which the policy answers.'
          : hint(undefined),
      );
    });
}

type HostedMcpCall = FileScan['hostedMcpCalls'][number];

function hint(label: string | undefined): string {
  return `Use \`protectHostedMcp({ serverLabel${label !== undefined ? `: '${label}'` : ''}, ... })\` from the generated module (no requireApproval, no onApproval), with \`- hosted_mcp: { server_label }\` mapped to an action in ctrlrun.tools.yaml; \`npx ctrlrun-gen codemod --write\` rewrites it.`;
}

/** One call's findings: a hand-written `onApproval`, then what its `requireApproval` leaves unasked. */
function callFindings(file: string, call: HostedMcpCall, project: ProjectContext | undefined): Finding[] {
  const prop = call.options.properties.requireApproval;
  const labels = hostedLabelsOf(call);
  const label = labels.length > 0 ? ` for ${labels.map((l) => `'${l}'`).join(', ')}` : '';
  const at = (span: Pick<Span, 'line' | 'column'>, message: string): Finding => findingOf(hostedMcpUnguardedMeta, file, span, message, hint(call.serverLabel));
  const findings: Finding[] = [];
  const onApproval = call.options.properties.onApproval;
  if (onApproval) {
    findings.push(
      at(
        onApproval.span,
        `hostedMcpTool()${label}: a hand-written \`onApproval\` answers each approval request inline: it cannot wait for a person, records no approver and no receipt.`,
      ),
    );
  }
  if (prop?.valueKind === 'string' && prop.stringValue === 'always') {
    if (call.spreadAfterRequireApproval) {
      findings.push(
        at(
          call.spreadAfterRequireApproval,
          `hostedMcpTool()${label}: a spread after \`requireApproval: 'always'\` can override it (the last property wins), so check cannot tell that any call asks for approval.`,
        ),
      );
    }
    return findings;
  }
  const never = call.neverToolNames;
  if (prop && never) return [...findings, ...neverListFindings(call, never, label, project, at)];
  findings.push(
    at(
      prop?.span ?? call.span,
      prop
        ? `hostedMcpTool()${label}: \`requireApproval\` is not 'always', so some of the server's tools run with no approval.`
        : `hostedMcpTool()${label} has no \`requireApproval\`: the SDK defaults it to 'never', so every tool of the server runs with no approval.`,
    ),
  );
  return findings;
}

/** A `requireApproval.never` list: entries check cannot read, and each tool in it unless the server's action always allows. */
function neverListFindings(
  call: HostedMcpCall,
  never: NonNullable<HostedMcpCall['neverToolNames']>,
  label: string,
  project: ProjectContext | undefined,
  at: (span: Pick<Span, 'line' | 'column'>, message: string) => Finding,
): Finding[] {
  const findings: Finding[] = [];
  const labels = hostedLabelsOf(call);
  const actions = project ? labels.map((l) => hostedAction(project, l)) : [];
  const action = actions.length === 1 ? actions[0] : undefined;
  // every label the call can get maps to an action that always allows
  const allows = actions.length > 0 && actions.every((a) => a !== undefined && alwaysAllows(a));
  if (!never.complete) {
    findings.push(
      at(
        never.span,
        `hostedMcpTool()${label}: \`requireApproval.never\` lists tools check cannot read (not string literals): they run at OpenAI with no approval request.`,
      ),
    );
  }
  if (allows || never.names.length === 0) return findings;
  const why = whyNotAllowed(call, action, project);
  for (const n of never.names) {
    findings.push(
      at(
        n.span,
        `hostedMcpTool()${label}: '${n.name}' is in \`requireApproval.never\`, so OpenAI runs it with no approval request and the policy never sees it; ${why}.`,
      ),
    );
  }
  return findings;
}

/** Why check cannot say the policy always allows the server's tools. */
function whyNotAllowed(call: HostedMcpCall, action: PolicyAction | undefined, project: ProjectContext | undefined): string {
  if (!project) return 'check has no policy (the manifest or policy did not load), so it cannot tell whether the policy always allows it';
  if (call.serverLabel === undefined) return 'the server label is not a literal, so check cannot find its action';
  if (!action)
    return `the manifest maps no action to server '${call.serverLabel}' (\`- hosted_mcp: { server_label: ${yamlScalar(call.serverLabel)} }\`), so check cannot tell whether the policy always allows it`;
  return `the policy does not always allow ${action.id}`;
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
