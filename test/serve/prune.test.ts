import { afterEach, describe, expect, it } from 'vitest';
import { DAY_MS, pruneLog } from '../../src/prune.js';
import { verifyDecisions } from '../../src/runtime/decision-log.js';
import { generateReceiptKey, memoryStore, run, verifyReceipts } from '../../src/runtime/index.js';
import { PRUNE_ACTION } from '../../src/runtime/prune-records.js';
import { receiptSigner } from '../../src/runtime/signing.js';
import { startServe } from '../../src/serve/server.js';
import { agentWith, assistantMessage, refundCall, refundTool, scripted, setup } from '../runtime/helpers.js';
import { describePostgres } from '../stores/pg-helpers.js';
import { api } from './helpers.js';
import { type Backing, type TenantsFixture, twoTenants } from './tenant-fixture.js';

/**
 * Issue 37 item 1: pruning the decision log and the receipts is an operator's act, on serve's clock,
 * within the operator's tenant, and recorded; a runtime token can neither prune nor date what it
 * writes. Two tenants on one serve, each app on the real Runner through httpStore.
 */
const T0 = Date.UTC(2026, 0, 1);

async function refund(fx: TenantsFixture, tenant: 'acme' | 'globex' | 'legacy', callId: string, options: { clockAhead?: number } = {}) {
  const s = setup({ store: fx.http(tenant) });
  if (options.clockAhead) s.clock.advance(options.clockAhead);
  const tool = refundTool(s);
  await run(agentWith(scripted([refundCall({ payment_id: `pay_${callId}`, amount: 500 }, callId)], [assistantMessage('done')]), [tool.tool]), 'refund', {
    context: { user: 'alice' },
  });
  expect(tool.calls).toHaveLength(1);
}

const prune = (fx: TenantsFixture, token: string, body: Record<string, unknown>) => api(fx.serve.url, token, 'POST', '/api/prune', body);

