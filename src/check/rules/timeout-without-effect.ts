import type { FileScan } from '../../scan/types.js';
import { sdkToolName } from '../../runtime/tool-name.js';
import { quote } from './finding.js';
import type { Finding, ProjectContext, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';

export const timeoutWithoutEffectMeta: RuleMeta = {
  id: 'timeout-without-effect',
  severity: 'warning',
  short: '`timeoutMs` on a tool whose policy action has no `effect:`.',
  full: 'When the SDK\'s `timeoutMs` fires, it stops waiting for the body but the body goes on running; the model reads "timed out" and often calls again. The runtime refuses a call with the same arguments while the first body runs (`still_running`), but only in its own process: without an `effect:` key, another process (or a retry with other arguments) runs the body a second time.',
  help: 'Give the action an `effect: "<key template>"` in ctrlrun.yaml so a second attempt is refused everywhere, or drop `timeoutMs`.',
};

/**
 * `timeout-without-effect` (warning): `timeoutMs` on a tool whose action has no `effect:`. When the
 * SDK's timeout fires, the model reads "timed out" and may call again while the first body still
 * runs; the runtime holds the call only in its own process, and no key refuses it elsewhere.
 */
export function timeoutWithoutEffectRule(scan: FileScan, project: ProjectContext | undefined): Finding[] {
  if (!project) return [];
  const { policy, manifest } = project;
  const findings: Finding[] = [];
  const check = (action: string | undefined, options: FileScan['protectedToolCalls'][number]['options'], what: string) => {
    const prop = options.properties.timeoutMs;
    if (!prop || action === undefined || !Object.hasOwn(policy.actions, action)) return;
    const a = policy.actions[action]!;
    if (a.effect !== undefined) return;
    if (a.rules.length > 0 && a.rules.every((r) => r.decision === 'deny')) return; // never runs
    findings.push(
      findingOf(
        timeoutWithoutEffectMeta,
        scan.file,
        prop.span,
        `\`timeoutMs\` on ${what}, whose action ${quote(action)} has no \`effect:\`: when the timeout fires the model reads "timed out" and may call again while the first body still runs; only this process holds the call, another would run it twice.`,
        `Give ${quote(action)} an \`effect: "<key template>"\` in ctrlrun.yaml so a second attempt is refused everywhere, or drop \`timeoutMs\`.`,
      ),
    );
  };
  for (const call of scan.protectedToolCalls) check(call.action, call.options, `protectedTool(${call.action !== undefined ? quote(call.action) : ''})`);
  for (const call of scan.sdkToolCalls) {
    const name = call.name;
    if (name === undefined) continue;
    const mapped = manifest.tools.find((t) => t.kind === 'function' && sdkToolName(t.tool) === sdkToolName(name));
    if (mapped) check(mapped.action, call.options, `tool ${quote(name)}`);
  }
  return findings;
}
