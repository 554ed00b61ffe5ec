import type { FileScan } from '../../scan/types.js';
import { sdkToolName } from '../../runtime/tool-name.js';
import type { Finding, ProjectContext, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';

export const unmappedProtectedToolMeta: RuleMeta = {
  id: 'unmapped-protected-tool',
  severity: 'error',
  short: 'protectedTool() gives a tool a name ctrlrun.tools.yaml does not map.',
  full: "The manifest is where a tool is given its action. A `protectedTool('<action>', { name })` whose `name` no entry maps lets code pick any action for any tool, a permissive one (`decision: allow`) included: the policy's rules for that action then decide calls of a tool they were never written for, and a review of ctrlrun.tools.yaml does not show it. Names are compared as the SDK sanitizes them.",
  help: "Map the tool in ctrlrun.tools.yaml (`- tool: <name>` with `action: <id>`) to the action it should have, or use that action's existing tool name.",
};

/** `unmapped-protected-tool`: a protectedTool call whose literal tool name no manifest entry maps. */
export function unmappedProtectedToolRule(scan: FileScan, project: ProjectContext | undefined): Finding[] {
  if (!project) return [];
  const mapped = new Set(project.manifest.tools.flatMap((t) => (t.kind === 'function' ? [sdkToolName(t.tool)] : [])));
  const out: Finding[] = [];
  for (const call of scan.protectedToolCalls) {
    const name = call.name;
    // an action the policy lacks is unknown-action's finding
    if (name === undefined || call.action === undefined || !Object.hasOwn(project.policy.actions, call.action) || mapped.has(sdkToolName(name))) continue;
    const at = call.options.properties.name?.span ?? call.callee;
    out.push(
      findingOf(
        unmappedProtectedToolMeta,
        scan.file,
        at,
        `protectedTool('${call.action}') builds tool '${name}', which ctrlrun.tools.yaml does not map: the code, not the manifest, chose the action that decides its calls.`,
        `Add \`- tool: ${name}\` with \`action: ${call.action}\` (or the action it should have) under \`tools:\` in ctrlrun.tools.yaml.`,
      ),
    );
  }
  return out;
}
