import type { ApprovalRequest, CompiledPolicy, ReceiptBody, Store } from '../types.js';
import { toolOf as mappedTool } from '../tool-name.js';
import { attributesOf, type Attributes } from './attributes.js';
import { eventOfReceipt, type ObservedEvent } from './event.js';
import { otelRecorder, type OpenTelemetryApi, type OtelRecorder } from './otel.js';
import { recordOnSdkTrace, sdkShowsArguments, sdkTraceParent, type SdkSpan } from './sdk-trace.js';

export type { OpenTelemetryApi } from './otel.js';

/** `createControl({ telemetry })`: where a control's decisions, pauses and answers are seen. */
export interface TelemetryOptions {
  /**
   * The SDK's own traces (default true): each receipt is recorded as a custom span (`ctrlrun.<kind>`)
   * under the SDK's current span, the tool call's function span where the SDK has one. It follows
   * the SDK: a run with `tracingDisabled`, or `setTracingDisabled(true)`, records nothing.
   */
  sdkTracing?: boolean;
  /**
   * OpenTelemetry (default off): the `@opentelemetry/api` module (`import * as api from
   * '@opentelemetry/api'`), or `true` to import it when the control is made (Node; a bundle should
   * pass the module). Spans, events and metrics go to whatever SDK the application registered.
   */
  openTelemetry?: OpenTelemetryApi | boolean;
}

/** `telemetry: false` turns everything off: nothing is looked up on any call. */
export type TelemetryOption = TelemetryOptions | false;

/** What a stage knows of its call besides the receipt's fields. */
export interface ReceiptSight {
  args?: unknown;
  /** The canonical JSON of `args` where the stage has it (the receipt's hash was taken of it): not written again. */
  argsJson?: string | undefined;
  toolName?: string | null;
  /** An answer's request (its `createdAt` dates the pause). */
  request?: ApprovalRequest;
}

export interface Telemetry {
  /** Records the receipt about to be appended (never throws, never waits). */
  record(receipt: ReceiptBody, policy: CompiledPolicy, sight?: ReceiptSight): void;
  /** The OpenTelemetry recorder, once the API is there. */
  otel(): OtelRecorder | undefined;
  /** While `openTelemetry: true` is still importing the API: the hooks wait for it once. */
  readonly loading: Promise<void> | undefined;
}

const OTEL_API = '@opentelemetry/api';

/** A control's telemetry, or undefined when it records nothing (then no hook asks anything). */
export function createTelemetry(
  option: TelemetryOption | undefined,
  store: Pick<Store, 'listRequests'>,
  notice: (line: string) => void,
): Telemetry | undefined {
  if (option === false) return undefined;
  const sdkOn = option?.sdkTracing !== false;
  const given = option?.openTelemetry;
  let otel = typeof given === 'object' && given !== null ? otelRecorder(given, store) : undefined;
  if (!sdkOn && otel === undefined && given !== true) return undefined;
  let loading: Promise<void> | undefined;
  if (given === true) {
    // a specifier in a variable: bundlers leave it alone (the API is an optional peer, never bundled by this library)
    const specifier = OTEL_API;
    loading = import(/* @vite-ignore */ specifier).then(
      (api: OpenTelemetryApi & { default?: OpenTelemetryApi }) => {
        otel = otelRecorder(api.trace ? api : (api.default as OpenTelemetryApi), store);
        loading = undefined;
      },
      (error: unknown) => {
        loading = undefined;
        notice(
          `ctrlrun: telemetry.openTelemetry is true but ${OTEL_API} could not be loaded (${error instanceof Error ? error.message : String(error)}); nothing goes to OpenTelemetry. Install it, or pass the module.`,
        );
      },
    );
  }
  // each policy's action -> tool lookups, made once per action for this control (not a scan of the tools per receipt)
  const tools = new WeakMap<CompiledPolicy, Map<string, string | null>>();
  /** One receipt's event, to the SDK's trace (`parent`: its current span) and to OpenTelemetry. */
  const seen = (event: ObservedEvent, parent: SdkSpan | null, receipt: ReceiptBody, policy: CompiledPolicy, sight: ReceiptSight | undefined) => {
    // built only for a listener: OpenTelemetry's metrics alone (a span not recording) need none
    let attributes: Attributes | undefined;
    const attributesNow = () =>
      (attributes ??= attributesOf(event, {
        toolName: sight?.toolName ?? cachedToolOf(tools, policy, receipt.action),
        args: sight?.args,
        argsJson: sight?.argsJson,
        labelled: policy.actions[receipt.action]?.sensitive ?? [],
        sensitive: sdkShowsArguments(parent),
      }));
    if (sdkOn && parent !== null) recordOnSdkTrace(`ctrlrun.${event.kind}`, attributesNow());
    if (otel !== undefined) {
      otel.record(event, attributesNow);
      if (sight?.request && (event.outcome === 'approved' || event.outcome === 'rejected'))
        otel.answered(sight.request, event.outcome === 'approved' ? 'approve' : 'reject', event.at);
    }
  };
  return {
    get loading() {
      return loading;
    },
    otel: () => otel,
    record(receipt, policy, sight) {
      try {
        const parent = sdkOn || otel !== undefined ? sdkTraceParent() : null;
        if ((!sdkOn || parent === null) && otel === undefined) return;
        const event = eventOfReceipt(receipt);
        // (the listeners' work in a function of its own: a receipt nothing listens to allocates no closure context)
        if (event !== null) seen(event, parent, receipt, policy, sight);
      } catch {
        // seeing a call never changes what it does: a failing exporter or processor is not the call's
      }
    },
  };
}

/** The SDK tool name the manifest maps to `action` (the first), or null; remembered in `known`. */
function cachedToolOf(known: WeakMap<CompiledPolicy, Map<string, string | null>>, policy: CompiledPolicy, action: string): string | null {
  let tools = known.get(policy);
  if (tools === undefined) {
    tools = new Map();
    known.set(policy, tools);
  }
  let tool = tools.get(action);
  if (tool === undefined) {
    tool = mappedTool(policy, action);
    tools.set(action, tool);
  }
  return tool;
}
