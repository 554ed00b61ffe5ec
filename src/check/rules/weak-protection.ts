import path from 'node:path';
import type { FileScan } from '../../scan/types.js';
import { sdkToolName } from '../../runtime/tool-name.js';
import type { Finding, ProjectContext, ScannedFile } from '../types.js';
import { findingAt, quote } from './finding.js';

/** `observe-mode` (warning, once per repo): the policy records decisions but protects nothing. */
export function observeModeRule(_files: ScannedFile[], project: ProjectContext | undefined): Finding[] {
  if (!project || project.policy.mode !== 'observe') return [];
  const file = path.relative(project.manifest.root, project.policy.file).split(path.sep).join('/');
  return [
    findingAt(
      'observe-mode',
      file,
      project.policy.modeLoc ?? { line: 1, column: 1 },
      'The policy is in `mode: observe`: every call runs, denials and approvals are only written to the receipts; nothing is protected.',
      'Switch to `mode: enforce` (or remove `mode:`) once the receipts show the policy decides as intended.',
    ),
  ];
}

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
      findingAt(
        'timeout-without-effect',
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
