import type { FileScan } from '../../scan/types.js';
import type { Finding, ProjectContext, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';

export const unprotectedAgentToolMeta: RuleMeta = {
  id: 'unprotected-agent-tool',
  severity: 'error',
  short: '`agent.asTool()` not made by `protectAgentTool`.',
  full: "An agent turned into a tool with the SDK's `asTool()` runs a nested run that no policy decides. A refusal or a failure inside it reaches the parent model as \"An error occurred while running the tool. Please try again.\", so the parent retries and the nested tools may act twice, and the nested run does not inherit `traceIncludeSensitiveData: false`, so its tools' inputs and outputs are traced. check follows agents the SDK made in the same file (`new Agent`, `Agent.create`, `clone`, through variables, objects and what a function of the file returns); an `asTool()` of a value it cannot follow (an agent imported from another module, a parameter, a callback's argument) is reported too, in a file that uses the SDK, unless the value is provably something else (another package's, a local object).",
  help: "Use `protectAgentTool('<action>', agent, { ... })` from the generated module (without `needsApproval`), with the action in ctrlrun.yaml; map the tool's name in ctrlrun.tools.yaml and `npx ctrlrun-gen codemod --write` rewrites it.",
};

/** `unprotected-agent-tool`: `agent.asTool(...)` of an SDK agent, not made by `protectAgentTool`. */
export function unprotectedAgentToolRule(scan: FileScan, project: ProjectContext | undefined): Finding[] {
  return (scan.agentAsToolCalls ?? []).map((call) => {
    const action = call.toolName !== undefined ? project?.manifest.tools.find((t) => t.kind === 'function' && t.tool === call.toolName)?.action : undefined;
    const named = call.toolName !== undefined ? ` '${call.toolName}'` : '';
    if (call.receiverUnknown !== undefined)
      return findingOf(
        unprotectedAgentToolMeta,
        scan.file,
        call.callee,
        `Agent tool${named} made with \`.asTool()\` of a value check cannot follow (${call.receiverUnknown}): if it is an SDK agent, no policy decides its calls, a failure of the nested run reaches the parent model as "Please try again" and the nested run traces its tools' inputs and outputs.`,
        `If it is an agent, use \`protectAgentTool('${action ?? '<action>'}', <agent>, { ... })\` from the generated module (without needsApproval)${action !== undefined ? '' : `, with the action in ctrlrun.yaml and the tool${named || "'s literal toolName"} mapped in ctrlrun.tools.yaml`}; \`npx ctrlrun-gen codemod --write\` rewrites it. If it is not an agent, say so on the line before: \`// ctrlrun-ignore unprotected-agent-tool -- <reason>\`.`,
      );
    return findingOf(
      unprotectedAgentToolMeta,
      scan.file,
      call.callee,
      `Agent tool${named} made with \`.asTool()\`: no policy decides its calls, a failure of the nested run reaches the parent model as "Please try again" (it retries and the nested tools may act twice), and the nested run traces its tools' inputs and outputs.`,
      action !== undefined
        ? `Use \`protectAgentTool('${action}', <agent>, { ... })\` from the generated module (without needsApproval); \`npx ctrlrun-gen codemod --write\` rewrites it.`
        : `Use \`protectAgentTool('<action>', <agent>, { ... })\` from the generated module (without needsApproval), with the action in ctrlrun.yaml; map the tool${named} in ctrlrun.tools.yaml and \`npx ctrlrun-gen codemod --write\` rewrites it.`,
    );
  });
}
