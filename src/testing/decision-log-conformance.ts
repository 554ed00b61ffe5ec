import { decisionHash, verifyDecisionChain } from '../runtime/decision-log.js';
import type { DecisionBody, DecisionEntry, Store } from '../runtime/types.js';
import type { ConformanceHarness } from './harness.js';

/**
 * The decision log's part of the store conformance suite (run by `describeStoreConformance`): a
 * store that keeps the log (`appendDecision` and `listDecisions`) must chain it as receipts are,
 * list it by seq, time and action, and (where it can be pruned) remove its oldest entries or
 * replace a tenant's by tombstones without breaking the chain. A store without the log passes
 * trivially (the log is optional). Never assumes an empty store.
 */
export function describeDecisionLogConformance(name: string, makeStore: () => Promise<Store>, t: ConformanceHarness): void {
  const { describe, it, expect, beforeEach, afterEach } = t;
  describe(`decision log conformance: ${name}`, () => {
    let store: Store;
    let tag: string;
    beforeEach(async () => {
      store = await makeStore();
      tag = globalThis.crypto.randomUUID().slice(0, 8);
    });
    afterEach(async () => {
      await store.close();
    });
    const keeps = () => typeof store.appendDecision === 'function' && typeof store.listDecisions === 'function';
    const body = (n: number, overrides: Partial<DecisionBody> = {}): DecisionBody => ({
      at: 2_000_000_000_000 + n,
      action: `stripe.refund.${tag}`,
      tool: 'refund',
      call_id: `call-${tag}-${n}`,
      args: `{"amount":${n},"note":"sha256:${'e'.repeat(64)}"}`,
      hashed: ['note'],
      args_hash: 'a'.repeat(64),
      principal: n % 2 ? { agent: 'desk', user: 'alice' } : null,
      environment: 'production',
      task: n % 3 ? null : 'T-1',
      decision: n % 2 ? 'allow' : 'deny',
      rule: n % 2 ? 0 : null,
      reason: n % 2 ? 'rule[0]' : 'no_matching_rule',
      effect_key: n % 2 ? `refund:${n}` : null,
      resource: null,
      policy_hash: `sha256:${'p'.repeat(64)}`,
      mode: 'enforce',
      result: n % 2 ? 'allowed' : 'denied',
      receipt_seq: n + 1,
      receipt_hash: 'r'.repeat(64),
      ...overrides,
    });
    // each entry binds a receipt appended just before it (as the runtime writes them; serve checks it)
    const append = async (b: DecisionBody) => {
      const r = await store.appendReceipt({
        at: b.at,
        action: b.action,
        call_id: b.call_id,
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
      });
      return store.appendDecision!({ ...b, receipt_seq: r.seq, receipt_hash: r.hash });
    };
    // a body's fields but the receipt it binds (the one `append` wrote)
    const unbound = ({ receipt_seq: _seq, receipt_hash: _hash, ...rest }: DecisionBody) => rest;
    const prunes = () =>
      ['decisionHead', 'deleteDecisions', 'tombstoneDecisions', 'listPrunedDecisions'].every((m) => typeof (store as never)[m] === 'function');
    const lastSeq = async () => {
      const all = await store.listDecisions!();
      return all[all.length - 1];
    };

    it('decisionKey (when the store has one) is a secret of 32 bytes in hex, the same on every call', async () => {
      if (!keeps() || typeof store.decisionKey !== 'function') return;
      const key = await store.decisionKey();
      expect(key).toMatch(/^[0-9a-f]{64}$/);
      expect(await store.decisionKey()).toBe(key);
    });

    it('appendDecision chains (contiguous seq, prev_hash = previous hash, hash = decisionHash) and lists what it appended', async () => {
      if (!keeps()) return;
      const last = await lastSeq();
      const appended: DecisionEntry[] = [];
      for (let n = 0; n < 4; n++) appended.push(await append(body(n)));
      appended.forEach((e, i) => {
        expect(e.seq).toBe((last?.seq ?? 0) + i + 1);
        expect(e.prev_hash).toBe(i === 0 ? (last?.hash ?? '0'.repeat(64)) : appended[i - 1]!.hash);
        const { hash, ...rest } = e;
        expect(hash).toBe(decisionHash(rest));
        expect(e).toMatchObject(unbound(body(i)) as unknown as Record<string, unknown>);
      });
      expect(await store.listDecisions!({ afterSeq: last?.seq ?? 0 })).toEqual(appended);
      if (appended[0]!.seq === 1) expect(verifyDecisionChain(appended)).toEqual({ ok: true, count: 4 });
    });

    it('concurrent appends still form one contiguous chain', async () => {
      if (!keeps()) return;
      const start = (await lastSeq())?.seq ?? 0;
      await Promise.all(Array.from({ length: 10 }, (_, n) => append(body(n))));
      const after = await store.listDecisions!({ afterSeq: start });
      expect(after.map((e) => e.seq)).toEqual(Array.from({ length: 10 }, (_, i) => start + i + 1));
      for (let i = 1; i < after.length; i++) expect(after[i]!.prev_hash).toBe(after[i - 1]!.hash);
    });

    it('listDecisions honours afterSeq, limit, since and action, in seq order', async () => {
      if (!keeps()) return;
      const start = (await lastSeq())?.seq ?? 0;
      for (let n = 0; n < 4; n++) await append(body(n, n === 2 ? { action: `other.${tag}` } : {}));
      expect((await store.listDecisions!({ afterSeq: start + 1, limit: 2 })).map((e) => e.seq)).toEqual([start + 2, start + 3]);
      expect((await store.listDecisions!({ afterSeq: start, action: `stripe.refund.${tag}` })).map((e) => e.seq)).toEqual([start + 1, start + 2, start + 4]);
      expect((await store.listDecisions!({ afterSeq: start, since: body(2).at })).map((e) => e.seq)).toEqual([start + 3, start + 4]);
    });

    pruneCases(t, { store: () => store, tag: () => tag, keeps, prunes, append, body });
  });
}

