import { Agent, Handoff, handoff, run as sdkRun, type HandoffInputData } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  bindAgentTools,
  bindHandoffs,
  createControl,
  DuplicateEffect,
  memoryStore,
  run,
  verifyReceipts,
  type CompiledPolicy,
  type DecisionResult,
} from '../../src/runtime/index.js';

/**
 * Issue 35: a handoff is a door. `protectHandoff` decides every transfer by the policy on the
 * handoff's input, through the real Runner: a refusal runs no `onHandoff`, hands nothing over and
 * tells the model; an allowed one runs `onHandoff` once, with receipts and a decision-log entry.
 */

type Ctx = { user?: string };
const matched = (decision: DecisionResult['decision'], rule: number): DecisionResult => ({ decision, rule, reason: `rule[${rule}]` });

/** desk.oncall: severity `high` allow, `low` deny; effect `page:{severity}`. desk.billing: allow. desk.legal: approve (a policy generate refuses). */
function handoffPolicy(): CompiledPolicy {
  const severity = (args: unknown) => (args && typeof args === 'object' ? (args as { severity?: unknown }).severity : undefined);
  return {
    hash: `sha256:${'d'.repeat(64)}`,
    mode: 'enforce',
    environment: 'test',
    actions: {
      'desk.oncall': {
        id: 'desk.oncall',
        decide: (args: unknown) => (severity(args) === 'high' ? matched('allow', 0) : matched('deny', 1)),
        effect: (args: unknown) => (typeof severity(args) === 'string' ? { ok: true, value: `page:${severity(args)}` } : { ok: false, arg: 'severity' }),
        controls: [],
        approvalsRequired: 1,
        maxAttempts: 1,
      },
      'desk.billing': { id: 'desk.billing', decide: () => matched('allow', 0), controls: [], approvalsRequired: 1, maxAttempts: 1 },
      'desk.legal': { id: 'desk.legal', decide: () => matched('approve', 0), controls: [], approvalsRequired: 1, maxAttempts: 1 },
    },
    tools: {},
    handoffs: { oncall: 'desk.oncall', billing: 'desk.billing', legal: 'desk.legal' },
  } as CompiledPolicy;
}

function setup() {
  const store = memoryStore();
  const control = createControl({ store, identity: (rc) => (rc.context as Ctx | undefined)?.user ?? null });
  const policy = handoffPolicy();
  return { store, control, policy, ...bindHandoffs<'desk.oncall' | 'desk.billing' | 'desk.legal'>(control, policy) };
}

const page = (callId: string, severity: string) => functionCall('transfer_to_oncall', { severity }, { callId });

/** The desk, with a protected handoff to oncall that pages (and filters its history when `filtered` is given). */
function desk(s: ReturnType<typeof setup>, model: ScriptedModel, paged: string[], filtered?: string[]) {
  const oncall = new Agent<Ctx>({ name: 'oncall', instructions: 'incidents', model });
  const h = s.protectHandoff('desk.oncall', oncall, {
    inputType: z.object({ severity: z.string() }),
    onHandoff: (_ctx, input) => void paged.push(input?.severity ?? '?'),
    ...(filtered
      ? {
          inputFilter: (data: HandoffInputData) => {
            filtered.push('filtered');
            return data;
          },
        }
      : {}),
  });
  return { agent: new Agent<Ctx>({ name: 'desk', instructions: 'route', model, handoffs: [h] }), oncall };
}

/** What the model read back for a call (the function call result's text). */
function outputOf(model: ScriptedModel, index: number, callId: string): string {
  const input = model.calls[index]?.request.input;
  const item = Array.isArray(input)
    ? input.find((i) => (i as { type?: string; callId?: string }).type === 'function_call_result' && (i as { callId?: string }).callId === callId)
    : undefined;
  return JSON.stringify((item as { output?: unknown } | undefined)?.output ?? null);
}

