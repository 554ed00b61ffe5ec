import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyDecisions } from '../../src/runtime/decision-log.js';
import { canonicalHash } from '../../src/runtime/canonical.js';
import { run, verifyReceipts } from '../../src/runtime/index.js';
import type { DecisionBody, Receipt, ReceiptBody, Store } from '../../src/runtime/types.js';
import { agentWith, assistantMessage, refundCall, refundTool, scripted, setup } from '../runtime/helpers.js';
import { describePostgres } from '../stores/pg-helpers.js';
import { api } from './helpers.js';
import { type Backing, type TenantsFixture, twoTenants } from './tenant-fixture.js';

/**
 * Issue 37 item 2: a tenant's names are prefixed exactly once wherever they are written or read.
 * Through the real Runner on httpStore (the call id of a named tenant's log entry was stored
 * `@acme:@acme:a1`), and as a property of the store API: whatever two tenants write, each reads
 * back under the names it wrote, the other never sees it, and the store both used verifies.
 */
function suite(backing: () => Backing) {
  let fx: TenantsFixture;
  beforeAll(async () => {
    fx = await twoTenants(backing());
  });
  afterAll(async () => fx?.close());

  it('two tenants run the same call id through the Runner: each log entry and receipt is stored under its tenant once, read back plainly, and the store verifies', async () => {
    for (const tenant of ['acme', 'globex', 'legacy'] as const) {
      const s = setup({ store: fx.http(tenant) });
      const refund = refundTool(s);
      await run(agentWith(scripted([refundCall({ payment_id: 'pay_1', amount: 500 }, 'a1')], [assistantMessage('done')]), [refund.tool]), 'refund', {
        context: { user: 'alice' },
      });
      expect(refund.calls).toHaveLength(1);
    }
    const entries = await fx.store.listDecisions!();
    expect(entries.map((e) => [e.call_id, e.effect_key])).toEqual([
      ['@acme:a1', '@acme:refund:pay_1'],
      ['@globex:a1', '@globex:refund:pay_1'],
      ['a1', 'refund:pay_1'],
    ]);
    const receipts = await fx.store.listReceipts();
    expect([...new Set(receipts.map((r) => r.call_id))]).toEqual(['@acme:a1', '@globex:a1', 'a1']);
    for (const tenant of ['acme', 'globex', 'legacy'] as const) {
      const http = fx.http(tenant);
      expect((await http.listDecisions!()).map((e) => e.call_id)).toEqual(['a1']);
      expect((await http.listReceipts()).map((r) => [r.call_id, r.result])).toEqual([
        ['a1', 'allowed'],
        ['a1', 'executed'],
      ]);
    }
    expect(await verifyReceipts(fx.store)).toMatchObject({ ok: true });
    expect(await verifyDecisions(fx.store)).toMatchObject({ ok: true, count: 3 });
  });

  it('property: what either tenant writes through the store API it reads back under its names; the other never sees it; the store verifies', async () => {
    const name = fc.stringMatching(/^[A-Za-z0-9_:.\-/ é]{1,12}$/);
    const op = fc.record({ tenant: fc.constantFrom('acme', 'globex'), kind: fc.constantFrom('request', 'effect', 'receipt'), name });
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 6 }), async (ops) => {
        round += 1;
        const wrote: Record<'acme' | 'globex', { calls: string[]; keys: string[] }> = { acme: { calls: [], keys: [] }, globex: { calls: [], keys: [] } };
        for (const [i, o] of ops.entries()) {
          const id = `${round}.${i}.${o.name}`; // unique per write; the tenant's own name
          await write(fx.http(o.tenant), o.kind, id);
          (o.kind === 'effect' ? wrote[o.tenant].keys : wrote[o.tenant].calls).push(id);
          if (o.kind === 'receipt') wrote[o.tenant].keys.push(`k:${id}`);
        }
        for (const tenant of ['acme', 'globex'] as const) {
          const other = tenant === 'acme' ? 'globex' : 'acme';
          const mine = fx.http(tenant);
          const requests = (await mine.listRequests()).map((r) => r.callId);
          const effects = (await mine.listEffects()).map((e) => e.key);
          const receipts = await mine.listReceipts();
          const logged = await mine.listDecisions!();
          for (const id of wrote[tenant].calls) {
            // a request or a receipt (and its log entry) under exactly the name written
            expect(requests.includes(id) || receipts.some((r) => r.call_id === id)).toBe(true);
          }
          for (const id of wrote[tenant].keys) expect(effects.includes(id) || receipts.some((r) => r.effect_key === id)).toBe(true);
          for (const id of [...wrote[other].calls, ...wrote[other].keys]) {
            expect(requests).not.toContain(id);
            expect(effects).not.toContain(id);
            expect(receipts.some((r) => r.call_id === id || r.effect_key === id)).toBe(false);
            expect(logged.some((e) => e.call_id === id || e.effect_key === id)).toBe(false);
            expect(await mine.getRequest(id)).toBeNull();
            expect(await mine.getEffect(id)).toBeNull();
          }
          // nothing a tenant reads carries a stored name
          for (const text of [...requests, ...effects, ...receipts.flatMap((r) => [r.call_id, r.effect_key]), ...logged.map((e) => e.call_id)])
            expect(text ?? '').not.toMatch(/^@/);
        }
        // in the store, each name once under its tenant
        for (const r of await fx.store.listReceipts()) for (const n of [r.call_id, r.effect_key]) if (n !== null) expect(n).not.toMatch(/^@[a-z]+:@/);
        expect(await verifyReceipts(fx.store)).toMatchObject({ ok: true });
        expect(await verifyDecisions(fx.store)).toMatchObject({ ok: true });
      }),
      { numRuns: 12 },
    );
    // a name that is already a stored one is refused for every tenant, named or default
    for (const token of [fx.tokens.acme, fx.tokens.legacy]) {
      const r = await api(fx.serve.url, token, 'POST', '/api/store/getRequest', { args: ['@acme:x'] });
      expect(r.status).toBe(403);
    }
  });
}

