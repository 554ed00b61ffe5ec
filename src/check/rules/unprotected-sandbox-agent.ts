import type { Manifest } from '../../manifest/types.js';
import type { FileScan, SandboxAgentSite } from '../../scan/types.js';
import type { Finding, ProjectContext, RuleMeta } from '../types.js';
import { quote } from './finding.js';
import { findingOf } from './rule-finding.js';

export const unprotectedSandboxAgentMeta: RuleMeta = {
  id: 'unprotected-sandbox-agent',
  severity: 'error',
  short: 'A SandboxAgent whose capability tools (exec_command, apply_patch, …) no policy decides.',
  full: "A `SandboxAgent` gets `filesystem()`, `shell()` and `compaction()` by default: the model can run shell commands (`exec_command`, `write_stdin`), patch files (`apply_patch`) and read images (`view_image`) in the sandbox, and `skills({ lazyFrom })` or a custom capability add more. The SDK makes these tools anew for every run, with no approval. `protectSandboxAgent(agent)` from the generated module guards each of them where the SDK makes them: every call is decided by the action the manifest maps to the tool's name (`- sandbox: { tool: exec_command }`), paused for a person when the policy says so, run once and recorded. A tool the manifest does not map is denied at run time. A `needsApproval` written in a capability's `configureTools` is an approval the SDK holds alone (no approver recorded); under protectSandboxAgent the policy decides instead, so the gate must move into the policy. check follows the agent where it is made: inside `protectSandboxAgent(...)` or `protectAgent(...)`, or a variable of the file passed to either.",
  help: 'Wrap the agent: `protectSandboxAgent(new SandboxAgent({ ... }))` from the generated module, and map each capability tool in ctrlrun.tools.yaml (`- sandbox: { tool: exec_command }` with its `action:`); `npx ctrlrun-gen codemod --write` wraps it.',
};

/** The manifest's action for a capability tool of this agent (its own entry first), if any. */
function mappedAction(manifest: Manifest, agent: string | undefined, tool: string): string | undefined {
  const entries = manifest.tools.filter((t) => t.kind === 'sandbox' && t.tool === tool);
  const own = agent === undefined ? undefined : entries.find((t) => t.kind === 'sandbox' && t.agent === agent);
  return (own ?? entries.find((t) => t.kind === 'sandbox' && t.agent === undefined))?.action;
}

function named(site: SandboxAgentSite): string {
  return site.name !== undefined ? `SandboxAgent ${quote(site.name)}` : 'A SandboxAgent';
}

/** `unprotected-sandbox-agent`: a SandboxAgent not guarded by protectSandboxAgent, one with tools no manifest entry maps, a hand-written gate in configureTools. */
export function unprotectedSandboxAgentRule(scan: FileScan, project: ProjectContext | undefined): Finding[] {
  const out: Finding[] = [];
  for (const site of scan.sandboxAgents ?? []) {
    const tools = site.tools ? (site.tools.length > 0 ? site.tools.join(', ') : 'no tools') : `tools check cannot list (${site.toolsUnknown})`;
    if (!site.guarded) {
      out.push(
        findingOf(
          unprotectedSandboxAgentMeta,
          scan.file,
          site.span,
          `${named(site)} gives the model ${tools} with no policy: shell commands and file edits run in the sandbox with no decision, no recorded approval and no receipt.`,
          'Wrap it in `protectSandboxAgent(...)` from the generated module and map each capability tool (`- sandbox: { tool: exec_command }` with its `action:`) in ctrlrun.tools.yaml; `npx ctrlrun-gen codemod --write` wraps it.',
        ),
      );
    } else if (project && site.tools) {
      const unmapped = site.tools.filter((t) => mappedAction(project.manifest, site.name, t) === undefined);
      if (unmapped.length > 0) {
        out.push(
          findingOf(
            unprotectedSandboxAgentMeta,
            scan.file,
            site.span,
            `No policy decides ${unmapped.join(', ')} of ${named(site).replace(/^A /, 'a ')}: the manifest maps no action to ${unmapped.length === 1 ? 'it' : 'them'}, so every call is denied (unknown_action).`,
            `Map ${unmapped.map((t) => `\`- sandbox: { tool: ${t} }\``).join(', ')} with an \`action:\` in ctrlrun.tools.yaml (an action with \`decision: deny\` refuses a tool on purpose).`,
          ),
        );
      }
    }
    for (const gate of site.handApprovals) {
      out.push(
        findingOf(
          unprotectedSandboxAgentMeta,
          scan.file,
          gate,
          `\`configureTools\` sets \`needsApproval\` on ${named(site).replace(/^A /, 'a ')}'s capability tools: an approval only the SDK holds (no approver recorded, a bare \`state.approve\` or \`alwaysApprove\` lets the call run)${site.guarded ? ', and protectSandboxAgent lets the policy decide instead' : ''}.`,
          'Move the condition into the policy (`decision: approve` for the calls a person must see) and remove `needsApproval` from `configureTools`.',
        ),
      );
    }
  }
  return out;
}
