// a namespace import: an SDK of the peer range without one of these still loads the runtime
import * as sdk from '@openai/agents';
import type { Attributes } from './attributes.js';

const NOOP = 'no-op';

export type SdkSpan = { traceId: string; spanData?: { type?: string; input?: unknown } };

/**
 * The span or trace the SDK would record a span under right now, or null when the SDK does not
 * trace here: no trace (a run with `tracingDisabled`, `setTracingDisabled(true)`, code outside a
 * run) or a no-op one. One lookup of the SDK's async context where it does not trace, two where it does.
 */
export function sdkTraceParent(): SdkSpan | null {
  const getSpan = (sdk as { getCurrentSpan?: () => SdkSpan | null }).getCurrentSpan;
  const getTrace = (sdk as { getCurrentTrace?: () => SdkSpan | null }).getCurrentTrace;
  if (typeof getSpan !== 'function' || typeof getTrace !== 'function') return null;
  // the trace first: a run the SDK does not trace (the allow path with tracingDisabled) is one lookup,
  // not two (the SDK makes a real span only under a real trace: no span is missed)
  const trace = getTrace();
  if (trace === null || trace.traceId === NOOP) return null;
  const parent = getSpan() ?? trace;
  return parent.traceId === NOOP ? null : parent;
}

/**
 * Whether the SDK's own span of this tool call shows its arguments: the SDK writes them to the
 * function span's `input` before the tool's guardrail and body run, and only when the run's
 * `traceIncludeSensitiveData` is on (its default). This library never shows more than that.
 */
export function sdkShowsArguments(parent: SdkSpan | null): boolean {
  const data = parent?.spanData;
  return data?.type === 'function' && typeof data.input === 'string' && data.input !== '';
}

/** Records one event as a custom span (`ctrlrun.<kind>`) under the SDK's current span. */
export function recordOnSdkTrace(name: string, data: Attributes): void {
  const create = (sdk as { createCustomSpan?: (o: unknown) => { start(): void; end(): void } }).createCustomSpan;
  if (typeof create !== 'function') return;
  const span = create({ data: { name, data } });
  span.start();
  span.end();
}