/** One write through the store API: a pending request, an effect key reserved and committed, or a receipt with its decision log entry. */
async function write(store: Store, kind: string, id: string): Promise<void> {
  if (kind === 'request') {
    await store.putRequest({
      callId: id,
      action: 'stripe.refund',
      toolName: 'refund',
      argsHash: canonicalHash({ amount: 1 }),
      args: '{"amount":1}',
      policyHash: 'p'.repeat(64),
      principal: 'alice',
      approvalsRequired: 1,
      createdAt: 1,
    });
    return;
  }
  if (kind === 'effect') {
    const reserved = await store.reserveEffect({ key: id, action: 'stripe.refund', attemptId: `att:${id}`, maxAttempts: 1, now: 1, leaseMs: 1000 });
    expect(reserved.outcome).toBe('reserved');
    expect(await store.settleEffect(id, `att:${id}`, 'committed', 2)).toBe(true);
    return;
  }
  const body: ReceiptBody = {
    at: 1,
    action: 'stripe.refund',
    call_id: id,
    args_hash: canonicalHash({ amount: 1 }),
    principal: 'alice',
    decision: 'allow',
    reason: 'rule[0]',
    approvers: [],
    effect_key: `k:${id}`,
    result: 'allowed',
    policy_hash: 'p'.repeat(64),
    mode: 'enforce',
    environment: null,
  };
  const receipt: Receipt = await store.appendReceipt(body);
  expect([receipt.call_id, receipt.effect_key]).toEqual([id, `k:${id}`]);
  const entry: DecisionBody = {
    at: receipt.at,
    action: 'stripe.refund',
    tool: 'refund',
    call_id: id,
    args: '{"amount":1}',
    hashed: [],
    args_hash: canonicalHash({ amount: 1 }),
    principal: null,
    environment: null,
    task: null,
    decision: 'allow',
    rule: 0,
    reason: 'rule[0]',
    effect_key: `k:${id}`,
    resource: null,
    policy_hash: 'p'.repeat(64),
    mode: 'enforce',
    result: 'allowed',
    receipt_seq: receipt.seq,
    receipt_hash: receipt.hash,
  };
  expect((await store.appendDecision!(entry)).call_id).toBe(id);
}

describe('tenant names, once (serve over SQLite)', () => suite(() => ({ kind: 'sqlite' })));
describePostgres('tenant names, once (serve over Postgres)', (url) => suite(() => ({ kind: 'postgres', url })));
