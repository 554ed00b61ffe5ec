import type { FileScan, HandoffSite } from '../../scan/types.js';
import type { Finding, ProjectContext, RuleMeta } from '../types.js';
import { quote } from './finding.js';
import { findingOf } from './rule-finding.js';

export const unprotectedHandoffMeta: RuleMeta = {
  id: 'unprotected-handoff',
  severity: 'error',
  short: "A handoff() that runs `onHandoff` or takes the model's input, not made by `protectHandoff`.",
  full: "The model calls a handoff like a tool; `handoff(agent, { onHandoff, inputType })` then runs `onHandoff` (app code: page the on-call, grant a credit) on arguments the model chose, and hands the conversation over, with no decision and no receipt. `protectHandoff(action, agent, config)` from the generated module decides every transfer by the policy's action on the handoff's input: a refused transfer runs no `onHandoff` and the agent that asked keeps the conversation (the model is told through `run()` of ctrlrun-gen/runtime). The SDK cannot pause a handoff for a person, so `generate` refuses a handoff action that can decide `approve`. A handoff that lists a plain agent (`handoffs: [agent]`) runs no app code and takes no input: it is not reported. A config check cannot read (a variable from elsewhere, a spread) is reported.",
  help: "Use `protectHandoff('<action>', agent, { ... })` from the generated module, with the action in ctrlrun.yaml (`allow` or `deny`, rules on the input) and `- handoff: { to: <agent name> }` in ctrlrun.tools.yaml; `npx ctrlrun-gen codemod --write` rewrites it.",
};

function doesWhat(site: HandoffSite): string {
  if (site.constructed === 'subclass') return 'is a class extending Handoff, whose invoke function (app code) runs on the input the model chose';
  if (site.constructed === 'assignment') return "is given another `onInvokeHandoff` (app code, run on the input the model chose in place of the handoff's own)";
  if (site.constructed) return 'is a `new Handoff(...)` whose invoke function (app code) runs on the input the model chose';
  if (site.onHandoff === 'unknown' || site.inputType === 'unknown') return "has a config check cannot read, so it may run `onHandoff` on the model's input";
  if (site.onHandoff && site.inputType) return 'runs `onHandoff` (app code) on the input the model chose';
  return site.onHandoff ? 'runs `onHandoff` (app code) when the model asks for it' : 'takes the input the model chose';
}

/** `unprotected-handoff`: an SDK handoff() with onHandoff or inputType (or a config check cannot read). */
export function unprotectedHandoffRule(scan: FileScan, project: ProjectContext | undefined): Finding[] {
  const out: Finding[] = [];
  for (const site of scan.handoffs ?? []) {
    if (site.form !== 'call' || (site.onHandoff === false && site.inputType === false)) continue;
    const to = site.to !== undefined ? ` to ${quote(site.to)}` : '';
    const action = site.to !== undefined ? project?.manifest.tools.find((t) => t.kind === 'handoff' && t.to === site.to)?.action : undefined;
    out.push(
      findingOf(
        unprotectedHandoffMeta,
        scan.file,
        site.callee ?? site.span,
        `The handoff${to} ${doesWhat(site)}, with no policy: no decision, no receipt, and the transfer happens whatever the model asked.`,
        action !== undefined
          ? `Use \`protectHandoff('${action}', <agent>, { ... })\` from the generated module; \`npx ctrlrun-gen codemod --write\` rewrites it.`
          : `Use \`protectHandoff('<action>', <agent>, { ... })\` from the generated module, with the action in ctrlrun.yaml and \`- handoff: { to: ${site.to ?? '<agent name>'} }\` in ctrlrun.tools.yaml; \`npx ctrlrun-gen codemod --write\` rewrites it.`,
      ),
    );
  }
  return out;
}
