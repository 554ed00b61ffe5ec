import type { FileScan } from '../../scan/types.js';
import { quote } from './finding.js';
import { isUnmappedCall } from './tool-mapping.js';
import type { Finding, ProjectContext, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';
import { withUnlistedHint } from './unlisted-hint.js';

export const unmappedToolMeta: RuleMeta = {
  id: 'unmapped-tool',
  severity: 'error',
  short: 'An SDK tool() call whose name has no entry in ctrlrun.tools.yaml.',
  full: 'Every tool the model may call must be mapped to a policy action, or no rule ever decides its calls. The finding names the manifest entry to add; once mapped, the codemod protects the call.',
  help: 'Add an entry `- tool: <name>` with `action: <id>` under `tools:` in ctrlrun.tools.yaml (the finding shows it), add the action to ctrlrun.yaml, then run `npx ctrlrun-gen codemod --write`.',
};

/** `unmapped-tool`: an SDK `tool()` call whose literal name the manifest does not map (see tool-mapping.ts). */
export function unmappedToolRule(scan: FileScan, project: ProjectContext | undefined): Finding[] {
  const found = scan.sdkToolCalls
    .filter((call) => isUnmappedCall(call, project))
    .map((call) =>
      findingOf(
        unmappedToolMeta,
        scan.file,
        call.callee,
        `SDK tool ${quote(call.name!)} has no entry in ctrlrun.tools.yaml: no policy action decides its calls.`,
        `Add to \`tools:\` in ctrlrun.tools.yaml:\n  - tool: ${yamlScalar(call.name!)}\n    action: <id>\nwith <id> an action of ctrlrun.yaml, then run \`npx ctrlrun-gen codemod --write\`.`,
      ),
    );
  return withUnlistedHint(scan, found);
}

/** The name as a YAML scalar: plain when that reads back the same, else single-quoted. */
function yamlScalar(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(name) && !/^(true|false|null|yes|no|on|off|~)$/i.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
}
