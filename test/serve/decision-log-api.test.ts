import { describe, expect, it } from 'vitest';
import { tenantDecisionKey, verifyDecisions } from '../../src/runtime/decision-log.js';
import { memoryStore } from '../../src/runtime/index.js';
import { sha256Hex } from '../../src/runtime/canonical.js';
import type { DecisionBody, ReceiptBody, Store } from '../../src/runtime/types.js';
import { runtimeStoreCall } from '../../src/serve/runtime-api.js';
import { tenantScope } from '../../src/serve/tenant.js';

const NOW = 1_700_000_000_000;
/** The entry of a call, bound to the receipt the same token appended for it (as the core writes them). */
async function bound(store: Store, tenant: string | undefined, callId: string): Promise<DecisionBody> {
  const b = body(callId);
  const receipt: ReceiptBody = {
    at: NOW,
    action: b.action,
    call_id: callId,
    args_hash: b.args_hash,
    principal: null,
    decision: b.decision,
    reason: b.reason,
    approvers: [],
    effect_key: b.effect_key,
    result: b.result,
    policy_hash: b.policy_hash,
    mode: b.mode,
    environment: b.environment,
  };
  const r = (await runtimeStoreCall(store, tenant, 'appendReceipt', [receipt], NOW)) as { seq: number; hash: string };
  return { ...b, receipt_seq: r.seq, receipt_hash: r.hash };
}
const body = (callId: string): DecisionBody => ({
  at: 1_000,
  action: 'stripe.refund',
  tool: 'refund',
  call_id: callId,
  args: '{"amount":1}',
  hashed: [],
  args_hash: sha256Hex('{"amount":1}'),
  principal: null,
  environment: 'production',
  task: null,
  decision: 'allow',
  rule: 0,
  reason: 'rule[0]',
  effect_key: 'refund:1',
  resource: null,
  policy_hash: 'sha256:x',
  mode: 'enforce',
  result: 'allowed',
  receipt_seq: 1,
  receipt_hash: 'r'.repeat(64),
});

describe("serve's decision log API (runtime tokens)", () => {
  it("an entry goes in under the tenant's stored names (prefixed once), with serve's time; each tenant lists only its own, in its names", async () => {
    const store = memoryStore();
    const appended = (await runtimeStoreCall(store, 'acme', 'appendDecision', [await bound(store, 'acme', 'c1')], NOW)) as {
      call_id: string;
      effect_key: string;
      at: number;
    };
    // the tenant reads it back under the names it gave; the store holds them prefixed exactly once
    expect(appended).toMatchObject({ call_id: 'c1', effect_key: 'refund:1', at: NOW });
    const [raw] = await store.listDecisions!();
    expect(await verifyDecisions(store)).toEqual({ ok: true, count: 1 });
    expect(raw).toMatchObject({ call_id: tenantScope('acme').inward('c1'), effect_key: '@acme:refund:1', at: NOW });
    await runtimeStoreCall(store, 'globex', 'appendDecision', [await bound(store, 'globex', 'c2')], NOW);
    await runtimeStoreCall(store, undefined, 'appendDecision', [await bound(store, undefined, 'c3')], NOW);
    expect(((await runtimeStoreCall(store, 'acme', 'listDecisions', [], NOW)) as Array<{ call_id: string }>).map((e) => e.call_id)).toEqual(['c1']);
    // the default tenant is a tenant too: it never reads a named tenant's entries (their arguments)
    expect(((await runtimeStoreCall(store, undefined, 'listDecisions', [], NOW)) as Array<{ call_id: string }>).map((e) => e.call_id)).toEqual(['c3']);
  });

  it('a runtime token never prunes: a retention it passes is refused, and nothing is removed', async () => {
    const store = memoryStore();
    await runtimeStoreCall(store, undefined, 'appendDecision', [await bound(store, undefined, 'old')], 1);
    await expect(runtimeStoreCall(store, 'acme', 'appendDecision', [await bound(store, 'acme', 'c1'), NOW + 1], NOW)).rejects.toThrow(/never prunes/);
    await expect(runtimeStoreCall(store, undefined, 'appendDecision', [await bound(store, undefined, 'c1'), NOW + 1], NOW)).rejects.toThrow(/never prunes/);
    expect((await store.listDecisions!()).map((e) => e.call_id)).toEqual(['old']);
  });

  it("an entry that binds no receipt of the tenant's, a tombstone, or a prune record from a token is refused: one tenant cannot break the log's verification for all", async () => {
    const store = memoryStore();
    const mine = await bound(store, 'acme', 'c1');
    const theirs = await bound(store, 'globex', 'g1');
    for (const entry of [
      { ...mine, receipt_seq: 99 },
      { ...mine, receipt_hash: 'f'.repeat(64) },
      { ...mine, result: 'executed' },
      { ...mine, args: '{"amount":2}' },
      // globex's receipt, named by acme's entry (in acme's names it is not acme's)
      { ...mine, receipt_seq: theirs.receipt_seq, receipt_hash: theirs.receipt_hash },
      { ...mine, pruned: { tenant: 'acme' } },
    ])
      await expect(runtimeStoreCall(store, 'acme', 'appendDecision', [entry], NOW)).rejects.toThrow(/does not bind|never a pruned one/);
    const record = { ...((await store.listReceipts())[0] as ReceiptBody), action: 'ctrlrun.prune', call_id: null, effect_key: null };
    await expect(runtimeStoreCall(store, 'acme', 'appendReceipt', [record], NOW)).rejects.toThrow(/prune record is serve's to write/);
    await expect(runtimeStoreCall(store, undefined, 'appendReceipt', [{ ...record, action: 'x', prune: {} }], NOW)).rejects.toThrow(/prune record/);
    expect(await store.listDecisions!()).toEqual([]);
    await runtimeStoreCall(store, 'acme', 'appendDecision', [mine], NOW);
    expect(await verifyDecisions(store)).toEqual({ ok: true, count: 1 });
  });

  it("decisionKey: the default tenant gets the store's key, a named tenant one derived from it (tenants' hashes never compare)", async () => {
    const store = memoryStore();
    const own = await store.decisionKey!();
    expect(await runtimeStoreCall(store, undefined, 'decisionKey', [], NOW)).toBe(own);
    const acme = await runtimeStoreCall(store, 'acme', 'decisionKey', [], NOW);
    expect(acme).toBe(tenantDecisionKey(own, 'acme'));
    expect(acme).toMatch(/^[0-9a-f]{64}$/);
    expect(acme).not.toBe(own);
    expect(await runtimeStoreCall(store, 'globex', 'decisionKey', [], NOW)).not.toBe(acme);
    // a store with a log but no key of its own: one key of the server process, stable
    const { decisionKey: _k, ...keyless } = memoryStore();
    const first = await runtimeStoreCall(keyless as Store, undefined, 'decisionKey', [], NOW);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(await runtimeStoreCall(keyless as Store, undefined, 'decisionKey', [], NOW)).toBe(first);
  });

  it('a store without the log, or a body that is not an object, is refused', async () => {
    const { appendDecision: _a, listDecisions: _l, ...bare } = memoryStore();
    await expect(runtimeStoreCall(bare as Store, undefined, 'listDecisions', [], NOW)).rejects.toThrow(/keeps no decision log/);
    await expect(runtimeStoreCall(memoryStore(), undefined, 'appendDecision', ['x'], NOW)).rejects.toThrow(/expected an object/);
  });
});
