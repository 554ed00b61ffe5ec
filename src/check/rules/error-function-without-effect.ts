import type { PolicyAction } from '../../policy/types.js';
import type { FileScan, ProtectedToolCall } from '../../scan/types.js';
import type { Finding, ProjectContext, RuleMeta } from '../types.js';
import { quote } from './finding.js';
import { findingOf } from './rule-finding.js';

export const errorFunctionWithoutEffectMeta: RuleMeta = {
  id: 'error-function-without-effect',
  severity: 'warning',
  short: 'A protectedTool whose custom errorFunction hands its failures to the model, and whose action has no `effect:`.',
  full: "This library's refusals propagate through any `errorFunction`, but a custom one hands the tool's own failures to the model as text, and a model that reads a failure often calls again. When the tool's action can run (allow or approve on some path) and declares no `effect:`, nothing refuses that second call: a side effect that landed before the failure can land twice. A `protectedTool` with no `errorFunction` is not reported: the runtime's default lets a body failure reach your code, never the model.",
  help: 'Give the action an `effect:` key template in ctrlrun.yaml (then `npx ctrlrun-gen generate`) so a repeated call is refused, or pass `errorFunction: null` so failures reach your code.',
};

function canRun(action: PolicyAction): boolean {
  return action.rules.some((r) => r.decision === 'allow' || r.decision === 'approve');
}

/**
 * `error-function-without-effect` (warning): a `protectedTool` whose action can run, has no
 * `effect`, and has a custom `errorFunction`. Split from `unsafe-error-function` (an error) so one
 * rule has one severity in `check` and in ESLint (issue 35).
 */
export function errorFunctionWithoutEffectRule(scan: FileScan, project: ProjectContext | undefined): Finding[] {
  if (!project) return [];
  const findings: Finding[] = [];
  for (const call of scan.protectedToolCalls) {
    const action = call.action !== undefined && Object.hasOwn(project.policy.actions, call.action) ? project.policy.actions[call.action] : undefined;
    const finding = action ? protectedToolFinding(scan.file, call, action) : undefined;
    if (finding) findings.push(finding);
  }
  return findings;
}

function protectedToolFinding(file: string, call: ProtectedToolCall, action: PolicyAction): Finding | undefined {
  if (!canRun(action) || action.effect) return undefined;
  const errorFunction = call.options.properties.errorFunction;
  if (!errorFunction || errorFunction.valueKind === 'null') return undefined;
  return findingOf(
    errorFunctionWithoutEffectMeta,
    file,
    errorFunction.span,
    `protectedTool(${quote(action.id)}) can run but its action declares no \`effect\`, and its custom errorFunction hands the tool's own failures to the model: a retry may repeat the side effect.`,
    `Add an \`effect:\` key template to ${quote(action.id)} in ctrlrun.yaml (then \`npx ctrlrun-gen generate\`), or pass \`errorFunction: null\`.`,
  );
}
