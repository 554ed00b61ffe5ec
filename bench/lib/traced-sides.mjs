// The runtime bench's refund action and its traced setting, shared by bench/runtime.bench.mjs and
// bench/profile-telemetry.mjs: the generator's real output for the SPEC §2 refund rules (an action
// that can pause), a protected tool of it, and the SDK's traces and OpenTelemetry listening.
import { createCustomSpan, setTraceProcessors, setTracingDisabled } from '@openai/agents';
import * as otel from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { z } from 'zod';
import { bindProtectedTool, createControl, memoryStore } from '../../dist/runtime/index.js';
import { parsePolicy } from '../../dist/policy/load.js';
import { compilePolicy } from '../../dist/policy-test/decider.js';

/** The generator's real output for the SPEC §2 refund rules, evaluated as `policy test` does (its imports inert). */
export function generatedRefund() {
  const text = [
    'schema: ctrlrun.policy/v6',
    'actions:',
    '  stripe.refund:',
    '    effect: "refund:{payment_id}"',
    '    resource: "payment:{payment_id}"',
    '    rules:',
    '      - when: { amount_gte: 0, amount_lte: 100000 }',
    '        decision: allow',
    '      - when: { amount_lte: 1000000 }',
    '        decision: approve',
    '      - decision: deny',
    '',
  ].join('\n');
  const loaded = parsePolicy(text, 'ctrlrun.yaml');
  if (!loaded.value) throw new Error('bench policy did not load');
  return compilePolicy(loaded.value).actions['stripe.refund'];
}

const refundAction = generatedRefund();

/** The bench's compiled policy: the generated refund rules (allow up to 100000, approve up to 1000000, deny), no templates. */
export const refundPolicy = {
  hash: 'b'.repeat(64),
  mode: 'enforce',
  actions: { 'stripe.refund': { id: 'stripe.refund', decide: (args) => refundAction.decide(args), controls: [], approvalsRequired: 1, maxAttempts: 1 } },
  tools: { refund: 'stripe.refund' },
};

const parameters = z.object({ payment_id: z.string(), amount: z.number().int() });

/** A protected refund tool on a memory store (`telemetry`: the control's option, when given), whose body runs `body`. */
export function protectedRefund(telemetry = undefined, body = async () => 'refunded') {
  const control = createControl({
    store: memoryStore(),
    identity: (rc) => rc.context.user,
    receiptKey: null,
    ...(telemetry === undefined ? {} : { telemetry }),
  });
  return bindProtectedTool(control, refundPolicy)('stripe.refund', { name: 'refund', description: 'refund', parameters, execute: body });
}

/**
 * Tracing and OpenTelemetry on (issue 39, item 5): the SDK traces the run (to a processor that
 * drops what it gets, as an exporter's queue would take it), and OpenTelemetry has a real SDK
 * registered (spans to an exporter that drops them, metrics aggregated by a reader). `traced` is a
 * protected tool recording into both; `tracedOff` the same run with the control's telemetry off.
 */
export function observeEverything() {
  const dropped = {
    onTraceStart: async () => {},
    onTraceEnd: async () => {},
    onSpanStart: async () => {},
    onSpanEnd: async () => {},
    shutdown: async () => {},
    forceFlush: async () => {},
  };
  setTraceProcessors([dropped]);
  setTracingDisabled(false);
  const exporter = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };
  // a context manager, as the Node SDK registers one: a call's receipts are events on its span (with
  // none, the API's context never changes and each receipt is a span of its own: three a call)
  otel.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  // a batch processor, as an application exports: spans are queued, not exported one by one
  otel.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] }));
  class Reader extends MetricReader {
    async onShutdown() {}
    async onForceFlush() {}
  }
  otel.metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new Reader()] }));
}

/** What a receipt's attributes hold for the bench's allowed call (the span's and the events' share of them). */
const CALL_ATTRIBUTES = {
  'gen_ai.operation.name': 'execute_tool',
  'gen_ai.tool.name': 'refund',
  'gen_ai.tool.type': 'function',
  'ctrlrun.event': 'decision',
  'ctrlrun.action': 'stripe.refund',
  'ctrlrun.outcome': 'allowed',
  'ctrlrun.reason': 'rule[0]',
  'ctrlrun.refused': false,
  'ctrlrun.mode': 'enforce',
  'ctrlrun.decision': 'allow',
  'ctrlrun.rule': 0,
  'ctrlrun.policy.hash': 'b'.repeat(64),
  'ctrlrun.arguments.hash': 'a'.repeat(64),
};

/**
 * The OpenTelemetry floor: a body that does by hand what OpenTelemetry is asked for an allowed
 * call, with nothing decided or mapped: one active `execute_tool` span around it, the decision's
 * attributes and event, a count, the settlement's event. Run with the control's telemetry off, it
 * is what any implementation pays OpenTelemetry's SDK for the contract, beside `tracedOtel`.
 */
export function otelFloorBody(body) {
  const tracer = otel.trace.getTracer('ctrlrun-gen-floor');
  const decisions = otel.metrics.getMeter('ctrlrun-gen-floor').createCounter('floor.decisions');
  const start = {
    attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'refund', 'gen_ai.tool.type': 'function', 'ctrlrun.action': 'stripe.refund' },
  };
  return (input, runContext, details) =>
    tracer.startActiveSpan('execute_tool refund', start, async (span) => {
      const callId = details?.toolCall?.callId ?? '';
      decisions.add(1, { 'ctrlrun.action': 'stripe.refund', 'ctrlrun.decision': 'allow', 'ctrlrun.outcome': 'allowed' });
      span.setAttributes({ ...CALL_ATTRIBUTES, 'gen_ai.tool.call.id': callId });
      span.addEvent('ctrlrun.decision', { 'ctrlrun.event': 'decision', 'ctrlrun.outcome': 'allowed', 'ctrlrun.reason': 'rule[0]' });
      const output = await body(input, runContext, details);
      span.setAttributes({ 'ctrlrun.event': 'settlement', 'ctrlrun.outcome': 'executed' });
      span.addEvent('ctrlrun.settlement', { 'ctrlrun.event': 'settlement', 'ctrlrun.outcome': 'executed', 'ctrlrun.reason': 'rule[0]' });
      span.end();
      return output;
    });
}

/** One custom span of the SDK's trace, as the control records a receipt on it (observe/sdk-trace.ts). */
function sdkSpan(name, data) {
  const span = createCustomSpan({ data: { name, data } });
  span.start();
  span.end();
}

/**
 * The floor with everything on: a body that does by hand what the SDK's traces and OpenTelemetry
 * are both asked for an allowed call, with nothing decided or mapped: `otelFloorBody`'s span, events
 * and count, and the SDK's two custom spans (the decision's and the settlement's, their attributes
 * given). Run with the control's telemetry off in a traced run, beside `traced`: what item 5's
 * "at most 1.05x" is measured against when OpenTelemetry's own span is above it.
 */
export function everythingFloorBody(body) {
  const settled = { ...CALL_ATTRIBUTES, 'ctrlrun.event': 'settlement', 'ctrlrun.outcome': 'executed' };
  return otelFloorBody(async (input, runContext, details) => {
    const callId = details?.toolCall?.callId ?? '';
    sdkSpan('ctrlrun.decision', { ...CALL_ATTRIBUTES, 'gen_ai.tool.call.id': callId });
    const output = await body(input, runContext, details);
    sdkSpan('ctrlrun.settlement', { ...settled, 'gen_ai.tool.call.id': callId });
    return output;
  });
}
