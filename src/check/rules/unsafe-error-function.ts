import type { FileScan, SdkToolCall } from '../../scan/types.js';
import type { Finding, RuleMeta } from '../types.js';
import { quote } from './finding.js';
import { findingOf } from './rule-finding.js';
import { sdkErrorFunctionProblem } from '../../scan/error-function.js';

export const unsafeErrorFunctionMeta: RuleMeta = {
  id: 'unsafe-error-function',
  severity: 'error',
  short: 'A tool\'s errorFunction turns failures into a "please try again" for the model.',
  full: "The SDK's default `errorFunction` answers the model \"An error occurred while running the tool. Please try again.\" for any exception, and a custom one can swallow this library's refusals the same way: a refusal becomes an invitation to retry, and a side effect can land several times. An SDK `tool()` with the default or a custom `errorFunction` is reported. A `protectedTool` is not: this library's refusals propagate through any `errorFunction`, and with none the runtime lets a body failure reach your code, never the model (a custom one on a tool whose action has no `effect` is `error-function-without-effect`'s, a warning).",
  help: 'Protect the tool (`npx ctrlrun-gen codemod --write`), or pass `errorFunction: null` so failures reach your code.',
};

/**
 * `unsafe-error-function`: an SDK `tool()` whose `errorFunction` is the default (absent, and no
 * `outputSchema`, which makes the SDK default it to null) or a custom one; `errorFunction: null` is safe.
 */
export function unsafeErrorFunctionRule(scan: FileScan): Finding[] {
  const findings: Finding[] = [];
  for (const call of scan.sdkToolCalls) {
    const finding = sdkToolFinding(scan.file, call);
    if (finding) findings.push(finding);
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
