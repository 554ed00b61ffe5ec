import type { FileScan } from '../../scan/types.js';
import type { PolicyAction } from '../../policy/types.js';
import type { Finding, ProjectContext } from '../types.js';
import { findingAt, yamlScalar } from './finding.js';

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
        findingAt(
          'hosted-mcp-unguarded',
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
          findingAt(
            'hosted-mcp-unguarded',
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
          findingAt(
            'hosted-mcp-unguarded',
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
          findingAt(
            'hosted-mcp-unguarded',
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
      findingAt(
        'hosted-mcp-unguarded',
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

/**
 * `mcp-server-unguarded`: an MCP server reaching an agent's `mcpServers` (construction, `clone`,
 * a later assignment or push) that no `protectMcpServer` guards (and the agent is not passed to
 * `protectAgent`, which guards its servers in place); an MCP `errorFunction` other than `null`.
 */
export function mcpServerUnguardedRule(scan: FileScan, project?: ProjectContext): Finding[] {
  const findings: Finding[] = [];
  for (const list of scan.mcpServerLists ?? []) {
    for (const el of list.elements) {
      if (el.status === 'protected' || list.agentProtected) {
        const pinned = project && el.serverName !== undefined && el.fetch !== undefined && el.fetch !== 'upstreamFetch' ? tlsPinnedTool(project, el.serverName) : undefined;
        if (pinned) {
          findings.push(
            findingAt(
              'mcp-server-unguarded',
              scan.file,
              el.span,
              `MCP server '${el.serverName}' is not built with \`fetch: upstreamFetch(...)\`: tool '${pinned.tool}' maps to ${pinned.action}, whose \`upstream\` pins a TLS certificate, so every call of it is refused (upstream_unverified): only the generated module's pinned fetch observes the certificate.`,
              `Build the server with \`fetch: upstreamFetch(${JSON.stringify(el.serverName)})\` from the generated module (Node only; it needs \`undici\`).`,
              'warning',
            ),
          );
        }
        const pausing = project && el.serverName !== undefined ? approvingTool(project, el.serverName) : undefined;
        if (pausing) {
          findings.push(
            findingAt(
              'mcp-server-unguarded',
              scan.file,
              el.span,
              `MCP server '${el.serverName}' is guarded in \`mcpServers\`, where a call cannot pause: tool '${pausing.tool}' maps to ${pausing.action}, which can need a person's approval, so such calls are refused (approval_unavailable).`,
              `Pass the server's tools with \`tools: await protectMcpTools([server])\` instead of \`mcpServers\` when a call must wait for a person, or make ${pausing.action} allow or deny.`,
              'warning',
            ),
          );
        }
        continue;
      }
      const where = list.form === 'clone' ? 'a clone\'s `mcpServers`' : list.form === 'assignment' ? '`mcpServers`, assigned later' : list.form === 'push' ? '`mcpServers`, pushed later' : '`mcpServers`';
      const what = el.text && el.text.length <= 40 ? `\`${el.text}\`` : 'An MCP server';
      findings.push(
        findingAt(
          'mcp-server-unguarded',
          scan.file,
          el.span,
          el.status === 'opaque'
            ? `${what} reaches ${where}, and check cannot follow it to \`protectMcpServer\`: the SDK builds the tools of an unguarded server every turn and runs their calls with no policy.`
            : `${el.text.length <= 40 && el.text ? `MCP server ${what}` : 'An MCP server'} reaches ${where} unguarded: the SDK builds its tools every turn and runs their calls with no policy, no approval and no receipt.`,
          `Wrap it where it reaches the agent: \`protectMcpServer(${el.text && el.text.length <= 40 && !el.text.startsWith('...') ? el.text : 'server'})\` from the generated module, with its tools mapped in ctrlrun.tools.yaml (\`- mcp: { server${el.serverName !== undefined ? `: ${yamlScalar(el.serverName)}` : ''}, tool }\`); use \`protectMcpTools\` when a call must be able to pause for a person.`,
        ),
      );
    }
  }
  for (const ef of scan.mcpErrorFunctions ?? []) {
    findings.push(
      findingAt(
        'mcp-server-unguarded',
        scan.file,
        ef.span,
        ef.where === 'server'
          ? "An MCP server's own `errorFunction` turns a failed call into text for the model, which then retries blind: whether the call acted is hidden (protectMcpTools refuses such a server)."
          : "`mcpConfig.errorFunction` turns every failed MCP call of an unguarded server into text for the model, which then retries blind; whether the call acted is hidden.",
        'Set it to `null` (or remove it from a server `protectMcpServer` guards): this library reports failures itself.',
      ),
    );
  }
  return findings;
}

/** A tool of the server whose action pins a TLS certificate (`upstream.tls_cert_sha256` / `tls_cert_file`), the first in manifest order. */
function tlsPinnedTool(project: ProjectContext, server: string): { tool: string; action: string } | undefined {
  for (const t of project.manifest.tools) {
    if (t.kind !== 'mcp' || t.server !== server || !Object.hasOwn(project.policy.actions, t.action)) continue;
    const pin = project.policy.actions[t.action]!.upstream;
    if ((pin?.tlsCertSha256?.length ?? 0) > 0 || (pin?.tlsCertPems?.length ?? 0) > 0) return { tool: t.tool, action: t.action };
  }
  return undefined;
}

/** A tool of the server whose action can be `approve` (in enforce mode), the first in manifest order. */
function approvingTool(project: ProjectContext, server: string): { tool: string; action: string } | undefined {
  if (project.policy.mode === 'observe') return undefined;
  for (const t of project.manifest.tools) {
    if (t.kind !== 'mcp' || t.server !== server || !Object.hasOwn(project.policy.actions, t.action)) continue;
    if (project.policy.actions[t.action]!.rules.some((r) => r.decision === 'approve')) return { tool: t.tool, action: t.action };
  }
  return undefined;
}

/** `unprotected-agent-tool`: `agent.asTool(...)` of an SDK agent, not made by `protectAgentTool`. */
export function unprotectedAgentToolRule(scan: FileScan, project: ProjectContext | undefined): Finding[] {
  return (scan.agentAsToolCalls ?? []).map((call) => {
    const action = call.toolName !== undefined ? project?.manifest.tools.find((t) => t.kind === 'function' && t.tool === call.toolName)?.action : undefined;
    const named = call.toolName !== undefined ? ` '${call.toolName}'` : '';
    return findingAt(
      'unprotected-agent-tool',
      scan.file,
      call.callee,
      `Agent tool${named} made with \`.asTool()\`: no policy decides its calls, a failure of the nested run reaches the parent model as "Please try again" (it retries and the nested tools may act twice), and the nested run traces its tools' inputs and outputs.`,
      action !== undefined
        ? `Use \`protectAgentTool('${action}', <agent>, { ... })\` from the generated module (without needsApproval); \`npx ctrlrun-gen codemod --write\` rewrites it.`
        : `Use \`protectAgentTool('<action>', <agent>, { ... })\` from the generated module (without needsApproval), with the action in ctrlrun.yaml; map the tool${named} in ctrlrun.tools.yaml and \`npx ctrlrun-gen codemod --write\` rewrites it.`,
    );
  });
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
