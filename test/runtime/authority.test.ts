import { readFileSync } from 'node:fs';
import path from 'node:path';
import { run } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { z } from 'zod';
import { parsePolicy } from '../../src/policy/load.js';
import { bindProtectedTool, createControl, memoryStore, NotExecuted, type Store } from '../../src/runtime/index.js';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import { compileGenerated } from '../helpers/compile-module.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';
import { agentWith, assistantMessage, functionCall, manualClock, scripted, toolOutputSeen } from './helpers.js';

/**
 * CTRLRun v7 authority through the real Runner: the generated module of a policy with grants,
 * tasks and budgets, a control whose identity is `{ agent, user }` and whose task comes from the
 * run's context. A call no grant covers never runs and the model is told why (CTRLRun's reason
 * words); a budget is spent on the effect's reservation, durably, and released when the body
 * proves it did not act (NotExecuted).
 */

interface Ctx {
  agent?: string;
  user?: string | null;
  task?: string | null;
}

const { examples } = JSON.parse(readFileSync(path.join(FIXTURES, 'conformance/ctrlrun-examples.json'), 'utf8')) as {
  examples: Record<string, { policy: unknown }>;
};

function compiled(policyDoc: unknown) {
  const r = parsePolicy(YAML.stringify(policyDoc, { version: '1.1' }), 'ctrlrun.yaml');
  expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return compileGenerated(r.value!, { refund: 'stripe.refund' });
}

function harness(policyDoc: unknown, store: Store = memoryStore(), start = Date.parse('2026-06-01T00:00:00Z'), inputGuardrails: unknown[] = []) {
  const clock = manualClock(start);
  const control = createControl({
    store,
    clock: clock.now,
    identity: (rc: { context: Ctx }) => (rc.context.agent ? { agent: rc.context.agent, user: rc.context.user ?? null } : null),
    task: (rc: { context: Ctx }) => rc.context.task ?? null,
    // the refusals are what these tests read: the model is offered the tool even where no grant reaches it
    offerAllTools: true,
  });
  const protectedTool = bindProtectedTool<'stripe.refund'>(control, compiled(policyDoc));
  const runs: Array<{ payment_id: string; amount: number }> = [];
  let behave: (args: { payment_id: string; amount: number }) => unknown = () => 'refunded';
  const refund = protectedTool('stripe.refund', {
    name: 'refund',
    description: 'Refund a payment',
    parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
    inputGuardrails: inputGuardrails as never,
    execute: async (args) => {
      runs.push(args);
      return behave(args);
    },
  });
  const call = async (ctx: Ctx, args: Record<string, unknown>, callId: string) => {
    const model = scripted([functionCall('refund', args, { callId })], [assistantMessage('done')]);
    let error: unknown;
    try {
      await run(agentWith(model, [refund]), 'refund it', { context: ctx });
    } catch (e) {
      error = e;
    }
    return { seen: toolOutputSeen(model, 1, callId), error };
  };
  return {
    store,
    clock,
    runs,
    call,
    setBehave: (b: typeof behave) => {
      behave = b;
    },
  };
}

const dana: Ctx = { agent: 'head-of-support', user: 'dana@example.com', task: 'refund-run:7' };

