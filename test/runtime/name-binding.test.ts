import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bindProtectedTool, createControl, CtrlrunError, memoryStore, run } from '../../src/runtime/index.js';
import { agentWith, assistantMessage, functionCall, makePolicy, refundCall, refundTool, scripted, setup, toolOutputSeen } from './helpers.js';

/** The manifest of the helpers' policy maps `refund` -> stripe.refund and `Lookup Charge` -> stripe.charge.read. */
describe('a tool name is bound to the action the manifest maps it to (issue 10 item 6)', () => {
  it("a 5,000,000 refund declared under the read action's allow never runs: protectedTool refuses it at creation", async () => {
    const s = setup();
    const calls: unknown[] = [];
    const model = scripted([refundCall({ payment_id: 'pay_1', amount: 5_000_000 }, 'c1')], [assistantMessage('refunded')]);
    const attempt = async () => {
      const disguised = s.protectedTool('stripe.charge.read', {
        name: 'refund',
        description: 'Refund a payment',
        parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
        execute: async (args) => {
          calls.push(args);
          return 'refunded';
        },
      });
      return run(agentWith(model, [disguised]), 'refund pay_1 in full', { context: { user: 'alice' } });
    };
    const error = await attempt().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CtrlrunError);
    expect((error as Error).message).toContain(
      `protectedTool('stripe.charge.read'): the manifest (ctrlrun.tools.yaml) maps the tool name "refund" to action stripe.refund`,
    );
    expect((error as Error).message).toContain("Use protectedTool('stripe.refund', …)");
    expect(calls).toEqual([]);
    expect(model.calls).toHaveLength(0);
    expect(await s.store.listReceipts()).toEqual([]);
  });

  it('the same refund through its own action is decided by the refund rules: denied, the body never runs', async () => {
    const s = setup();
    const { tool, calls } = refundTool(s);
    const model = scripted([refundCall({ payment_id: 'pay_1', amount: 5_000_000 }, 'c1')], [assistantMessage('no')]);
    await run(agentWith(model, [tool]), 'refund pay_1 in full', { context: { user: 'alice' } });
    expect(calls).toEqual([]);
    expect(toolOutputSeen(model, 1, 'c1')).toContain('denied by policy');
  });

  it("names are compared as the SDK shows them: 'Lookup_Charge' is the manifest's 'Lookup Charge'", () => {
    const s = setup();
    expect(() => s.protectedTool('stripe.refund', { name: 'Lookup_Charge', description: 'x', parameters: z.object({}), execute: async () => 'x' })).toThrow(
      /maps the tool name "Lookup Charge" to action stripe\.charge\.read, not stripe\.refund/,
    );
    // its own action is fine, under either spelling
    expect(s.protectedTool('stripe.charge.read', { name: 'Lookup Charge', description: 'x', parameters: z.object({}), execute: async () => 'x' }).name).toBe(
      'Lookup_Charge',
    );
  });

  it('a name the manifest does not map is not bound: it runs under the action it was given', async () => {
    const s = setup();
    const calls: unknown[] = [];
    const t = s.protectedTool('stripe.charge.read', {
      name: 'charge_summary',
      description: 'x',
      parameters: z.object({ id: z.string() }),
      execute: async (args) => void calls.push(args),
    });
    const model = scripted([functionCall('charge_summary', { id: 'ch_1' }, { callId: 'c1' })], [assistantMessage('ok')]);
    await run(agentWith(model, [t]), 'go', { context: { user: 'alice' } });
    expect(calls).toEqual([{ id: 'ch_1' }]);
  });
});

// Issue 40, item 5: tools whose names the code computes (`flows.map((f) => tool({ name: f.name }))`),
// mapped by the manifest's `tool: { at, names }`: the model's name maps to one action.
describe('computed tool names keep to the names their entry declares', () => {
  const computed = () => {
    const control = createControl({ store: memoryStore(), identity: (rc: { context: { user?: string } }) => rc.context?.user ?? null });
    const policy = { ...makePolicy(), computedNames: { 'stripe.charge.read': ['report_*', 'summary'] } };
    return bindProtectedTool<'stripe.refund' | 'stripe.charge.read'>(control, policy);
  };
  const options = (name: string, calls: unknown[] = []) => ({
    name,
    description: 'A report',
    parameters: z.object({ id: z.string() }),
    execute: async (args: { id: string }) => {
      calls.push({ name, ...args });
      return 'ok';
    },
  });

  it('tools made in a loop under the pattern run, each under its action, through the Runner', async () => {
    const protectedTool = computed();
    const calls: unknown[] = [];
    const tools = ['sales', 'stock'].map((f) => protectedTool('stripe.charge.read', options(`report_${f}`, calls)));
    tools.push(protectedTool('stripe.charge.read', options('summary', calls)));
    const model = scripted([functionCall('report_stock', { id: 'r1' }, { callId: 'c1' })], [assistantMessage('ok')]);
    await run(agentWith(model, tools), 'stock report', { context: { user: 'alice' } });
    expect(calls).toEqual([{ name: 'report_stock', id: 'r1' }]);
  });

  it('a computed name outside the patterns is refused at creation, and one the manifest maps to another action too', () => {
    const protectedTool = computed();
    expect(() => protectedTool('stripe.charge.read', options('wire_funds'))).toThrow(
      /the tool name "wire_funds" is not among the names the manifest \(ctrlrun\.tools\.yaml\) gives the tools of stripe\.charge\.read \(report_\*, summary\)/,
    );
    expect(() => protectedTool('stripe.charge.read', options('refund'))).toThrow(/maps the tool name "refund" to action stripe\.refund/);
    // the sanitized name is what the model calls: `report sales` is `report_sales`
    expect(protectedTool('stripe.charge.read', options('report sales')).name).toBe('report_sales');
  });
});
