import type { PolicyAction } from '../../policy/types.js';
import type { FileScan, ProtectedToolCall, SdkToolCall } from '../../scan/types.js';
import type { Finding, ProjectContext, RuleMeta } from '../types.js';
import { quote } from './finding.js';
import { findingOf } from './rule-finding.js';
import { sdkErrorFunctionProblem } from '../../scan/error-function.js';

export const unsafeErrorFunctionMeta: RuleMeta = {
  id: 'unsafe-error-function',
  severity: 'error',
  short: 'A tool\'s errorFunction turns failures into a "please try again" for the model.',
  full: "The SDK's default `errorFunction` answers the model \"An error occurred while running the tool. Please try again.\" for any exception, and a custom one can swallow this library's refusals the same way: a refusal becomes an invitation to retry, and a side effect can land several times. An SDK `tool()` with the default or a custom `errorFunction` is an error. A `protectedTool` whose action can run (allow or approve on some path) but declares no `effect` and has a custom `errorFunction` is a warning: this library's refusals propagate, but the custom function hands the tool's own failures to the model, which may retry. A `protectedTool` with no `errorFunction` is not reported: the runtime's default lets a body failure reach your code, never the model.",
  help: 'Protect the tool (`npx ctrlrun-gen codemod --write`); give its action an `effect:` key template in ctrlrun.yaml, or pass `errorFunction: null` so failures reach your code.',
};

/**
 * `unsafe-error-function`.
 * - error: an SDK `tool()` whose `errorFunction` is the default (absent, and no `outputSchema`,
 *   which makes the SDK default it to null) or a custom one; `errorFunction: null` is safe.
 * - warning: a `protectedTool` whose action can run (allow or approve on some path), has no
 *   `effect`, and has a custom `errorFunction` (which hands the tool's own failures to the model).
 *   Its default (no `errorFunction`) is not reported: the runtime then lets body failures reach the
 *   caller instead of the model (docs/runtime.md), so there is no retry hint to warn about.
 */
export function unsafeErrorFunctionRule(scan: FileScan, project: ProjectContext | undefined): Finding[] {
  const findings: Finding[] = [];
  for (const call of scan.sdkToolCalls) {
    const finding = sdkToolFinding(scan.file, call);
    if (finding) findings.push(finding);
  }
  if (project) {
    for (const call of scan.protectedToolCalls) {
      const action = call.action !== undefined && Object.hasOwn(project.policy.actions, call.action) ? project.policy.actions[call.action] : undefined;
      const finding = action ? protectedToolFinding(scan.file, call, action) : undefined;
      if (finding) findings.push(finding);
    }
  }
  return findings;
}

function toolLabel(call: SdkToolCall): string {
  return call.name !== undefined ? `SDK tool ${quote(call.name)}` : 'SDK tool()';
}

function sdkToolFinding(file: string, call: SdkToolCall): Finding | undefined {
  const problem = sdkErrorFunctionProblem(call);
  if (!problem) return undefined;
  if (problem.kind === 'custom') {
    return findingOf(
      unsafeErrorFunctionMeta,
      file,
      problem.at,
      `${toolLabel(call)} has a custom errorFunction: it turns exceptions, this library's refusals among them, into text the model may answer by retrying.`,
      'Protect the tool (`npx ctrlrun-gen codemod --write`) so refusals propagate, or pass `errorFunction: null`.',
    );
  }
  return findingOf(
    unsafeErrorFunctionMeta,
    file,
    problem.at,
    `${toolLabel(call)} ${problem.kind === 'maybe-default' ? 'may be' : 'is'} left with the default errorFunction, which answers the model "An error occurred while running the tool. Please try again." for any failure.`,
    'Protect the tool (`npx ctrlrun-gen codemod --write`), or pass `errorFunction: null` so failures reach your code instead of the model.',
  );
}

function canRun(action: PolicyAction): boolean {
  return action.rules.some((r) => r.decision === 'allow' || r.decision === 'approve');
}

function protectedToolFinding(file: string, call: ProtectedToolCall, action: PolicyAction): Finding | undefined {
  if (!canRun(action) || action.effect) return undefined;
  const errorFunction = call.options.properties.errorFunction;
  if (!errorFunction || errorFunction.valueKind === 'null') return undefined;
  return findingOf(
    unsafeErrorFunctionMeta,
    file,
    errorFunction.span,
    `protectedTool(${quote(action.id)}) can run but its action declares no \`effect\`, and its custom errorFunction hands the tool's own failures to the model: a retry may repeat the side effect.`,
    `Add an \`effect:\` key template to ${quote(action.id)} in ctrlrun.yaml (then \`npx ctrlrun-gen generate\`), or pass \`errorFunction: null\`.`,
    'warning',
  );
}
