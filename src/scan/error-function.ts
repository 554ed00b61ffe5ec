import type { SdkToolCall, Span } from './types.js';

/**
 * What is unsafe about an SDK `tool()`'s errorFunction, or undefined when it is `null` or the SDK
 * defaults it to null (an `outputSchema` and no spread). The one judgment `check` and the codemod's
 * summary share. `at` is the `errorFunction` property for a custom one, else the callee.
 */
export function sdkErrorFunctionProblem(call: SdkToolCall): { kind: 'custom' | 'default' | 'maybe-default'; at: Span } | undefined {
  const errorFunction = call.options.properties.errorFunction;
  if (errorFunction) return errorFunction.valueKind === 'null' ? undefined : { kind: 'custom', at: errorFunction.span };
  if (call.options.properties.outputSchema && !call.options.hasSpread) return undefined;
  return { kind: call.options.hasSpread ? 'maybe-default' : 'default', at: call.callee };
}
