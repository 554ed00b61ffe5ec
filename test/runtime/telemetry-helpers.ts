import { setTraceProcessors, setTracingDisabled, type Span, type TracingProcessor } from '@openai/agents';
import { afterAll, beforeAll } from 'vitest';
import { z } from 'zod';
import { bindProtectedTool, createControl, memoryStore, type Store, type TelemetryOption } from '../../src/runtime/index.js';
import { makePolicy, manualClock } from './helpers.js';

/** A refund whose `note` the policy labels (`data: { note: internal }`); payment_id and amount are not labelled. */
export function labelledDesk(options: { store?: Store; telemetry?: TelemetryOption; clock?: ReturnType<typeof manualClock>; body?: () => unknown } = {}) {
  const store = options.store ?? memoryStore();
  const clock = options.clock ?? manualClock();
  const control = createControl({
    store,
    identity: ((rc: { context: { user?: string } }) => rc.context?.user ?? null) as never,
    clock: clock.now,
    ...(options.telemetry !== undefined ? { telemetry: options.telemetry } : {}),
  });
  const base = makePolicy();
  const policy = { ...base, actions: { ...base.actions, 'stripe.refund': { ...base.actions['stripe.refund']!, sensitive: ['note'] } } };
  const runs: unknown[] = [];
  const tool = bindProtectedTool<'stripe.refund' | 'stripe.charge.read'>(control, policy)('stripe.refund', {
    name: 'refund',
    description: 'Refund a payment',
    parameters: z.object({ payment_id: z.string(), amount: z.number().int(), note: z.string() }),
    execute: async (args) => {
      runs.push(args);
      await options.body?.();
      return 'refunded';
    },
  });
  return { store, clock, control, policy, tool, runs };
}

/** A tracing processor that keeps every span the SDK ends. */
export function spanCollector() {
  const spans: Span<any>[] = [];
  const processor: TracingProcessor = {
    onTraceStart: async () => undefined,
    onTraceEnd: async () => undefined,
    onSpanStart: async () => undefined,
    onSpanEnd: async (span) => void spans.push(span),
    shutdown: async () => undefined,
    forceFlush: async () => undefined,
  };
  return { spans, processor };
}

/** The SDK's traces on for the enclosing block's tests, into a collector (off again after): the spans it keeps. */
export function collectedSdkSpans(): Span<any>[] {
  const { spans, processor } = spanCollector();
  beforeAll(() => {
    setTraceProcessors([processor]);
    setTracingDisabled(false);
  });
  afterAll(() => {
    setTracingDisabled(true);
    setTraceProcessors([]);
  });
  return spans;
}

/** The SDK spans this library recorded (custom spans named `ctrlrun.*`), with their data. */
export function ctrlrunSpans(spans: Span<any>[]) {
  return spans
    .filter((s) => s.spanData.type === 'custom' && String(s.spanData.name).startsWith('ctrlrun.'))
    .map((s) => ({
      name: s.spanData.name as string,
      data: s.spanData.data as Record<string, unknown>,
      parentId: s.parentId as string | null,
      traceId: s.traceId as string,
    }));
}
