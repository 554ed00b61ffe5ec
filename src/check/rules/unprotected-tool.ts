import type { FileScan, SdkToolCall } from '../../scan/types.js';
import { computedNameHint, unresolvedNameMessage } from '../../scan/names.js';
import { computedEntryAt, siteLabel } from '../../manifest/computed.js';
import { quote } from './finding.js';
import { isUnmappedCall, mappedEntry } from './tool-mapping.js';
import type { Finding, ProjectContext, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';
import { withUnlistedHint } from './unlisted-hint.js';

export const unprotectedToolMeta: RuleMeta = {
  id: 'unprotected-tool',
  severity: 'error',
  short: 'An SDK tool() call whose name is mapped in ctrlrun.tools.yaml is not a protected variant.',
  full: "The tool is mapped to a policy action, but the code still builds it with the SDK's own `tool()`, so the policy never decides its calls: no approval, no effect key, no receipt. A `tool()` whose `name` cannot be resolved statically (only a string literal, a `const` string of the same file, or a `const` string exported by a relative module can, or a string property of such a `const` object `as const`) is reported here too: map the tools it makes by its place (`tool: { at: <file>, in: <declaration>, names: <pattern> }` in ctrlrun.tools.yaml) and the codemod protects it.",
  help: "Run `npx ctrlrun-gen codemod --write` (or `check --fix`): it rewrites the call to `protectedTool('<action>', { ... })` from the generated module.",
};

/** `unprotected-tool`: an SDK `tool()` call whose name is mapped, not a literal, or with no manifest loaded (see tool-mapping.ts). */
export function unprotectedToolRule(scan: FileScan, project: ProjectContext | undefined): Finding[] {
  const found = scan.sdkToolCalls.filter((call) => !isUnmappedCall(call, project)).map((call) => unprotectedToolFinding(scan.file, call, project));
  return withUnlistedHint(scan, found);
}

function unprotectedToolFinding(file: string, call: SdkToolCall, project: ProjectContext | undefined): Finding {
  const callee = call.callee;
  if (call.name === undefined) {
    // a name the code computes: mapped by the place of the call, or not at all
    const entry = project ? computedEntryAt(project.manifest, file, call.container) : undefined;
    if (entry) {
      return findingOf(
        unprotectedToolMeta,
        file,
        callee,
        `The tools this tool() makes (their names computed) are mapped to action ${quote(entry.action)} by their place (\`at: ${siteLabel(entry.at)}\`) but still built with tool(): the policy never decides their calls.`,
        `Run \`npx ctrlrun-gen codemod --write\` (or \`check --fix\`): it becomes protectedTool(${quote(entry.action)}, { ... }).`,
      );
    }
    return findingOf(
      unprotectedToolMeta,
      file,
      callee,
      `SDK tool() call: ${unresolvedNameMessage(call.nameUnresolved ?? 'it has no `name`')}, and no policy decides its calls.`,
      `${computedNameHint(file, call.container)} Then run \`npx ctrlrun-gen codemod --write\`.`,
    );
  }
  const mapped = project ? mappedEntry(call, project) : undefined;
  if (!mapped) {
    return findingOf(
      unprotectedToolMeta,
      file,
      callee,
      `SDK tool ${quote(call.name)} is not protected: no policy decides its calls.`,
      'Fix the policy or manifest first (see policy-invalid), then map the tool and run `npx ctrlrun-gen codemod --write`.',
    );
  }
  return findingOf(
    unprotectedToolMeta,
    file,
    callee,
    `SDK tool ${quote(call.name)} is mapped to action ${quote(mapped.action)} but still built with tool(): the policy never decides its calls.`,
    `Run \`npx ctrlrun-gen codemod --write\` (or \`check --fix\`): it becomes protectedTool(${quote(mapped.action)}, { ... }).`,
  );
}