describe('authority (CTRLRun v7) through the Runner: examples/authority/payments.yaml', () => {
  const payments = examples['examples/authority/payments.yaml']!.policy;

  it('a principal a grant covers, on a task it names, runs; the budget is charged on the reservation', async () => {
    const h = harness(payments);
    const { seen } = await h.call(dana, { payment_id: 'EU-1', amount: 50_000 }, 'c1');
    expect(h.runs).toHaveLength(1);
    expect(seen).toContain('refunded');
    expect(await h.store.consumptions({ grantId: 'head-of-support' })).toMatchObject([
      { metric: 'amount', amount: '50000', effectKey: 'refund:EU-1', attempt: 1, releasedAt: null },
    ]);
  });

  it("refusals name CTRLRun's reason and the body never runs", async () => {
    const h = harness(payments);
    const cases: Array<[Ctx, Record<string, unknown>, string]> = [
      // the grant names tasks: no task is refused (a dimension anybody may decline to supply…)
      [{ ...dana, task: null }, { payment_id: 'EU-2', amount: 100 }, 'authority_task'],
      [{ ...dana, task: 'payroll-3' }, { payment_id: 'EU-3', amount: 100 }, 'authority_task'],
      // task patterns are segment-bounded: refund-run:* does not reach refund-run:7:step-2
      [{ ...dana, task: 'refund-run:7:step-2' }, { payment_id: 'EU-4', amount: 100 }, 'authority_task'],
      // a grant scoped to a human is not satisfied by the agent acting alone
      [{ agent: 'head-of-support' }, { payment_id: 'EU-5', amount: 100 }, 'no_authority'],
      // tier-one-support: payment:EU-* only, amount 0..5000
      [{ agent: 'support-agent' }, { payment_id: 'EU-6', amount: 6_000 }, 'authority_constraint'],
      [{ agent: 'support-agent' }, { payment_id: 'US-1', amount: 100 }, 'no_authority'],
      // reconciliation may read, not refund
      [{ agent: 'reconciliation-agent' }, { payment_id: 'EU-7', amount: 100 }, 'no_authority'],
    ];
    for (const [i, [ctx, args, reason]] of cases.entries()) {
      const { seen } = await h.call(ctx, args, `r${i}`);
      expect(seen, `${JSON.stringify(ctx)} ${reason}`).toContain(`refused by authority: ${reason}`);
    }
    expect(h.runs).toHaveLength(0);
    const receipts = await h.store.listReceipts();
    expect(receipts.map((r) => r.reason)).toEqual(cases.map(([, , reason]) => reason));
    expect(receipts.every((r) => r.result === 'denied')).toBe(true);
    expect(await h.store.consumptions()).toEqual([]);
  });

  it('a call at approve that no grant covers is refused and never filed; one a grant covers is filed as it pauses (issue 21 item 5)', async () => {
    const h = harness(payments);
    const refused = await h.call({ agent: 'support-agent' }, { payment_id: 'EU-9', amount: 500_000 }, 'a1');
    expect(refused.seen).toContain('refused by authority: authority_constraint');
    expect(await h.store.listRequests()).toEqual([]);
    await h.call(dana, { payment_id: 'EU-10', amount: 500_000 }, 'a2');
    expect((await h.store.listRequests()).map((r) => [r.callId, r.state, r.approvalsRequired])).toEqual([['a2', 'pending', 2]]);
    expect(h.runs).toHaveLength(0);
  });

  it('tier-one support within its grant runs (its grant has no budget: no ledger row)', async () => {
    const h = harness(payments);
    await h.call({ agent: 'support-agent' }, { payment_id: 'EU-8', amount: 4_000 }, 'c1');
    expect(h.runs).toHaveLength(1);
    expect(await h.store.consumptions()).toEqual([]);
  });

  it('after expires_at the grant is authority_expired (valid up to and including the instant)', async () => {
    const h = harness(payments, memoryStore(), Date.parse('2027-01-01T00:00:00Z'));
    await h.call(dana, { payment_id: 'EU-9', amount: 100 }, 'c1');
    expect(h.runs).toHaveLength(1);
    h.clock.advance(1);
    const { seen } = await h.call(dana, { payment_id: 'EU-10', amount: 100 }, 'c2');
    expect(seen).toContain('authority_expired');
    expect(h.runs).toHaveLength(1);
  });

  it('a grant that expires between the guardrail and the body refuses the call at the body (the body decides again)', async () => {
    // the tool's own guardrail runs after the control's: the clock passes expires_at in between
    const later = {
      type: 'tool_input',
      name: 'later',
      run: async () => {
        h.clock.advance(1);
        return { behavior: { type: 'allow' } };
      },
    };
    const h = harness(payments, memoryStore(), Date.parse('2027-01-01T00:00:00Z'), [later]);
    const { seen, error } = await h.call(dana, { payment_id: 'EU-9', amount: 100 }, 'c1');
    expect(seen ?? String(error)).toContain('authority_expired');
    expect(h.runs).toHaveLength(0);
    expect((await h.store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([['denied', 'authority_expired']]);
  });
});

const budgeted = {
  schema: 'ctrlrun.policy/v7',
  authority: {
    grants: [
      {
        id: 'desk',
        subject: { agent: 'desk-*' },
        actions: ['stripe.*'],
        resources: ['payment:*'],
        budgets: [
          { metric: 'amount', limit: 1_000, window: 'PT1H' },
          { metric: 'count', limit: 3, window: 'P1D' },
        ],
      },
    ],
  },
  actions: {
    'stripe.refund': { effect: 'refund:{payment_id}', resource: 'payment:{payment_id}', decision: 'allow' },
  },
};

describe.each([
  ['memory', () => ({ store: memoryStore(), done: () => undefined })],
  [
    'sqlite',
    () => {
      const dir = makeTempDir('authority-');
      return { store: sqliteStore({ path: path.join(dir, 'state.db') }), done: () => removeDir(dir) };
    },
  ],
])('budgets through the Runner (%s store)', (_name, make) => {
  it('spent on reservation, refused past the limit naming grant, metric and window (never the balance), released by NotExecuted', async () => {
    const { store, done } = make();
    try {
      const h = harness(budgeted, store);
      const agent = { agent: 'desk-1' };
      await h.call(agent, { payment_id: 'p1', amount: 600 }, 'c1');
      const second = await h.call(agent, { payment_id: 'p2', amount: 401 }, 'c2');
      expect(h.runs).toHaveLength(1);
      expect(second.seen ?? String(second.error)).toContain('budget_exhausted');
      expect(second.seen ?? String(second.error)).toMatch(/grant desk's budget on amount over 1 hour\(s\)/);
      expect(second.seen ?? String(second.error)).not.toMatch(/\b399\b|\b400\b/);
      // one decision receipt for the refused call, its outcome (never `allowed` and then `refused`)
      expect((await store.listReceipts()).filter((r) => r.call_id === 'c2').map((r) => [r.result, r.reason])).toEqual([['refused', 'budget_exhausted']]);
      expect(await store.getEffect('refund:p2')).toBe(null);

      // a body that proves it did not act releases its charge: the same amount fits again
      h.setBehave(() => {
        throw new NotExecuted('card network down, nothing sent');
      });
      await h.call(agent, { payment_id: 'p3', amount: 400 }, 'c3');
      expect((await store.consumptions({ effectKey: 'refund:p3' }))[0]?.releasedAt).not.toBe(null);
      h.setBehave(() => 'refunded');
      await h.call(agent, { payment_id: 'p4', amount: 400 }, 'c4');
      expect(h.runs.map((r) => r.payment_id)).toEqual(['p1', 'p3', 'p4']);
      // count: p1, p4 held (p3 released); the window rolls after an hour for amount, not for count
      h.clock.advance(60 * 60 * 1000 + 1);
      await h.call(agent, { payment_id: 'p5', amount: 10 }, 'c5');
      const sixth = await h.call(agent, { payment_id: 'p6', amount: 10 }, 'c6');
      expect(sixth.seen ?? String(sixth.error)).toMatch(/budget on count over 1 day/);
      expect(h.runs.map((r) => r.payment_id)).toEqual(['p1', 'p3', 'p4', 'p5']);
    } finally {
      await store.close();
      done();
    }
  });
});

describe.each([
  ['memory', () => ({ store: memoryStore(), done: () => undefined })],
  [
    'sqlite',
    () => {
      const dir = makeTempDir('authority-approve-');
      return { store: sqliteStore({ path: path.join(dir, 'state.db') }), done: () => removeDir(dir) };
    },
  ],
])('an approved call whose budget is spent (%s store)', (_name, make) => {
  it('is refused budget_exhausted with one decision receipt, and its approval is not used up: it runs once the blocking charge is released', async () => {
    const doc = structuredClone(budgeted);
    doc.authority.grants[0]!.budgets = [{ metric: 'count', limit: 1, window: 'PT1H' }];
    (doc.actions as Record<string, unknown>)['stripe.refund'] = {
      effect: 'refund:{payment_id}',
      resource: 'payment:{payment_id}',
      rules: [{ when: { amount_lte: 100 }, decision: 'allow' }, { decision: 'approve' }],
    };
    const { store, done } = make();
    try {
      const h = harness(doc, store);
      const control = createControl({
        store,
        clock: h.clock.now,
        identity: (rc: { context: Ctx }) => (rc.context.agent ? { agent: rc.context.agent, user: rc.context.user ?? null } : null),
      });
      // p1's body fails without a known outcome: its effect is ambiguous and holds the budget (1 of 1)
      h.setBehave(() => {
        throw new Error('gateway timeout');
      });
      await h.call({ agent: 'desk-1' }, { payment_id: 'p1', amount: 10 }, 'c1');
      expect((await store.getEffect('refund:p1'))?.state).toBe('ambiguous');
      expect(h.runs.map((r) => r.payment_id)).toEqual(['p1']);

      const protectedTool = bindProtectedTool<'stripe.refund'>(control, compiled(doc));
      const ran: string[] = [];
      const refund = protectedTool('stripe.refund', {
        name: 'refund',
        description: 'Refund a payment',
        parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
        execute: async (args) => {
          ran.push(args.payment_id);
          return 'refunded';
        },
      });
      const model = scripted(
        [functionCall('refund', { payment_id: 'p2', amount: 500 }, { callId: 'c2' })],
        [assistantMessage('done')],
        [functionCall('refund', { payment_id: 'p2', amount: 500 }, { callId: 'c2' })],
        [assistantMessage('done')],
      );
      const agent = agentWith(model, [refund]);
      const paused = await run(agent, 'refund it', { context: { agent: 'desk-1' } });
      expect(paused.interruptions).toHaveLength(1);
      await control.approve(paused.state, paused.interruptions[0]!, { approver: 'bob' });
      let error: unknown;
      try {
        await run(agent, paused.state);
      } catch (e) {
        error = e;
      }
      expect(String((error as Error | undefined)?.message ?? toolOutputSeen(model, 1, 'c2'))).toContain('budget_exhausted');
      expect(ran).toEqual([]);
      expect((await store.getRequest('c2'))?.state).toBe('approved'); // not used up by the refusal
      const decisions = (await store.listReceipts()).filter((r) => r.call_id === 'c2' && !['requested', 'approved'].includes(r.result));
      expect(decisions.map((r) => [r.result, r.reason])).toEqual([['refused', 'budget_exhausted']]);

      // an operator finds p1 never happened: its charge is released, and the same approval now authorizes the call, once
      await store.resolveEffect('refund:p1', 'failed', 'ops', h.clock.now());
      const again = await run(
        agentWith(scripted([functionCall('refund', { payment_id: 'p2', amount: 500 }, { callId: 'c2' })], [assistantMessage('done')]), [refund]),
        'refund it',
        { context: { agent: 'desk-1' } },
      );
      if (again.interruptions.length > 0) {
        // the SDK asks again on a fresh run; the recorded approval is what authorizes it
        again.state.approve(again.interruptions[0]!);
        await run(agentWith(scripted([assistantMessage('done')]), [refund]), again.state);
      }
      expect(ran).toEqual(['p2']);
      expect((await store.getRequest('c2'))?.state).toBe('consumed');
      expect((await store.listReceipts()).filter((r) => r.call_id === 'c2').map((r) => r.result)).toContain('claimed');
    } finally {
      await store.close();
      done();
    }
  });
});

describe('budgets need what they count', () => {
  it('an action without an effect key under a budgeted grant is refused before it runs', async () => {
    const doc = structuredClone(budgeted) as typeof budgeted;
    delete (doc.actions['stripe.refund'] as { effect?: string }).effect;
    const h = harness(doc);
    const { seen, error } = await h.call({ agent: 'desk-1' }, { payment_id: 'p1', amount: 5 }, 'c1');
    expect(seen ?? String(error)).toContain('budget_requires_effect');
    expect(h.runs).toHaveLength(0);
  });

  it('a metric the call does not carry is refused, never counted as zero', async () => {
    const doc = structuredClone(budgeted);
    doc.authority.grants[0]!.budgets = [{ metric: 'fee', limit: 10, window: 'PT1H' }];
    const h = harness(doc);
    const { seen, error } = await h.call({ agent: 'desk-1' }, { payment_id: 'p1', amount: 5 }, 'c1');
    expect(seen ?? String(error)).toContain('invalid_argument');
    expect(h.runs).toHaveLength(0);
  });

  it('observe mode charges nothing', async () => {
    const h = harness({ ...budgeted, schema: 'ctrlrun.policy/v7', mode: 'observe' });
    await h.call({ agent: 'desk-1' }, { payment_id: 'p1', amount: 5_000 }, 'c1');
    expect(h.runs).toHaveLength(1);
    expect(await h.store.consumptions()).toEqual([]);
  });
});

describe('a policy without authority is unchanged', () => {
  it('any principal may propose (CTRLRun: authority is opt-in)', async () => {
    const doc = { schema: 'ctrlrun.policy/v7', actions: budgeted.actions };
    const h = harness(doc);
    await h.call({ agent: 'anyone' }, { payment_id: 'p1', amount: 5_000 }, 'c1');
    expect(h.runs).toHaveLength(1);
  });
});
