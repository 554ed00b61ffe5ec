import { describe, expect, it } from 'vitest';
import { tenantDecisionKey } from '../../src/runtime/decision-log.js';
import { memoryStore } from '../../src/runtime/index.js';
import type { DecisionBody, Store } from '../../src/runtime/types.js';
import { runtimeStoreCall } from '../../src/serve/runtime-api.js';
import { tenantScope } from '../../src/serve/tenant.js';

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
  it("an entry goes in under the tenant's stored names, as its receipt does; a tenant lists only its own", async () => {
    const store = memoryStore();
    const stored = (await runtimeStoreCall(store, 'acme', 'appendDecision', [body('c1')])) as { call_id: string; effect_key: string };
    expect(stored.call_id).toBe(tenantScope('acme').inward('c1'));
    expect(stored.effect_key).toBe(tenantScope('acme').inward('refund:1'));
    await runtimeStoreCall(store, 'globex', 'appendDecision', [body('c2')]);
    expect(((await runtimeStoreCall(store, 'acme', 'listDecisions', [])) as unknown[]).length).toBe(1);
    expect(((await runtimeStoreCall(store, undefined, 'listDecisions', [])) as unknown[]).length).toBe(2);
  });

  it("decisionKey: the default tenant gets the store's key, a named tenant one derived from it (tenants' hashes never compare)", async () => {
    const store = memoryStore();
    const own = await store.decisionKey!();
    expect(await runtimeStoreCall(store, undefined, 'decisionKey', [])).toBe(own);
    const acme = await runtimeStoreCall(store, 'acme', 'decisionKey', []);
    expect(acme).toBe(tenantDecisionKey(own, 'acme'));
    expect(acme).toMatch(/^[0-9a-f]{64}$/);
    expect(acme).not.toBe(own);
    expect(await runtimeStoreCall(store, 'globex', 'decisionKey', [])).not.toBe(acme);
    // a store with a log but no key of its own: one key of the server process, stable
    const { decisionKey: _k, ...keyless } = memoryStore();
    const first = await runtimeStoreCall(keyless as Store, undefined, 'decisionKey', []);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(await runtimeStoreCall(keyless as Store, undefined, 'decisionKey', [])).toBe(first);
  });

  it('a store without the log, or a body that is not an object, is refused', async () => {
    const { appendDecision: _a, listDecisions: _l, ...bare } = memoryStore();
    await expect(runtimeStoreCall(bare as Store, undefined, 'listDecisions', [])).rejects.toThrow(/keeps no decision log/);
    await expect(runtimeStoreCall(memoryStore(), undefined, 'appendDecision', ['x'])).rejects.toThrow(/the body is an object/);
  });
});
