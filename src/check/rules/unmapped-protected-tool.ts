import type { FileScan } from '../../scan/types.js';
import { sdkToolName } from '../../runtime/tool-name.js';
import { computedEntryAt, siteLabel } from '../../manifest/computed.js';
import type { Finding, ProjectContext, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';

export const unmappedProtectedToolMeta: RuleMeta = {
  id: 'unmapped-protected-tool',
  severity: 'error',
  short: 'protectedTool() gives a tool a name ctrlrun.tools.yaml does not map.',
  full: "The manifest is where a tool is given its action. A `protectedTool('<action>', { name })` whose `name` no entry maps lets code pick any action for any tool, a permissive one (`decision: allow`) included: the policy's rules for that action then decide calls of a tool they were never written for, and a review of ctrlrun.tools.yaml does not show it. Names are compared as the SDK sanitizes them. A `protectedTool` whose name the code computes is mapped by its place (`tool: { at: <file>, in: <declaration> }`): one no entry maps, or whose entry names another action, is reported too.",
  help: "Map the tool in ctrlrun.tools.yaml (`- tool: <name>` with `action: <id>`) to the action it should have, or use that action's existing tool name.",
};

/** `unmapped-protected-tool`: a protectedTool call whose literal tool name no manifest entry maps, or whose computed name's place none maps to its action. */
export function unmappedProtectedToolRule(scan: FileScan, project: ProjectContext | undefined): Finding[] {
  if (!project) return [];
  const mapped = new Set(project.manifest.tools.flatMap((t) => (t.kind === 'function' ? [sdkToolName(t.tool)] : [])));
  const out: Finding[] = [];
  for (const call of scan.protectedToolCalls) {
    const name = call.name;
    if (name === undefined && call.action !== undefined && Object.hasOwn(project.policy.actions, call.action)) {
      const found = computedFinding(scan.file, call, project);
      if (found) out.push(found);
      continue;
    }
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

/**
 * A `protectedTool` whose name the code computes is mapped by its place (`tool: { at }`, issue 40,
 * item 5): one with no such entry, or an entry of another action, is the code choosing the action.
 */
function computedFinding(file: string, call: FileScan['protectedToolCalls'][number], project: ProjectContext): Finding | undefined {
  const entry = computedEntryAt(project.manifest, file, call.container);
  if (entry?.action === call.action) return undefined;
  const at = call.options.properties.name?.span ?? call.callee;
  return findingOf(
    unmappedProtectedToolMeta,
    file,
    at,
    entry
      ? `protectedTool('${call.action}') builds tools whose names are computed, and ctrlrun.tools.yaml maps this place (\`at: ${siteLabel(entry.at)}\`) to action '${entry.action}': the code, not the manifest, chose the action that decides their calls.`
      : `protectedTool('${call.action}') builds tools whose names are computed, and no entry of ctrlrun.tools.yaml maps this place: the code, not the manifest, chose the action that decides their calls.`,
    entry
      ? `Use protectedTool('${entry.action}', …), or change the entry's \`action:\`.`
      : `Add \`- tool: { at: ${file}${call.container !== undefined ? `, in: ${call.container}` : ''}, names: "<pattern>" }\` with \`action: ${call.action}\` under \`tools:\` in ctrlrun.tools.yaml.`,
  );
}
