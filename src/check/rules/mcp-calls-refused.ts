import type { FileScan } from '../../scan/types.js';
import type { Finding, ProjectContext, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';

export const mcpCallsRefusedMeta: RuleMeta = {
  id: 'mcp-calls-refused',
  severity: 'warning',
  short: 'A guarded MCP server whose calls of a mapped action are all refused at run time.',
  full: "The door is closed, but the feature does not work: a server `protectMcpServer` guards (or one of an agent passed to `protectAgent`) refuses the calls of a mapped tool whose action can be `approve` (a tool of `mcpServers` has no way to pause, so such calls are refused `approval_unavailable`; `protectMcpTools` can pause), and, when the server is made in this file, the calls of a mapped tool whose action pins a TLS certificate (`upstream.tls_cert_sha256`, `tls_cert_file`) while the server is built without `fetch: upstreamFetch(...)` (every call is refused `upstream_unverified`: only the generated module's pinned fetch observes the certificate).",
  help: "For calls that must wait for a person, pass the server's tools with `tools: await protectMcpTools([server])` instead of `mcpServers` (or make the action allow or deny); for a pinned action, build the server with `fetch: upstreamFetch(name)` from the generated module.",
};

type McpServerElement = NonNullable<FileScan['mcpServerLists']>[number]['elements'][number];

/**
 * `mcp-calls-refused` (warning): a guarded MCP server (its own guard, or its agent's `protectAgent`)
 * whose mapped tools' actions make every call of theirs a refusal: an action that can be `approve`
 * (the server door cannot pause), a pinned action without the generated module's `upstreamFetch`.
 * Split from `mcp-server-unguarded` (an error) so one rule has one severity in `check` and in ESLint.
 */
export function mcpCallsRefusedRule(scan: FileScan, project: ProjectContext | undefined): Finding[] {
  if (!project) return [];
  const findings: Finding[] = [];
  for (const list of scan.mcpServerLists ?? []) {
    for (const el of list.elements) if (el.status === 'protected' || list.agentProtected) findings.push(...guardedFindings(scan, el, project));
  }
  return findings;
}

function guardedFindings(scan: FileScan, el: McpServerElement, project: ProjectContext): Finding[] {
  const findings: Finding[] = [];
  if (el.serverName === undefined) return findings;
  const pinned = el.fetch !== undefined && el.fetch !== 'upstreamFetch' ? tlsPinnedTool(project, el.serverName) : undefined;
  if (pinned) {
    findings.push(
      findingOf(
        mcpCallsRefusedMeta,
        scan.file,
        el.span,
        `MCP server '${el.serverName}' is not built with \`fetch: upstreamFetch(...)\`: tool '${pinned.tool}' maps to ${pinned.action}, whose \`upstream\` pins a TLS certificate, so every call of it is refused (upstream_unverified): only the generated module's pinned fetch observes the certificate.`,
        `Build the server with \`fetch: upstreamFetch(${JSON.stringify(el.serverName)})\` from the generated module (Node only; it needs \`undici\`).`,
      ),
    );
  }
  const pausing = approvingTool(project, el.serverName);
  if (pausing) {
    findings.push(
      findingOf(
        mcpCallsRefusedMeta,
        scan.file,
        el.span,
        `MCP server '${el.serverName}' is guarded in \`mcpServers\`, where a call cannot pause: tool '${pausing.tool}' maps to ${pausing.action}, which can need a person's approval, so such calls are refused (approval_unavailable).`,
        `Pass the server's tools with \`tools: await protectMcpTools([server])\` instead of \`mcpServers\` when a call must wait for a person, or make ${pausing.action} allow or deny.`,
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