interface PruneContext {
  store: () => Store;
  tag: () => string;
  keeps: () => boolean;
  prunes: () => boolean;
  append: (b: DecisionBody) => Promise<DecisionEntry>;
  body: (n: number) => DecisionBody;
}

/** The pruning part (where a store can be pruned): tombstones that keep the chain, the oldest end removed. */
function pruneCases(t: ConformanceHarness, ctx: PruneContext): void {
  const { it, expect } = t;
  it("a tenant's entries become tombstones (links, time, tenant; no inputs): listings skip them, the chain still links through them", async () => {
    if (!ctx.keeps() || !ctx.prunes()) return;
    const a = await ctx.append(ctx.body(0));
    const b = await ctx.append(ctx.body(1));
    const c = await ctx.append(ctx.body(2));
    expect(await ctx.store().tombstoneDecisions!([b.seq, b.seq], `t${ctx.tag()}`)).toBe(1);
    expect(await ctx.store().tombstoneDecisions!([b.seq], `t${ctx.tag()}`)).toBe(0); // already one
    const listed = await ctx.store().listDecisions!({ afterSeq: a.seq - 1 });
    expect(listed.map((e) => e.seq)).toEqual([a.seq, c.seq]);
    const stone = (await ctx.store().listPrunedDecisions!()).find((e) => e.seq === b.seq);
    expect(stone).toEqual({ seq: b.seq, at: b.at, prev_hash: a.hash, hash: b.hash, pruned: { tenant: `t${ctx.tag()}` } });
    expect(c.prev_hash).toBe(stone!.hash);
    expect(await ctx.store().decisionHead!()).toEqual({ seq: c.seq, hash: c.hash });
  });

  it('deleteDecisions removes the oldest end up to a seq; the head row keeps the chain going when the table is emptied', async () => {
    if (!ctx.keeps() || !ctx.prunes()) return;
    await ctx.append(ctx.body(0));
    const last = await ctx.append(ctx.body(1));
    expect(await ctx.store().deleteDecisions!(last.seq)).toBeGreaterThanOrEqual(2);
    expect(await ctx.store().listDecisions!()).toEqual([]);
    expect(await ctx.store().decisionHead!()).toEqual({ seq: last.seq, hash: last.hash });
    const next = await ctx.append(ctx.body(2));
    expect(next.seq).toBe(last.seq + 1);
    expect(next.prev_hash).toBe(last.hash);
  });
}
