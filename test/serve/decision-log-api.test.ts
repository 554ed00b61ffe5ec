import { describe, expect, it } from 'vitest';
import { tenantDecisionKey } from '../../src/runtime/decision-log.js';
import { memoryStore } from '../../src/runtime/index.js';
import type { DecisionBody, Store } from '../../src/runtime/types.js';
import { runtimeStoreCall } from '../../src/serve/runtime-api.js';
import { tenantScope } from '../../src/serve/tenant.js';

const NOW = 1_700_000_000_000;
const body = (callId: string): DecisionBody => ({
  at: 1_000,
  action: 'stripe.refund',
  tool: 'refund',
  call_id: callId,
  args: '{"amount":1}',
  hashed: [],
  args_hash: 'a'.repeat(64),
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
    const appended = (await runtimeStoreCall(store, 'acme', 'appendDecision', [body('c1')], NOW)) as { call_id: string; effect_key: string; at: number };
    // the tenant reads it back under the names it gave; the store holds them prefixed exactly once
    expect(appended).toMatchObject({ call_id: 'c1', effect_key: 'refund:1', at: NOW });
    const [raw] = await store.listDecisions!();
    expect(raw).toMatchObject({ call_id: tenantScope('acme').inward('c1'), effect_key: '@acme:refund:1', at: NOW });
    await runtimeStoreCall(store, 'globex', 'appendDecision', [body('c2')], NOW);
    await runtimeStoreCall(store, undefined, 'appendDecision', [body('c3')], NOW);
    expect(((await runtimeStoreCall(store, 'acme', 'listDecisions', [], NOW)) as Array<{ call_id: string }>).map((e) => e.call_id)).toEqual(['c1']);
    // the default tenant is a tenant too: it never reads a named tenant's entries (their arguments)
    expect(((await runtimeStoreCall(store, undefined, 'listDecisions', [], NOW)) as Array<{ call_id: string }>).map((e) => e.call_id)).toEqual(['c3']);
  });

  it('a runtime token never prunes: a retention it passes is refused, and nothing is removed', async () => {
    const store = memoryStore();
    await runtimeStoreCall(store, undefined, 'appendDecision', [body('old')], 1);
    await expect(runtimeStoreCall(store, 'acme', 'appendDecision', [body('c1'), NOW + 1], NOW)).rejects.toThrow(/never prunes/);
    await expect(runtimeStoreCall(store, undefined, 'appendDecision', [body('c1'), NOW + 1], NOW)).rejects.toThrow(/never prunes/);
    expect((await store.listDecisions!()).map((e) => e.call_id)).toEqual(['old']);
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
