import * as api from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AggregationTemporality, MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { AlwaysOffSampler, AlwaysOnSampler, BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Runner } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { canonicalJson } from '../../src/runtime/canonical.js';
import { bindProtectedTool, createControl, memoryStore, run, type OpenTelemetryApi, type TelemetryOption } from '../../src/runtime/index.js';
import { agentWith, assistantMessage, makePolicy, refundCall, scripted } from './helpers.js';
import { collectedSdkSpans, ctrlrunSpans } from './telemetry-helpers.js';

/**
 * Telemetry does only the work a listener needs (issue 39): a call's OpenTelemetry span that does
 * not record (sampled out, or no SDK) is given no attributes or events, while the metrics still
 * count; the arguments shown in clear are the canonical JSON their hash was taken of.
 */
class Reader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onShutdown() {}
  protected async onForceFlush() {}
}

beforeAll(() => {
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(() => {
  api.context.disable();
});

/** The API handed to the control, over `provider`: each span it starts counted, and each thing set on one. */
function countingApi(provider: BasicTracerProvider, meters: MeterProvider) {
  const seen = { started: 0, given: 0 };
  const tracer = provider.getTracer('ctrlrun-gen');
  const GIVE = new Set(['setAttributes', 'setAttribute', 'addEvent', 'setStatus']);
  const startSpan = (...a: Parameters<typeof tracer.startSpan>) => {
    seen.started++;
    const span = tracer.startSpan(...a);
    return new Proxy(span, {
      get(target, key) {
        if (typeof key === 'string' && GIVE.has(key)) seen.given++;
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  };
  const otel: OpenTelemetryApi = {
    trace: {
      getTracer: () => ({ startSpan }) as never,
      getSpan: (c) => api.trace.getSpan(c as api.Context),
      setSpan: (c, s) => api.trace.setSpan(c as api.Context, s as never),
    },
    context: api.context,
    metrics: { getMeter: (name) => meters.getMeter(name) as never },
  };
  return { otel, seen };
}

function refundDesk(telemetry: TelemetryOption) {
  const control = createControl({ store: memoryStore(), identity: ((rc: { context: { user?: string } }) => rc.context?.user ?? null) as never, telemetry });
  const runs: unknown[] = [];
  const tool = bindProtectedTool<'stripe.refund' | 'stripe.charge.read'>(control, makePolicy())('stripe.refund', {
    name: 'refund',
    description: 'Refund a payment',
    parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
    execute: async (args) => {
      runs.push(args);
      return 'refunded';
    },
  });
  return { tool, runs };
}

async function decisions(reader: Reader) {
  const { resourceMetrics } = (await reader.collect()) as { resourceMetrics: ResourceMetrics };
  const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === 'ctrlrun.decisions');
  return (metric?.dataPoints ?? []).map((p) => [p.attributes, p.value]);
}

describe('telemetry where nobody listens', () => {
  it('a call span that does not record is given nothing, one span a call; the decisions are still counted', async () => {
    const reader = new Reader();
    const meters = new MeterProvider({ readers: [reader] });
    const { otel, seen } = countingApi(new BasicTracerProvider({ sampler: new AlwaysOffSampler() }), meters);
    const d = refundDesk({ sdkTracing: false, openTelemetry: otel });
    const model = scripted(
      [refundCall({ payment_id: 'pay_1', amount: 500 }, 'c1'), refundCall({ payment_id: 'pay_2', amount: 700 }, 'c2')],
      [assistantMessage('done')],
    );
    await run(agentWith(model, [d.tool]), 'refund', { context: { user: 'alice' } });
    expect(d.runs).toHaveLength(2);
    // each call's execute_tool span, and nothing on it or beside it for its four receipts
    expect(seen).toEqual({ started: 2, given: 0 });
    expect(await decisions(reader)).toEqual([[{ 'ctrlrun.action': 'stripe.refund', 'ctrlrun.decision': 'allow', 'ctrlrun.outcome': 'allowed' }, 2]]);
  });

  it('the same call with a span that records: its receipts are set on it (the counter above sees the work)', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ sampler: new AlwaysOnSampler(), spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const { otel, seen } = countingApi(provider, new MeterProvider());
    const d = refundDesk({ sdkTracing: false, openTelemetry: otel });
    await run(agentWith(scripted([refundCall({ payment_id: 'pay_1', amount: 500 }, 'c1')], [assistantMessage('done')]), [d.tool]), 'refund', {
      context: { user: 'alice' },
    });
    expect(seen.started).toBe(1);
    expect(seen.given).toBeGreaterThan(0);
    const [span] = exporter.getFinishedSpans();
    // the span holds the last receipt's attributes, each receipt an event
    expect(span!.attributes).toMatchObject({ 'ctrlrun.outcome': 'executed', 'ctrlrun.event': 'settlement', 'ctrlrun.decision': 'allow', 'ctrlrun.rule': 0 });
    expect(span!.events.map((e) => e.attributes?.['ctrlrun.outcome'])).toEqual(['allowed', 'executed']);
  });
});

describe('arguments in clear', () => {
  const spans = collectedSdkSpans();

  it('an action without labels, in a run that shows values: its arguments as the canonical JSON their hash was taken of', async () => {
    const d = refundDesk({});
    const model = scripted([refundCall({ payment_id: 'pay_1', amount: 500 }, 'c1')], [assistantMessage('done')]);
    await new Runner({ tracingDisabled: false }).run(agentWith(model, [d.tool]), 'refund', { context: { user: 'alice' } });
    const ours = ctrlrunSpans(spans);
    expect(ours.map((s) => s.name)).toEqual(['ctrlrun.decision', 'ctrlrun.settlement']);
    for (const s of ours) expect(s.data['ctrlrun.arguments']).toBe(canonicalJson({ payment_id: 'pay_1', amount: 500 }));
  });
});
