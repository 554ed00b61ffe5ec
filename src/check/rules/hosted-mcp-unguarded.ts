import type { FileScan, OptionProperty, Span } from '../../scan/types.js';
import type { PolicyAction } from '../../policy/types.js';
import { yamlScalar } from '../../manifest/yaml-scalar.js';
import type { Finding, ProjectContext, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';
import { capitalized, doorWriteText, unresolvedHint, unresolvedWriteText } from '../../scan/door-write-text.js';
import { hostedLabelsOf } from '../../scan/names.js';

export const hostedMcpUnguardedMeta: RuleMeta = {
  id: 'hosted-mcp-unguarded',
  severity: 'error',
  short: 'hostedMcpTool() whose calls can run with no approval the policy answers.',
  full: "A hosted MCP tool runs on the model provider's side; the SDK defaults `requireApproval` to `'never'`, so every tool of that server runs with no human and no policy. A tool listed in `requireApproval.never` is never shown to the policy either, so it is reported unless the server's action always allows (with no policy loaded, check says it cannot tell). A hand-written `onApproval` answers each request inline: it cannot wait for a person and records nothing. `protectHostedMcp(...)` from the generated module is not reported. The object `hostedMcpTool()` returns, written by hand (`{ type: 'hosted_tool', providerData: { type: 'mcp', require_approval, on_approval } }`), is read the same way: the SDK sends its `providerData` as it is. The approval a hosted MCP tool was made with, turned off in the tool afterwards (its `providerData` replaced, `providerData.require_approval` set to other than 'always', `providerData.on_approval` set), is reported there.",
  help: 'Use `protectHostedMcp({ serverLabel, ... })` from the generated module (no `requireApproval`, no `onApproval`), with `- hosted_mcp: { server_label }` mapped to an action in ctrlrun.tools.yaml; `npx ctrlrun-gen codemod --write` rewrites it.',
};

/**
 * `hosted-mcp-unguarded`: `hostedMcpTool` whose calls can run with no approval request the policy
 * answers: no `requireApproval` or `'never'`; a `never` list holding a tool the server's action does
 * not always allow; a hand-written `onApproval` (it answers inline: no person, no record).
 * `protectHostedMcp(...)` is not reported (it is not the SDK's factory).
 */
export function hostedMcpUnguardedRule(scan: FileScan, project: ProjectContext | undefined): Finding[] {
  const calls = scan.hostedMcpCalls.flatMap((call) => callFindings(scan.file, call, project, FACTORY));
  const literals = (scan.literalDoors ?? []).flatMap((d) => (d.door === 'hosted_mcp' ? literalFindings(scan.file, d, project) : []));
  return [...calls, ...literals, ...approvalDropped(scan)];
}

/** A hosted MCP tool's approval turned off after it was made (file/door-writes.ts). */
function approvalDropped(scan: FileScan): Finding[] {
  return (scan.doorWrites ?? [])
    .filter((d) => d.door === 'hostedMcpTool' || d.door === 'protectHostedMcp')
    .map((d) => {
      if (d.unresolved)
        return findingOf(
          hostedMcpUnguardedMeta,
          scan.file,
          d.span,
          unresolvedWriteText(d, 'the SDK sends `providerData` to the model provider as it is, so its calls may run with no approval the policy answers'),
          unresolvedHint(hostedMcpUnguardedMeta.id),
        );
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

/** How the findings name the tool and its options: the factory's, or the keys `providerData` writes. */
interface Wording {
  what: string;
  requireApproval: string;
  onApproval: string;
}
const FACTORY: Wording = { what: 'hostedMcpTool()', requireApproval: 'requireApproval', onApproval: 'onApproval' };
const LITERAL: Wording = { what: 'A hosted MCP tool written as an object literal', requireApproval: 'require_approval', onApproval: 'on_approval' };

/** What a hosted MCP tool's findings read of it: the factory's call, or an object literal read as one. */
type HostedMcpCall = Pick<
  FileScan['hostedMcpCalls'][number],
  'span' | 'options' | 'serverLabel' | 'serverLabels' | 'neverToolNames' | 'spreadAfterRequireApproval'
>;

/**
 * `{ type: 'hosted_tool', providerData: { type: 'mcp', ... } }`: the SDK sends `providerData` as it
 * is, so its `require_approval` (absent: 'never', as the SDK reads it) and `on_approval` are the
 * factory's `requireApproval` and `onApproval`; a `never` list is not read (every one is reported).
 */
function literalFindings(file: string, d: NonNullable<FileScan['literalDoors']>[number], project: ProjectContext | undefined): Finding[] {
  if (!d.providerData) {
    const message = `${LITERAL.what}: its \`providerData\` is not an object literal check can read, so its calls may run with no approval.`;
    return [findingOf(hostedMcpUnguardedMeta, file, d.span, message, hint(undefined, LITERAL))];
  }
  const p = d.providerData.properties;
  const properties: Record<string, OptionProperty> = {};
  if (p.require_approval) properties.requireApproval = p.require_approval;
  if (p.on_approval) properties.onApproval = p.on_approval;
  const call: HostedMcpCall = { span: d.span, options: { ...d.providerData, properties }, ...pick(d) };
  return callFindings(file, call, project, LITERAL);
}

const pick = (d: NonNullable<FileScan['literalDoors']>[number]) => ({
  ...(d.serverLabel !== undefined ? { serverLabel: d.serverLabel } : {}),
  ...(d.spreadAfterRequireApproval ? { spreadAfterRequireApproval: d.spreadAfterRequireApproval } : {}),
});

function hint(label: string | undefined, w: Wording = FACTORY): string {
  const codemod = w === FACTORY ? '`npx ctrlrun-gen codemod --write` rewrites it' : 'the codemod does not rewrite an object literal';
  return `Use \`protectHostedMcp({ serverLabel${label !== undefined ? `: '${label}'` : ''}, ... })\` from the generated module (no requireApproval, no onApproval), with \`- hosted_mcp: { server_label }\` mapped to an action in ctrlrun.tools.yaml; ${codemod}.`;
}

/** One call's findings: a hand-written `onApproval`, then what its `requireApproval` leaves unasked. */
function callFindings(file: string, call: HostedMcpCall, project: ProjectContext | undefined, w: Wording): Finding[] {
  const prop = call.options.properties.requireApproval;
  const labels = hostedLabelsOf(call);
  const label = labels.length > 0 ? ` for ${labels.map((l) => `'${l}'`).join(', ')}` : '';
  const at = (span: Pick<Span, 'line' | 'column'>, message: string): Finding =>
    findingOf(hostedMcpUnguardedMeta, file, span, message, hint(call.serverLabel, w));
  const findings: Finding[] = [];
  const onApproval = call.options.properties.onApproval;
  if (onApproval) {
    findings.push(
      at(
        onApproval.span,
        `${w.what}${label}: a hand-written \`${w.onApproval}\` answers each approval request inline: it cannot wait for a person, records no approver and no receipt.`,
      ),
    );
  }
  if (prop?.valueKind === 'string' && prop.stringValue === 'always') {
    if (call.spreadAfterRequireApproval) {
      findings.push(
        at(
          call.spreadAfterRequireApproval,
          `${w.what}${label}: a spread after \`${w.requireApproval}: 'always'\` can override it (the last property wins), so check cannot tell that any call asks for approval.`,
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
        ? `${w.what}${label}: \`${w.requireApproval}\` is not 'always', so some of the server's tools run with no approval.`
        : `${w.what}${label} has no \`${w.requireApproval}\`: the SDK defaults it to 'never', so every tool of the server runs with no approval.`,
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
