import type { FileScan } from '../../scan/types.js';
import type { Finding, ProjectContext, RuleMeta } from '../types.js';
import { quote } from './finding.js';
import { nearest } from '../../policy/suggest.js';
import { sdkToolName } from '../../runtime/tool-name.js';
import { findingOf } from './rule-finding.js';

export const unknownActionMeta: RuleMeta = {
  id: 'unknown-action',
  severity: 'error',
  short: 'protectedTool() names an action the policy does not define, or not the one the manifest maps its tool to.',
  full: "An action the policy does not list is denied at run time with reason `unknown_action`, so the tool can never run; more often it is a typo or a stale generated module. An action that is not a string literal cannot be checked and is reported too, and so is an action other than the one ctrlrun.tools.yaml maps the tool's `name` to (the wrong rules would decide its calls; at run time `protectedTool` refuses to make such a tool). Names are compared as the SDK sanitizes them (`'Refund Expert'` is `Refund_Expert`).",
  help: 'Use one of the actions of ctrlrun.yaml (as a string literal), or add the action to the policy and run `npx ctrlrun-gen generate`.',
};

/**
 * `unknown-action`: `protectedTool('<x>')` where `<x>` is not an action of the policy (or not a
 * literal), or is not the action the manifest maps the tool's literal `name` to.
 */
export function unknownActionRule(scan: FileScan, project: ProjectContext | undefined): Finding[] {
  if (!project) return [];
  const actions = Object.keys(project.policy.actions).sort();
  const findings: Finding[] = [];
  for (const call of scan.protectedToolCalls) {
    if (call.action === undefined) {
      findings.push(
        findingOf(
          unknownActionMeta,
          scan.file,
          call.callee,
          'protectedTool() is given an action that is not a string literal: check cannot tell which policy action decides its calls.',
          `Pass the action as a string literal, one of: ${actions.map(quote).join(', ') || '(the policy has none)'}.`,
        ),
      );
      continue;
    }
    if (Object.hasOwn(project.policy.actions, call.action)) {
      const name = call.name ?? call.options.properties.name?.stringValue;
      // as the run time compares them: the SDK-sanitized names ('Refund Expert' is 'Refund_Expert')
      const mapped =
        name === undefined
          ? undefined
          : project.manifest.tools.find(
              (t): t is Extract<typeof t, { kind: 'function' }> =>
                t.kind === 'function' && sdkToolName(t.tool) === sdkToolName(name) && t.action !== call.action,
            );
      if (mapped) {
        findings.push(
          findingOf(
            unknownActionMeta,
            scan.file,
            call.actionSpan ?? call.callee,
            `protectedTool(${quote(call.action)}) declares tool ${quote(name!)}, which ctrlrun.tools.yaml maps to ${quote(mapped.action)}: the policy of the wrong action would decide its calls, so protectedTool refuses it at run time.`,
            `Use protectedTool(${quote(mapped.action)}, ...), or change the mapping of ${quote(mapped.tool)} in ctrlrun.tools.yaml (line ${mapped.loc.line}).`,
          ),
        );
      }
      continue;
    }
    const near = nearest(call.action, actions);
    findings.push(
      findingOf(
        unknownActionMeta,
        scan.file,
        call.actionSpan ?? call.callee,
        `protectedTool(${quote(call.action)}): the policy has no action ${quote(call.action)}; every call would be denied (unknown_action).`,
        near
          ? `Did you mean ${quote(near)}? Otherwise add ${quote(call.action)} under \`actions:\` in ctrlrun.yaml and run \`npx ctrlrun-gen generate\`.`
          : `Add ${quote(call.action)} under \`actions:\` in ctrlrun.yaml and run \`npx ctrlrun-gen generate\`.`,
      ),
    );
  }
  return findings;
}
