import type { ApprovalRequest, Store } from '../types.js';
import type { Attributes } from './attributes.js';
import type { ObservedEvent } from './event.js';

/**
 * The part of `@opentelemetry/api` (1.x) this library uses, written out so that the runtime's
 * types and code never import it: it is an optional peer, handed over by the application
 * (`createControl({ telemetry: { openTelemetry: api } })`) or looked up when asked to.
 */
export interface OpenTelemetryApi {
  trace: {
    getTracer(name: string, version?: string): OtelTracer;
    getSpan(context: unknown): OtelSpan | undefined;
    setSpan(context: unknown, span: OtelSpan): unknown;
  };
  context: { active(): unknown; with<T>(context: unknown, fn: () => T): T };
  metrics: { getMeter(name: string, version?: string): OtelMeter };
}

export interface OtelSpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
}

export interface OtelSpan {
  setAttributes(attributes: Attributes): unknown;
  /** False for a no-op or sampled-out span: nothing set on it is kept. */
  isRecording(): boolean;
  addEvent(name: string, attributes?: Attributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
  spanContext(): OtelSpanContext;
}

interface OtelTracer {
  startSpan(name: string, options?: { kind?: number; attributes?: Attributes; links?: { context: OtelSpanContext }[] }, context?: unknown): OtelSpan;
}

interface OtelMeter {
  createCounter(name: string, options?: { description?: string; unit?: string }): { add(value: number, attributes?: Attributes): void };
  createHistogram(name: string, options?: { description?: string; unit?: string }): { record(value: number, attributes?: Attributes): void };
  createObservableGauge(
    name: string,
    options?: { description?: string; unit?: string },
  ): { addCallback(cb: (result: { observe(value: number, attributes?: Attributes): void }) => Promise<void> | void): void };
}

/** `SpanStatusCode.ERROR` and `SpanKind.INTERNAL` of the API (numbers, stable across 1.x). */
const STATUS_ERROR = 2;
const KIND_INTERNAL = 0;
const SCOPE = 'ctrlrun-gen';
/** Pauses remembered for the link from their resume (the newest; a resume in another process has none). */
const PAUSES_KEPT = 10_000;

const DECIDING = new Set(['decision', 'pause', 'claim', 'reservation']);

/** Whether an event ends its span in error: a refusal, or a body whose outcome is not a success. */
function failed(event: ObservedEvent): boolean {
  return event.refused || event.outcome === 'failed' || event.outcome === 'ambiguous' || event.outcome === 'not_executed';
}

/** What an event on a call's span says of its receipt (the rest is the span's own attributes). */
function eventAttributes(a: Attributes): Attributes {
  const e: Attributes = { 'ctrlrun.event': a['ctrlrun.event']!, 'ctrlrun.outcome': a['ctrlrun.outcome']!, 'ctrlrun.reason': a['ctrlrun.reason']! };
  if (a['ctrlrun.approvers'] !== undefined) e['ctrlrun.approvers'] = a['ctrlrun.approvers'];
  return e;
}

/** An error status's message: the reason as the attributes show it (redacted where values may not be shown). */
function statusOf(event: ObservedEvent, attributes: Attributes): string {
  const reason = attributes['ctrlrun.reason'];
  return typeof reason === 'string' && reason !== '' ? `${event.outcome}: ${reason}` : event.outcome;
}

/** The span a standalone event (no ctrlrun span active) is recorded as. */
function spanName(event: ObservedEvent, tool: string): string {
  if (event.kind === 'pause') return `approval_request ${tool}`;
  if (event.kind === 'answer') return `approval_answer ${tool}`;
  if (event.kind === 'resolution') return `effect_resolution ${tool}`;
  return `execute_tool ${tool}`;
}

export type OtelRecorder = ReturnType<typeof otelRecorder>;

/**
 * OpenTelemetry spans, events and metrics of a control's calls. A call the execute hook runs is one
 * `execute_tool <tool>` span (made active, so the body's own spans are its children) with an event
 * per receipt (`ctrlrun.decision`, `ctrlrun.claim`, `ctrlrun.reservation`, `ctrlrun.settlement`);
 * a call refused or paused before it, and an answer, is a span of its own. A resumed call's span
 * links to its pause's.
 */
export function otelRecorder(api: OpenTelemetryApi, store: Pick<Store, 'listRequests'>) {
  const tracer = api.trace.getTracer(SCOPE);
  /** Our recording `execute_tool` spans. */
  const ours = new WeakSet<object>();
  const pauses = new Map<string, OtelSpanContext>();
  const notRecording = new WeakSet<object>();
  const { decisions, refusals, latency, expired, ambiguous, pendingStores } = instrumentsOf(api.metrics.getMeter(SCOPE));
  pendingStores.add(store);

  // each count's attributes written out (no shared object spread into each: one object a count)
  const count = (event: ObservedEvent) => {
    const action = event.action;
    if (DECIDING.has(event.kind))
      decisions.add(1, { 'ctrlrun.action': action, 'ctrlrun.decision': event.decision ?? 'none', 'ctrlrun.outcome': event.outcome });
    if (event.refused) refusals.add(1, { 'ctrlrun.action': action, 'ctrlrun.reason': event.reason });
    if (event.reason === 'approval_expired') expired.add(1, { 'ctrlrun.action': action });
    if (event.outcome === 'ambiguous') ambiguous.add(1, { 'ctrlrun.action': action });
  };

  return {
    /**
     * Records one event: on the active ctrlrun span when there is one (nothing but the metrics when
     * that span does not record), else as a span of its own. `attributesOf`: built when asked.
     */
    record(event: ObservedEvent, attributesOf: () => Attributes): void {
      count(event);
      const active = api.trace.getSpan(api.context.active());
      if (active !== undefined && ours.has(active)) {
        const attributes = attributesOf();
        active.setAttributes(attributes);
        // the span holds the attributes; the event only what differs from one receipt to the next
        active.addEvent(`ctrlrun.${event.kind}`, eventAttributes(attributes));
        if (failed(event)) active.setStatus({ code: STATUS_ERROR, message: statusOf(event, attributes) });
        return;
      }
      if (active !== undefined && notRecording.has(active)) return;
      const attributes = attributesOf();
      const link = event.callId === null || event.kind === 'pause' ? undefined : pauses.get(event.callId);
      const span = tracer.startSpan(
        spanName(event, String(attributes['gen_ai.tool.name'])),
        { kind: KIND_INTERNAL, attributes, ...(link ? { links: [{ context: link }] } : {}) },
        api.context.active(),
      );
      span.addEvent(`ctrlrun.${event.kind}`, attributes);
      if (failed(event)) span.setStatus({ code: STATUS_ERROR, message: statusOf(event, attributes) });
      if (event.kind === 'pause' && event.callId !== null) remember(pauses, event.callId, span.spanContext());
      span.end();
    },

    /** Runs a call's authorization, body and settlement inside its `execute_tool` span (active: the body's spans nest under it). */
    around<T>(tool: string, action: string, callId: string | null, fn: () => Promise<T>): Promise<T> {
      const link = callId === null ? undefined : pauses.get(callId);
      const attributes: Attributes = {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': tool,
        'gen_ai.tool.type': 'function',
        'ctrlrun.action': action,
      };
      if (callId !== null) attributes['gen_ai.tool.call.id'] = callId;
      const parent = api.context.active();
      const options: { kind: number; attributes: Attributes; links?: { context: OtelSpanContext }[] } = { kind: KIND_INTERNAL, attributes };
      if (link) options.links = [{ context: link }]; // (a resumed call's; no empty object spread into every call's options)
      const span = tracer.startSpan(`execute_tool ${tool}`, options, parent);
      // a span nobody records (no SDK registered, sampled out): its receipts add nothing to it
      if (span.isRecording()) ours.add(span);
      else notRecording.add(span);
      const end = () => span.end();
      return api.context.with(api.trace.setSpan(parent, span), fn).then(
        (value) => {
          end();
          return value;
        },
        (error: unknown) => {
          // the error's class only: its message may quote the body's error, and with it argument values
          span.setStatus({ code: STATUS_ERROR, message: error instanceof Error ? error.name : 'error' });
          end();
          throw error;
        },
      );
    },

    /** An answer given through this control: the time from the pause to it. */
    answered(request: ApprovalRequest, answer: 'approve' | 'reject', at: number): void {
      latency.record(Math.max(0, at - request.createdAt) / 1000, { 'ctrlrun.action': request.action, 'ctrlrun.answer': answer });
    },
  };
}

type Instruments = ReturnType<typeof makeInstruments>;
/**
 * The instruments of a meter, made once: several controls in one process (one per tenant, a test's
 * many) add to the same counters, and the pending gauge counts each of their stores once.
 */
const INSTRUMENTS = new WeakMap<object, Instruments>();

function instrumentsOf(meter: OtelMeter): Instruments {
  let made = INSTRUMENTS.get(meter);
  if (made === undefined) {
    made = makeInstruments(meter);
    INSTRUMENTS.set(meter, made);
  }
  return made;
}

function makeInstruments(meter: OtelMeter) {
  const pendingStores = new Set<Pick<Store, 'listRequests'>>();
  const pendingSeen = new Set<string>();
  meter
    .createObservableGauge('ctrlrun.approvals.pending', { description: 'Approval requests waiting for an answer, by action' })
    .addCallback(async (result) => {
      // an action seen pending before and none now reads 0 (not its last count)
      const counts = new Map<string, number>([...pendingSeen].map((action) => [action, 0]));
      for (const store of pendingStores) for (const r of await store.listRequests({ state: 'pending' })) counts.set(r.action, (counts.get(r.action) ?? 0) + 1);
      for (const [action, n] of counts) {
        pendingSeen.add(action);
        result.observe(n, { 'ctrlrun.action': action });
      }
    });
  return {
    pendingStores,
    decisions: meter.createCounter('ctrlrun.decisions', { description: 'Calls decided, by action, decision and outcome (the receipt result)' }),
    refusals: meter.createCounter('ctrlrun.refusals', { description: 'Calls refused, by action and reason' }),
    latency: meter.createHistogram('ctrlrun.approval.duration', { description: 'From a pause to its answer', unit: 's' }),
    expired: meter.createCounter('ctrlrun.approvals.expired', { description: 'Approvals refused at their claim because they expired' }),
    ambiguous: meter.createCounter('ctrlrun.effects.ambiguous', { description: 'Bodies whose outcome is unknown (the effect key is ambiguous)' }),
  };
}

function remember(pauses: Map<string, OtelSpanContext>, callId: string, context: OtelSpanContext): void {
  pauses.delete(callId);
  pauses.set(callId, context);
  if (pauses.size > PAUSES_KEPT) pauses.delete(pauses.keys().next().value as string);
}