function suite(backing: () => Backing) {
  let fx: TenantsFixture | undefined;
  afterEach(async () => {
    await fx?.close();
    fx = undefined;
  });

  it("a runtime token cannot prune, and what it writes carries serve's time, not its clock's", async () => {
    fx = await twoTenants(backing());
    fx.clock.now = T0;
    await refund(fx, 'legacy', 'l1');
    // acme's app runs ten years ahead: its receipts and log entry still carry serve's time
    await refund(fx, 'acme', 'a1', { clockAhead: 3650 * DAY_MS });
    const entries = await fx.store.listDecisions!();
    expect(entries.map((e) => [e.call_id, e.at])).toEqual([
      ['l1', T0],
      ['@acme:a1', T0],
    ]);
    expect((await fx.store.listReceipts()).every((r) => r.at === T0)).toBe(true);
    // a retention passed with an append, or the prune route: refused, nothing removed
    const entry = { ...entries[1]!, call_id: 'a2', effect_key: null };
    const appended = await api(fx.serve.url, fx.tokens.acme, 'POST', '/api/store/appendDecision', { args: [entry, T0 + 1] });
    expect(appended.status).toBe(403);
    expect(appended.json.message).toMatch(/never prunes/);
    for (const token of [fx.tokens.acme, fx.tokens.legacy]) {
      const r = await prune(fx, token, { log: 'decisions', olderThanDays: 0 });
      expect(r.status).toBe(403);
    }
    for (const method of ['deleteDecisions', 'tombstoneDecisions', 'deleteReceipts', 'deleteSessions'])
      expect((await api(fx.serve.url, fx.tokens.acme, 'POST', `/api/store/${method}`, { args: [99] })).status).toBe(403);
    expect((await fx.store.listDecisions!()).map((e) => e.call_id)).toEqual(['l1', '@acme:a1']);
    // straight through the store API, an entry dated a year ahead (bound to a receipt of acme's): serve's time
    const acme = fx.http('acme');
    const receipt = await acme.appendReceipt({ ...(await acme.listReceipts())[0]!, at: T0 + 365 * DAY_MS, call_id: 'a3' });
    const dated = await acme.appendDecision!({
      ...entries[1]!,
      at: T0 + 365 * DAY_MS,
      call_id: 'a3',
      effect_key: 'refund:pay_a1',
      receipt_seq: receipt.seq,
      receipt_hash: receipt.hash,
    });
    expect([receipt.at, dated.at]).toEqual([T0, T0]);
  });

  it("an operator of one tenant prunes that tenant's entries only, on serve's clock; the record says what went, and verification tells it from a deletion", async () => {
    const key = generateReceiptKey();
    fx = await twoTenants(backing(), { signer: receiptSigner(key.secret) });
    fx.clock.now = T0;
    await refund(fx, 'acme', 'a1');
    await refund(fx, 'globex', 'g1');
    fx.clock.now = T0 + 10 * DAY_MS;
    await refund(fx, 'acme', 'a2');
    fx.clock.now = T0 + 40 * DAY_MS;
    // ann (tenant acme) may name no other tenant, no receipts, no time of her own
    expect((await prune(fx, fx.tokens.ann, { log: 'decisions', olderThanDays: 30, tenant: 'globex' })).status).toBe(403);
    expect((await prune(fx, fx.tokens.ann, { log: 'receipts', olderThanDays: 30 })).status).toBe(403);
    expect((await prune(fx, fx.tokens.ann, { log: 'decisions', olderThanDays: 30, before: T0 + 365 * DAY_MS })).status).toBe(400);
    expect((await prune(fx, fx.tokens.ann, { log: 'decisions', olderThanDays: -1 })).status).toBe(400);
    const pruned = await prune(fx, fx.tokens.ann, { log: 'decisions', olderThanDays: 30 });
    expect(pruned.status).toBe(200);
    // a1 only: a2 is 30 days old, g1 is globex's
    expect(pruned.json.record).toMatchObject({ log: 'decisions', tenant: 'acme', from: 1, to: 1, count: 1, before: T0 + 10 * DAY_MS });
    expect((await fx.store.listDecisions!()).map((e) => e.call_id)).toEqual(['@globex:g1', '@acme:a2']);
    expect(await fx.store.listPrunedDecisions!()).toEqual([expect.objectContaining({ seq: 1, at: T0, pruned: { tenant: 'acme' } })]);
    expect((await fx.http('acme').listDecisions!()).map((e) => e.call_id)).toEqual(['a2']);
    const record = (await fx.store.listReceipts()).find((r) => r.action === PRUNE_ACTION)!;
    expect(record).toMatchObject({ at: T0 + 40 * DAY_MS, approvers: ['ann'], result: 'pruned' });
    expect(await verifyDecisions(fx.store)).toEqual({ ok: true, count: 2, pruned: { records: 1, entries: 1 } });

    // the store's operator prunes the oldest of the whole store, then the oldest receipts
    fx.clock.now = T0 + 45 * DAY_MS;
    const oldest = await prune(fx, fx.tokens.bob, { log: 'decisions', olderThanDays: 30 });
    expect(oldest.json.record).toMatchObject({ tenant: null, from: 1, to: 3, count: 3 });
    expect(await fx.store.listDecisions!()).toEqual([]);
    expect(await verifyDecisions(fx.store)).toEqual({ ok: true, count: 0, pruned: { records: 2, entries: 4 } });
    const receipts = await prune(fx, fx.tokens.bob, { log: 'receipts', olderThanDays: 30 });
    expect(receipts.json.record).toMatchObject({ log: 'receipts', tenant: null, from: 1 });
    const kept = await fx.store.listReceipts();
    expect(kept[0]!.seq).toBe(receipts.json.record.to + 1);
    expect(await verifyReceipts(fx.store)).toMatchObject({ ok: true, prunedThrough: receipts.json.record.to });
    // every receipt left is serve's (its prune records): each signed with serve's key
    expect(await verifyReceipts(fx.store, { publicKey: key.publicKey })).toMatchObject({ ok: true, prunedThrough: receipts.json.record.to });
    expect((await fx.store.listReceipts()).filter((r) => r.action === PRUNE_ACTION).map((r) => r.approvers)).toEqual([['ann'], ['bob'], ['bob']]);

    // a deletion nobody recorded: the oldest kept receipts, or log entries past the recorded range
    fx.clock.now = T0 + 46 * DAY_MS;
    await refund(fx, 'globex', 'g2');
    await refund(fx, 'globex', 'g3');
    const [g2] = await fx.store.listDecisions!();
    await fx.store.deleteDecisions!(g2!.seq);
    expect(await verifyDecisions(fx.store)).toEqual({ ok: false, seq: g2!.seq, break: 'deleted' });
    await fx.store.deleteReceipts!(kept[0]!.seq);
    expect(await verifyReceipts(fx.store)).toEqual({ ok: false, seq: 1, break: 'missing' });
  });

  it('serve --retention-days prunes the whole store on its own clock at start, recorded as serve', async () => {
    fx = await twoTenants(backing());
    fx.clock.now = T0;
    await refund(fx, 'acme', 'a1');
    await refund(fx, 'legacy', 'l1');
    const second = await startServe({
      store: fx.store,
      policy: fx.policy,
      operatorsFile: fx.operatorsFile,
      host: '127.0.0.1',
      port: 0,
      approvalTtlMs: 900_000,
      log: () => {},
      clock: () => T0 + 31 * DAY_MS,
      retentionDays: 30,
    });
    try {
      for (let i = 0; i < 100 && (await fx.store.listDecisions!()).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(await fx.store.listDecisions!()).toEqual([]);
      expect((await fx.store.listReceipts()).find((r) => r.action === PRUNE_ACTION)).toMatchObject({ approvers: ['ctrlrun-gen serve'], at: T0 + 31 * DAY_MS });
      expect(await verifyDecisions(fx.store)).toMatchObject({ ok: true, pruned: { records: 1, entries: 2 } });
    } finally {
      await second.close();
    }
  });
}

describe("pruning, an operator's act (serve over SQLite)", () => suite(() => ({ kind: 'sqlite' })));
describePostgres("pruning, an operator's act (serve over Postgres)", (url) => suite(() => ({ kind: 'postgres', url })));

describe('verification tells pruned from deleted and from truncated (the stores themselves)', () => {
  it('a cut tail is truncated against the head row; a tombstone no record names is pruned_unrecorded', async () => {
    const store = memoryStore();
    const s = setup({ store });
    const tool = refundTool(s);
    for (const id of ['c1', 'c2', 'c3'])
      await run(agentWith(scripted([refundCall({ payment_id: id, amount: 500 }, id)], [assistantMessage('done')]), [tool.tool]), 'refund', {
        context: { user: 'alice' },
      });
    expect(await verifyDecisions(store)).toEqual({ ok: true, count: 3 });
    // as if rows were deleted: from the middle, the newest (the head row still names seq 3), the oldest
    const list = store.listDecisions!.bind(store);
    const without = (gone: number[]) => Object.assign(Object.create(store), { listDecisions: async () => (await list()).filter((e) => !gone.includes(e.seq)) });
    expect(await verifyDecisions(without([2]))).toEqual({ ok: false, seq: 2, break: 'missing' });
    expect(await verifyDecisions(without([3]))).toEqual({ ok: false, seq: 3, break: 'truncated' });
    expect(await verifyDecisions(without([1]))).toEqual({ ok: false, seq: 1, break: 'deleted' });
    // an entry that only says it is a tombstone is an entry: its content is checked (a `pruned` field in a
    // writer's body could otherwise exempt it, or break every tenant's verification)
    const [first] = await list();
    const posing = Object.assign(Object.create(store), {
      listDecisions: async () => (await list()).map((e) => (e.seq === 1 ? { ...e, pruned: { tenant: 'x' } } : e)),
    });
    expect(await verifyDecisions(posing)).toEqual({ ok: false, seq: first!.seq, break: 'content_altered' });
    // the oldest receipts pruned, the entries bound to them kept: those are checked as links only
    const receipts = await pruneLog(store, { log: 'receipts', before: Number.MAX_SAFE_INTEGER, by: 'carol', now: 0 });
    expect(receipts).toMatchObject({ outcome: 'pruned', record: { from: 1, to: 5 } }); // the newest stays
    expect(await verifyReceipts(store)).toMatchObject({ ok: true, prunedThrough: 5 });
    expect(await verifyDecisions(store)).toEqual({ ok: true, count: 3 });
    // a tenant's entry erased without a prune record
    await store.tombstoneDecisions!([2], 'acme');
    expect(await verifyDecisions(store)).toEqual({ ok: false, seq: 2, break: 'pruned_unrecorded' });
  });
});