describe('protectHandoff through the real Runner', () => {
  it('deny: no onHandoff, no transfer, its own inputFilter not applied, the model reads why; then an allowed one runs onHandoff once and transfers', async () => {
    const s = setup();
    const paged: string[] = [];
    const filtered: string[] = [];
    const model = new ScriptedModel([[page('h1', 'low')], [page('h2', 'high')], [assistantMessage('oncall here')]]);
    const { agent, oncall } = desk(s, model, paged, filtered);
    const result = await run(agent, 'help', { context: { user: 'alice' } });
    expect(result.finalOutput).toBe('oncall here');
    expect(result.lastAgent).toBe(oncall);
    expect(paged).toEqual(['high']);
    expect(filtered).toEqual(['filtered']); // only for the transfer that happened
    expect(outputOf(model, 1, 'h1')).toContain('The transfer to oncall was refused (desk.oncall denied by policy (rule[1]))');
    expect(outputOf(model, 1, 'h1')).toContain('You were not transferred');
    // the model's second turn was still the desk's: it was not handed over
    expect(model.calls[1]?.request.systemInstructions).toBe('route');
    const receipts = await s.store.listReceipts();
    expect(receipts.map((r) => [r.action, r.result, r.reason, r.effect_key ?? null, r.principal])).toEqual([
      ['desk.oncall', 'denied', 'rule[1]', null, 'alice'],
      ['desk.oncall', 'allowed', 'rule[0]', 'page:high', 'alice'],
      ['desk.oncall', 'executed', 'rule[0]', 'page:high', 'alice'],
    ]);
    expect((await s.store.listDecisions!()).map((d) => [d.action, d.decision])).toEqual([
      ['desk.oncall', 'deny'],
      ['desk.oncall', 'allow'],
    ]);
    expect(await verifyReceipts(s.store)).toEqual({ ok: true, count: 3 });
  });

  it("through the SDK's own run(): the refusal keeps the desk, and the model reads the transfer message naming it", async () => {
    const s = setup();
    const paged: string[] = [];
    const model = new ScriptedModel([[page('h1', 'low')], [assistantMessage('still desk')]]);
    const { agent } = desk(s, model, paged);
    const result = await sdkRun(agent, 'help', { context: { user: 'alice' } });
    expect(result.lastAgent).toBe(agent);
    expect(paged).toEqual([]);
    expect(outputOf(model, 1, 'h1')).toBe(JSON.stringify({ type: 'text', text: JSON.stringify({ assistant: 'desk' }) }));
  });

  it('no principal: refused, nothing runs; the effect makes onHandoff run once across runs', async () => {
    const s = setup();
    const paged: string[] = [];
    const model = new ScriptedModel([
      [page('h1', 'high')],
      [assistantMessage('desk')],
      [page('h2', 'high')],
      [assistantMessage('oncall')],
      [page('h3', 'high')],
    ]);
    const { agent } = desk(s, model, paged);
    await run(agent, 'help', { context: {} });
    expect(paged).toEqual([]);
    expect(outputOf(model, 1, 'h1')).toContain('identity(runContext) returned no principal');
    await run(agent, 'help', { context: { user: 'alice' } });
    expect(paged).toEqual(['high']);
    // the same page again: the effect is committed, so the run stops with DuplicateEffect and nothing runs twice
    await expect(run(agent, 'help', { context: { user: 'alice' } })).rejects.toBeInstanceOf(DuplicateEffect);
    expect(paged).toEqual(['high']);
    expect((await s.store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([
      ['refused', 'no_principal'],
      ['allowed', 'rule[0]'],
      ['executed', 'rule[0]'],
      ['duplicate', 'effect_committed'],
    ]);
  });

  it('an onHandoff that throws stops the run with its error (never retried); an approve decision is refused: a handoff cannot pause', async () => {
    const s = setup();
    const model = new ScriptedModel([[page('h1', 'high')]]);
    const oncall = new Agent<Ctx>({ name: 'oncall', model });
    const boom = new Error('pager down');
    const failing = new Agent<Ctx>({
      name: 'desk',
      model,
      handoffs: [s.protectHandoff('desk.oncall', oncall, { inputType: z.object({ severity: z.string() }), onHandoff: () => Promise.reject(boom) })],
    });
    await expect(run(failing, 'help', { context: { user: 'alice' } })).rejects.toThrow(/pager down|page:high/);
    expect((await s.store.listReceipts()).map((r) => r.result)).toEqual(['allowed', 'ambiguous']);

    const legalModel = new ScriptedModel([[functionCall('transfer_to_legal', {}, { callId: 'l1' })], [assistantMessage('desk')]]);
    const legal = new Agent<Ctx>({ name: 'legal', model: legalModel });
    const asking = new Agent<Ctx>({ name: 'desk', model: legalModel, handoffs: [s.protectHandoff('desk.legal', legal)] });
    const result = await run(asking, 'help', { context: { user: 'alice' } });
    expect(result.lastAgent).toBe(asking);
    expect(outputOf(legalModel, 1, 'l1')).toContain("it needs a person's approval, and a handoff cannot pause for one");
    expect((await s.store.listReceipts()).at(-1)).toMatchObject({ action: 'desk.legal', result: 'refused', reason: 'approval_unavailable' });
  });

  it('the manifest binds a target to one action; protectAgent names a handoff() it cannot see into and accepts plain agents and protected handoffs', () => {
    const s = setup();
    const oncall = new Agent<Ctx>({ name: 'oncall' });
    expect(() => s.protectHandoff('desk.billing', oncall)).toThrow(/maps handoffs to agent "oncall" to action desk\.oncall, not desk\.billing/);
    const { protectAgent } = bindAgentTools(s.control, s.policy);
    const billing = new Agent<Ctx>({ name: 'billing' });
    expect(protectAgent(new Agent<Ctx>({ name: 'ok', handoffs: [billing, s.protectHandoff('desk.oncall', oncall)] }))).toBeDefined();
    expect(() => protectAgent(new Agent<Ctx>({ name: 'open', handoffs: [handoff(oncall, { onHandoff: () => undefined })] }))).toThrow(
      /agent open: handoff transfer_to_oncall to agent oncall is not protected \(use protectHandoff\)/,
    );
  });

  it('a Handoff the app made (new Handoff(agent, onInvoke)) is protected as a copy: deny runs no invoke function, allow runs it once; protectAgent names the unprotected one', async () => {
    const s = setup();
    const paged: string[] = [];
    const model = new ScriptedModel([[page('n1', 'low')], [page('n2', 'high')], [assistantMessage('oncall here')]]);
    const oncall = new Agent<Ctx>({ name: 'oncall', instructions: 'incidents', model });
    const made = new Handoff<Ctx>(oncall, async (_ctx, args) => {
      paged.push(args);
      return oncall;
    });
    const h = s.protectHandoff('desk.oncall', made);
    expect(h).not.toBe(made);
    const { protectAgent } = bindAgentTools(s.control, s.policy);
    expect(() => protectAgent(new Agent<Ctx>({ name: 'open', handoffs: [made] }))).toThrow(/handoff transfer_to_oncall to agent oncall is not protected/);
    const agent = protectAgent(new Agent<Ctx>({ name: 'desk', instructions: 'route', model, handoffs: [h] }));
    const result = await run(agent, 'help', { context: { user: 'alice' } });
    expect(result.lastAgent).toBe(oncall);
    expect(paged).toEqual(['{"severity":"high"}']);
    expect(outputOf(model, 1, 'n1')).toContain('The transfer to oncall was refused (desk.oncall denied by policy (rule[1]))');
    expect((await s.store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([
      ['denied', 'rule[1]'],
      ['allowed', 'rule[0]'],
      ['executed', 'rule[0]'],
    ]);
    // refused: a protected one again, a Handoff with a config beside it, something that is neither
    expect(() => s.protectHandoff('desk.oncall', h)).toThrow(/already protected by protectHandoff\('desk\.oncall'\)/);
    expect(() => s.protectHandoff('desk.oncall', made, { onHandoff: () => undefined })).toThrow(/a Handoff carries its own configuration/);
    expect(() => s.protectHandoff('desk.oncall', {} as never)).toThrow(/pass the Agent the conversation is handed to/);
  });
});
