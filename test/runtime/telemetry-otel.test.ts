import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as api from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { AggregationTemporality, MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { RunState } from '@openai/agents';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../src/runtime/index.js';
import { agentWith, assistantMessage, refundCall, scripted } from './helpers.js';
import { labelledDesk } from './telemetry-helpers.js';

/** A metric reader the test collects from when it wants (cumulative). */
class Reader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onShutdown() {}
  protected async onForceFlush() {}
}

const exporter = new InMemorySpanExporter();
const received: unknown[] = [];
let receiver: Server;
let otlp: OTLPTraceExporter;
const reader = new Reader();
const meters = new MeterProvider({ readers: [reader] });

beforeAll(async () => {
  // an OTLP/HTTP collector on loopback: what the exporter posts, as it posts it
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ path: req.url, type: req.headers['content-type'], body: JSON.parse(body) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  otlp = new OTLPTraceExporter({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v1/traces` });
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter), new SimpleSpanProcessor(otlp)] });
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  api.trace.setGlobalTracerProvider(provider);
  api.metrics.setGlobalMeterProvider(meters);
});
afterAll(async () => {
  await otlp.shutdown();
  await new Promise((resolve) => receiver.close(resolve));
  api.trace.disable();
  api.metrics.disable();
  api.context.disable();
});
beforeEach(() => exporter.reset());

const args = (payment: string, amount: number) => ({ payment_id: payment, amount, note: `secret note of ${payment}` });
const desk = (extra: { body?: () => unknown } = {}) => labelledDesk({ telemetry: { openTelemetry: api }, ...extra });
const named = (prefix: string) => exporter.getFinishedSpans().filter((s) => s.name.startsWith(prefix));
const events = (s: ReadableSpan) => s.events.map((e) => e.name);

/** One metric's data points as [attributes, value] (a histogram's value is its count). */
async function points(name: string) {
  const { resourceMetrics } = (await reader.collect()) as { resourceMetrics: ResourceMetrics };
  const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);
  return (metric?.dataPoints ?? []).map((p) => [p.attributes, typeof p.value === 'number' ? p.value : (p.value as { count: number }).count]);
}

describe('OpenTelemetry through the real Runner', () => {
  it('allow (with an effect key), deny, and a duplicate: one execute_tool span a call, the receipts its events, the body’s spans its children', async () => {
    const tracer = api.trace.getTracer('payments');
    // the body calls a remote, traced by the application
    const d = desk({ body: () => tracer.startActiveSpan('stripe.refunds.create', (s) => s.end()) });
    const model = scripted(
      [refundCall(args('pay_1', 500), 'c1')],
      [refundCall(args('pay_2', 5_000_000), 'c2')],
      [refundCall(args('pay_1', 600), 'c3')],
      [assistantMessage('done')],
    );
    await tracer.startActiveSpan('checkout', async (root) => {
      // the third call's duplicate propagates out of the run as itself
      await expect(run(agentWith(model, [d.tool]), 'refund', { context: { user: 'alice' } })).rejects.toThrow(/already happened/);
      root.end();
    });
    expect(d.runs).toHaveLength(1);
    const spans = named('execute_tool');
    expect(spans.map((s) => [s.attributes['gen_ai.tool.call.id'], events(s), s.status.code])).toEqual([
      ['c1', ['ctrlrun.decision', 'ctrlrun.settlement'], api.SpanStatusCode.UNSET],
      ['c2', ['ctrlrun.decision'], api.SpanStatusCode.ERROR],
      ['c3', ['ctrlrun.reservation'], api.SpanStatusCode.ERROR],
    ]);
    const [allowed, denied, duplicate] = spans;
    expect(allowed!.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'refund',
      'gen_ai.tool.type': 'function',
      'ctrlrun.action': 'stripe.refund',
      'ctrlrun.decision': 'allow',
      'ctrlrun.rule': 0,
      'ctrlrun.outcome': 'executed',
      'ctrlrun.policy.hash': d.policy.hash,
    });
    expect(allowed!.events[0]!.attributes).toMatchObject({ 'ctrlrun.outcome': 'allowed', 'ctrlrun.event': 'decision' });
    expect(denied!.attributes).toMatchObject({ 'ctrlrun.decision': 'deny', 'ctrlrun.outcome': 'denied', 'ctrlrun.rule': 2, 'ctrlrun.refused': true });
    expect(duplicate!.attributes).toMatchObject({ 'ctrlrun.event': 'reservation', 'ctrlrun.outcome': 'duplicate', 'ctrlrun.reason': 'effect_committed' });
    expect(duplicate!.attributes['ctrlrun.effect.key.hash']).toMatch(/^sha256:[0-9a-f]{64}$/);
    const refused = await points('ctrlrun.refusals');
    expect(refused).toContainEqual([{ 'ctrlrun.action': 'stripe.refund', 'ctrlrun.reason': 'rule[2]' }, 1]);
    expect(refused).toContainEqual([{ 'ctrlrun.action': 'stripe.refund', 'ctrlrun.reason': 'effect_committed' }, 1]);
    expect(named('stripe.refunds.create')[0]!.parentSpanContext?.spanId).toBe(allowed!.spanContext().spanId);
    // every ctrlrun span is in the application's trace, under its span
    const root = named('checkout')[0]!;
    for (const s of spans) expect(s.spanContext().traceId).toBe(root.spanContext().traceId);
    // no run here shows argument values (no SDK trace of the call): no value in any attribute or event
    const all = JSON.stringify(exporter.getFinishedSpans().map((s) => [s.attributes, s.events]));
    for (const value of ['pay_1', 'pay_2', 'secret note', 'alice']) expect(all).not.toContain(value);
  });

  it('pause, approve, resume in another run: the resume’s span links to the pause’s; the metrics count decisions, refusals, the answer’s latency and the pending request', async () => {
    const d = desk();
    const agent = agentWith(scripted([refundCall(args('pay_3', 500_000), 'c4')], [assistantMessage('done')]), [d.tool]);
    const paused = await run(agent, 'refund', { context: { user: 'alice' } });
    expect(paused.interruptions).toHaveLength(1);
    const [pause] = named('approval_request');
    expect(pause!.attributes).toMatchObject({ 'ctrlrun.approval.id': 'c4', 'ctrlrun.outcome': 'requested', 'gen_ai.tool.call.id': 'c4' });
    expect(await points('ctrlrun.approvals.pending')).toContainEqual([{ 'ctrlrun.action': 'stripe.refund' }, 1]);

    const state = await RunState.fromString(agent, paused.state.toString());
    d.clock.advance(90_000);
    await d.control.approve(state, state.getInterruptions()[0]!, { approver: 'bob' });
    const [answer] = named('approval_answer');
    expect(answer!.attributes).toMatchObject({ 'ctrlrun.approval.id': 'c4', 'ctrlrun.outcome': 'approved', 'ctrlrun.approvers': ['bob'] });
    await run(agent, state);
    expect(d.runs).toHaveLength(1);
    const resumed = named('execute_tool').find((s) => s.attributes['gen_ai.tool.call.id'] === 'c4')!;
    expect(events(resumed)).toEqual(['ctrlrun.claim', 'ctrlrun.settlement']);
    expect(resumed.links.map((l) => l.context.spanId)).toEqual([pause!.spanContext().spanId]);

    expect(await points('ctrlrun.approval.duration')).toContainEqual([{ 'ctrlrun.action': 'stripe.refund', 'ctrlrun.answer': 'approve' }, 1]);
    const decided = await points('ctrlrun.decisions');
    expect(decided).toContainEqual([{ 'ctrlrun.action': 'stripe.refund', 'ctrlrun.decision': 'approve', 'ctrlrun.outcome': 'requested' }, 1]);
    expect(decided).toContainEqual([{ 'ctrlrun.action': 'stripe.refund', 'ctrlrun.decision': 'approve', 'ctrlrun.outcome': 'claimed' }, 1]);
    expect(await points('ctrlrun.approvals.pending')).toContainEqual([{ 'ctrlrun.action': 'stripe.refund' }, 0]);
  });

  it('an expired approval and an ambiguous effect are counted', async () => {
    const d = labelledDesk({ telemetry: { openTelemetry: api } });
    const agent = agentWith(scripted([refundCall(args('pay_5', 500_000), 'c5')], [assistantMessage('done')]), [d.tool]);
    const paused = await run(agent, 'refund', { context: { user: 'alice' } });
    const state = await RunState.fromString(agent, paused.state.toString());
    await d.control.approve(state, state.getInterruptions()[0]!, { approver: 'bob' });
    d.clock.advance(16 * 60_000);
    await expect(run(agent, state)).rejects.toThrow(/expired/);
    expect(await points('ctrlrun.approvals.expired')).toContainEqual([{ 'ctrlrun.action': 'stripe.refund' }, 1]);
    const broken = desk({
      body: () => {
        throw new Error('connection reset');
      },
    });
    await expect(
      run(agentWith(scripted([refundCall(args('pay_6', 500), 'c6')], [assistantMessage('done')]), [broken.tool]), 'go', { context: { user: 'alice' } }),
    ).rejects.toThrow(/connection reset/);
    expect(await points('ctrlrun.effects.ambiguous')).toContainEqual([{ 'ctrlrun.action': 'stripe.refund' }, 1]);
    const failed = named('execute_tool').find((s) => s.attributes['gen_ai.tool.call.id'] === 'c6')!;
    expect([failed.status.code, failed.attributes['ctrlrun.outcome']]).toEqual([api.SpanStatusCode.ERROR, 'ambiguous']);
    // the body's message is not an argument-free word: redacted where the run shows no argument values
    expect(failed.attributes['ctrlrun.reason']).toBe('[redacted]');
    expect(JSON.stringify([failed.status, failed.events])).not.toContain('connection reset');
  });

  it('the OTLP/HTTP exporter delivers the spans, with their attributes, to a collector on loopback', async () => {
    const d = desk();
    await run(agentWith(scripted([refundCall(args('pay_9', 700), 'c9')], [assistantMessage('done')]), [d.tool]), 'go', { context: { user: 'alice' } });
    await otlp.forceFlush();
    const spans = received.flatMap(
      (r) =>
        (
          r as {
            body: {
              resourceSpans: {
                scopeSpans: { scope: { name: string }; spans: { name: string; attributes: { key: string; value: Record<string, unknown> }[] }[] }[];
              }[];
            };
          }
        ).body.resourceSpans[0]!.scopeSpans,
    );
    const ours = spans.filter((s) => s.scope.name === 'ctrlrun-gen').flatMap((s) => s.spans);
    const c9 = ours.find((s) => s.attributes.some((a) => a.key === 'gen_ai.tool.call.id' && a.value.stringValue === 'c9'));
    expect(c9?.name).toBe('execute_tool refund');
    expect(Object.fromEntries(c9!.attributes.map((a) => [a.key, Object.values(a.value)[0]]))).toMatchObject({
      'ctrlrun.decision': 'allow',
      'ctrlrun.outcome': 'executed',
      'ctrlrun.action': 'stripe.refund',
    });
    expect((received[0] as { path: string }).path).toBe('/v1/traces');
  });
});
