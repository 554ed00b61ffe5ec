import type { FileScan, SdkToolCall } from '../../scan/types.js';
import type { Finding, ProjectContext } from '../types.js';
import { findingAt, quote } from './finding.js';
import { UNRESOLVED_NAME_HINT, unresolvedNameMessage } from '../../scan/names.js';

/**
 * `unprotected-tool` and `unmapped-tool`: exactly one of them for each SDK `tool()` call.
 * - name is a literal mapped in the manifest → `unprotected-tool` (the codemod fixes it);
 * - name is a literal not mapped → `unmapped-tool` (the hint is the manifest entry to add);
 * - name is not a literal (or the manifest did not load) → `unprotected-tool`.
 */
export function toolMappingRule(scan: FileScan, project: ProjectContext | undefined): Finding[] {
  return scan.sdkToolCalls.map((call) => toolMappingFinding(scan.file, call, project));
}

function toolMappingFinding(file: string, call: SdkToolCall, project: ProjectContext | undefined): Finding {
  const callee = call.callee;
  if (call.name === undefined) {
    return findingAt(
      'unprotected-tool',
      file,
      callee,
      `SDK tool() call: ${unresolvedNameMessage(call.nameUnresolved ?? 'it has no `name`')}, and no policy decides its calls.`,
      `${UNRESOLVED_NAME_HINT} Then run \`npx ctrlrun-gen codemod --write\`.`,
    );
  }
  if (!project) {
    return findingAt(
      'unprotected-tool',
      file,
      callee,
      `SDK tool ${quote(call.name)} is not protected: no policy decides its calls.`,
      'Fix the policy or manifest first (see policy-invalid), then map the tool and run `npx ctrlrun-gen codemod --write`.',
    );
  }
  const mapped = project.manifest.tools.find((t) => t.kind === 'function' && t.tool === call.name);
  if (mapped) {
    return findingAt(
      'unprotected-tool',
      file,
      callee,
      `SDK tool ${quote(call.name)} is mapped to action ${quote(mapped.action)} but still built with tool(): the policy never decides its calls.`,
      `Run \`npx ctrlrun-gen codemod --write\` (or \`check --fix\`): it becomes protectedTool(${quote(mapped.action)}, { ... }).`,
    );
  }
  return findingAt(
    'unmapped-tool',
    file,
    callee,
    `SDK tool ${quote(call.name)} has no entry in ctrlrun.tools.yaml: no policy action decides its calls.`,
    `Add to \`tools:\` in ctrlrun.tools.yaml:\n  - tool: ${yamlScalar(call.name)}\n    action: <id>\nwith <id> an action of ctrlrun.yaml, then run \`npx ctrlrun-gen codemod --write\`.`,
  );
}

/** The name as a YAML scalar: plain when that reads back the same, else single-quoted. */
function yamlScalar(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(name) && !/^(true|false|null|yes|no|on|off|~)$/i.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
}
