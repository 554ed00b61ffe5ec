import { Runner, RunState, setTracingDisabled, withTrace } from '@openai/agents';
import { beforeEach, describe, expect, it } from 'vitest';
import { canonicalHash, sha256Hex } from '../../src/runtime/canonical.js';
import { agentWith, assistantMessage, refundCall, scripted } from './helpers.js';
import { collectedSdkSpans, ctrlrunSpans, labelledDesk } from './telemetry-helpers.js';

const spans = collectedSdkSpans();
beforeEach(() => {
  spans.length = 0;
});

const functionSpan = (name: string) => spans.find((s) => s.spanData.type === 'function' && s.spanData.name === name);
const args = (payment: string, amount: number) => ({ payment_id: payment, amount, note: `secret note of ${payment}` });

describe("decisions in the SDK's own traces", () => {
  it('an allowed call: its decision and settlement are custom spans under the call’s function span, arguments as their hash, a labelled one never in clear', async () => {
    const d = labelledDesk();
    const model = scripted([refundCall(args('pay_1', 500), 'c1')], [assistantMessage('done')]);
    await new Runner({ tracingDisabled: false }).run(agentWith(model, [d.tool]), 'refund', { context: { user: 'alice' } });
    expect(d.runs).toHaveLength(1);
    const fn = functionSpan('refund');
    const ours = ctrlrunSpans(spans);
    expect(ours.map((s) => [s.name, s.data['ctrlrun.outcome']])).toEqual([
      ['ctrlrun.decision', 'allowed'],
      ['ctrlrun.settlement', 'executed'],
    ]);
    for (const s of ours) expect(s.parentId).toBe(fn!.spanId);
    expect(ours[0]!.data).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'refund',
      'gen_ai.tool.call.id': 'c1',
      'ctrlrun.action': 'stripe.refund',
      'ctrlrun.decision': 'allow',
      'ctrlrun.rule': 0,
      'ctrlrun.reason': 'rule[0]',
      'ctrlrun.policy.hash': d.policy.hash,
      'ctrlrun.arguments.hash': canonicalHash(args('pay_1', 500)),
      // the run shows argument values (the SDK's default), so the unlabelled ones are in clear
      'ctrlrun.arguments': '{"amount":500,"note":"[labelled]","payment_id":"pay_1"}',
      'ctrlrun.principal': 'alice',
      // the action has labels: its key (a template may read one) only as its hash
      'ctrlrun.effect.key.hash': `sha256:${sha256Hex('refund:pay_1')}`,
    });
    expect(JSON.stringify(ours)).not.toContain('secret note');
  });

  it('a denied call: one span, refused, with its rule and reason; the body never ran', async () => {
    const d = labelledDesk();
    const model = scripted([refundCall(args('pay_2', 5_000_000), 'c2')], [assistantMessage('done')]);
    await new Runner({ tracingDisabled: false }).run(agentWith(model, [d.tool]), 'refund', { context: { user: 'alice' } });
    expect(d.runs).toHaveLength(0);
    const ours = ctrlrunSpans(spans);
    expect(ours.map((s) => s.name)).toEqual(['ctrlrun.decision']);
    expect(ours[0]!.data).toMatchObject({ 'ctrlrun.decision': 'deny', 'ctrlrun.outcome': 'denied', 'ctrlrun.refused': true, 'ctrlrun.rule': 2 });
    expect(ours[0]!.parentId).toBe(functionSpan('refund')!.spanId);
  });

  it('pause, answer and resume: the pause and the claim carry the approval id, the resume stays in the paused run’s trace', async () => {
    const d = labelledDesk();
    const model = scripted([refundCall(args('pay_3', 500_000), 'c3')], [assistantMessage('done')]);
    const agent = agentWith(model, [d.tool]);
    const paused = await new Runner({ tracingDisabled: false }).run(agent, 'refund', { context: { user: 'alice' } });
    expect(paused.interruptions).toHaveLength(1);
    const saved = paused.state.toString();
    const state = await RunState.fromString(agent, saved);
    // an answer is seen where the application traces it
    await withTrace('approvals desk', () => d.control.approve(state, state.getInterruptions()[0]!, { approver: 'bob' }));
    await new Runner({ tracingDisabled: false }).run(agent, state);
    expect(d.runs).toHaveLength(1);
    const ours = ctrlrunSpans(spans);
    expect(ours.map((s) => [s.name, s.data['ctrlrun.outcome']])).toEqual([
      ['ctrlrun.pause', 'requested'],
      ['ctrlrun.answer', 'approved'],
      ['ctrlrun.claim', 'claimed'],
      ['ctrlrun.settlement', 'executed'],
    ]);
    for (const s of ours) expect(s.data['ctrlrun.approval.id']).toBe('c3');
    expect(ours[1]!.data['ctrlrun.approvers']).toEqual(['bob']);
    const [pause, , claim, settled] = ours;
    expect(claim!.traceId).toBe(pause!.traceId);
    expect(settled!.traceId).toBe(pause!.traceId);
    expect(claim!.parentId).toBe(functionSpan('refund')!.spanId);
  });

  it('an approval with edits and a respond answer: each answer is on the span with who edited, and the resumed call runs the edit', async () => {
    const d = labelledDesk();
    const model = scripted([refundCall(args('pay_5', 500_000), 'c5'), refundCall(args('pay_6', 500_000), 'c6')], [assistantMessage('done')]);
    const agent = agentWith(model, [d.tool]);
    const paused = await new Runner({ tracingDisabled: false }).run(agent, 'refund', { context: { user: 'alice' } });
    const state = await RunState.fromString(agent, paused.state.toString());
    const [first, second] = state.getInterruptions();
    await withTrace('approvals desk', async () => {
      await d.control.approve(state, first!, { approver: 'bob', arguments: args('pay_5', 200_000) });
      await d.control.respond(state, second!, { approver: 'bob', result: 'refunded by hand' });
    });
    await new Runner({ tracingDisabled: false }).run(agent, state);
    expect(d.runs).toEqual([args('pay_5', 200_000)]);
    const answers = ctrlrunSpans(spans).filter((s) => s.name === 'ctrlrun.answer');
    expect(answers.map((s) => [s.data['ctrlrun.approval.id'], s.data['ctrlrun.outcome'], s.data['ctrlrun.edited_by'] ?? null])).toEqual([
      ['c5', 'approved', 'bob'],
      ['c6', 'responded', null],
    ]);
  });

  it("disabling the SDK's tracing disables it: a run with tracingDisabled, or setTracingDisabled(true), records nothing", async () => {
    const d = labelledDesk();
    await new Runner({ tracingDisabled: true }).run(agentWith(scripted([refundCall(args('pay_4', 500), 'c4')], [assistantMessage('done')]), [d.tool]), 'go', {
      context: { user: 'alice' },
    });
    setTracingDisabled(true);
    try {
      await new Runner({ tracingDisabled: false }).run(
        agentWith(scripted([refundCall(args('pay_5', 500), 'c5')], [assistantMessage('done')]), [d.tool]),
        'go',
        {
          context: { user: 'alice' },
        },
      );
    } finally {
      setTracingDisabled(false);
    }
    expect(d.runs).toHaveLength(2);
    expect(spans).toEqual([]);
  });

  it('`telemetry: false` or `sdkTracing: false` keeps the control out of a traced run', async () => {
    for (const telemetry of [false, { sdkTracing: false }] as const) {
      spans.length = 0;
      const d = labelledDesk({ telemetry });
      await new Runner({ tracingDisabled: false }).run(
        agentWith(scripted([refundCall(args('pay_6', 500), 'c6')], [assistantMessage('done')]), [d.tool]),
        'go',
        {
          context: { user: 'alice' },
        },
      );
      expect(functionSpan('refund')).toBeDefined();
      expect(ctrlrunSpans(spans)).toEqual([]);
    }
  });

  it('with traceIncludeSensitiveData: false no argument value reaches any span of the run, ours or the SDK’s', async () => {
    const d = labelledDesk();
    const model = scripted(
      [refundCall(args('pay_7', 500), 'c7'), refundCall(args('pay_8', 5_000_000), 'c8'), refundCall(args('pay_9', 500_000), 'c9')],
      [assistantMessage('done')],
    );
    await new Runner({ tracingDisabled: false, traceIncludeSensitiveData: false }).run(agentWith(model, [d.tool]), 'go', { context: { user: 'alice' } });
    const ours = ctrlrunSpans(spans);
    expect(ours.map((s) => s.data['ctrlrun.outcome']).sort()).toEqual(['allowed', 'denied', 'executed', 'requested']);
    const all = JSON.stringify(spans.map((s) => s.toJSON()));
    for (const value of ['pay_7', 'pay_8', 'pay_9', 'secret note', '5000000', '500000']) expect(all).not.toContain(value);
    for (const s of ours) {
      expect(s.data['ctrlrun.arguments']).toBeUndefined();
      expect(s.data['ctrlrun.principal']).toBeUndefined();
      expect(s.data['ctrlrun.arguments.hash']).toMatch(/^[0-9a-f]{64}$/);
    }
  });
});
