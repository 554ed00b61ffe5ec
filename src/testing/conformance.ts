import { canonicalHash } from '../runtime/canonical.js';
import { GENESIS_HASH, receiptHash } from '../runtime/receipts-hash.js';
import { describeAnswersAndGrants } from './answers-conformance.js';
import { describeDecisionLogConformance } from './decision-log-conformance.js';
import type { ConformanceHarness } from './harness.js';
import type { BudgetCharge, NewApprovalRequest, Receipt, ReceiptBody, ReserveResult, Store } from '../runtime/types.js';

export type { ConformanceHarness } from './harness.js';

/**
 * The store conformance suite: every `Store` (memory, SQLite, Postgres, yours) must pass it.
 * `makeStore` is called before each test; the store is closed after it. Tests use fresh random
 * ids and never assume the store is empty, so a shared database works too.
 */
export function describeStoreConformance(name: string, makeStore: () => Promise<Store>, t: ConformanceHarness): void {
  const { describe, beforeEach, afterEach } = t;
  describeDecisionLogConformance(name, makeStore, t);

  describe(`store conformance: ${name}`, () => {
    let store: Store;
    let id: (label: string) => string;

    beforeEach(async () => {
      store = await makeStore();
      const run = globalThis.crypto.randomUUID().slice(0, 8);
      id = (label) => `${label}-${run}-${globalThis.crypto.randomUUID().slice(0, 8)}`;
    });
    afterEach(async () => {
      await store.close();
    });

    const f: Fixture = {
      get store() {
        return store;
      },
      id: (label) => id(label),
      request: (overrides = {}) => ({
        callId: id('call'),
        action: 'stripe.refund',
        toolName: 'refund',
        // a request as the runtime writes it: its argsHash binds its args (serve refuses an answer otherwise)
        argsHash: canonicalHash({ amount: 5000 }),
        args: '{"amount":5000}',
        policyHash: 'p'.repeat(64),
        principal: 'alice',
        approvalsRequired: 1,
        createdAt: 1_000,
        ...overrides,
      }),
    };
    describeApprovals(t, f);
    describeEffects(t, f);
    describeBudgets(t, f);
    describeClaimingReservations(t, f);
    describeReceipts(t, f);
    describeAnswersAndGrants(t, f);
  });
}

/** What every group's tests use: the store made for the running test, fresh ids, and a request as the runtime writes it. */
interface Fixture {
  readonly store: Store;
  id(label: string): string;
  request(overrides?: Partial<NewApprovalRequest>): NewApprovalRequest;
}

function describeApprovals(t: ConformanceHarness, f: Fixture): void {
  t.describe('approval requests', () => {
    requestStorageTests(t, f);
    answerTests(t, f);
    claimTests(t, f);
  });
}

/** putRequest, getRequest, listRequests and pageRequests. */
function requestStorageTests(t: ConformanceHarness, f: Fixture): void {
  const { it, expect } = t;
  it('putRequest inserts a pending request with no answers', async () => {
    const r = f.request();
    const stored = await f.store.putRequest(r);
    expect(stored).toMatchObject({ ...r, state: 'pending', answers: [] });
    expect(stored.decidedAt ?? null).toBe(null);
    expect(stored.consumedAt ?? null).toBe(null);
    expect(await f.store.getRequest(r.callId)).toEqual(stored);
  });

  it('putRequest is idempotent by callId: the existing request is returned unchanged', async () => {
    const r = f.request();
    const first = await f.store.putRequest(r);
    const second = await f.store.putRequest({ ...r, argsHash: 'b'.repeat(64), principal: 'mallory', createdAt: 9_999 });
    expect(second).toEqual(first);
    expect((await f.store.getRequest(r.callId))?.principal).toBe('alice');
    const concurrent = await Promise.all([1, 2, 3, 4].map((n) => f.store.putRequest({ ...f.request({ callId: `${r.callId}-c` }), createdAt: n })));
    expect(new Set(concurrent.map((c) => c.createdAt)).size).toBe(1);
  });

  it('pageRequests (a store that has it): newest first by createdAt, filtered by state, with the total', async () => {
    if (!f.store.pageRequests) return; // optional: serve lists and slices instead
    const top = 8_000_000_000_000 + Math.floor(Math.random() * 1_000_000) * 10; // newer than anything else in a shared store
    const ids = [0, 1, 2].map((k) => f.id(`page${k}`));
    for (const [k, callId] of ids.entries()) await f.store.putRequest(f.request({ callId, createdAt: top + k }));
    const first = await f.store.pageRequests({ states: ['pending'] }, { limit: 2, offset: 0 });
    expect(first.items.map((r) => r.callId)).toEqual([ids[2], ids[1]]);
    expect(first.items[0]).toEqual(await f.store.getRequest(ids[2]!));
    const second = await f.store.pageRequests({ states: ['pending'] }, { limit: 2, offset: 2 });
    expect(second.items[0]?.callId).toBe(ids[0]);
    expect(second.total).toBe(first.total);
    await f.store.addAnswer(ids[2]!, { approver: 'bob', decision: 'approve', at: 2_000 });
    const after = await f.store.pageRequests({ states: ['pending'] }, { limit: 1, offset: 0 });
    expect(after.items[0]?.callId).toBe(ids[1]);
    expect(after.total).toBe(first.total - 1);
    const approved = await f.store.pageRequests({ states: ['approved', 'consumed'] }, { limit: 1, offset: 0 });
    expect(approved.items[0]).toMatchObject({ callId: ids[2], state: 'approved' });
    const all = await f.store.pageRequests({}, { limit: 3, offset: 0 });
    expect(all.items.map((r) => r.callId)).toEqual([ids[2], ids[1], ids[0]]);
    expect(all.total).toBeGreaterThanOrEqual(first.total); // the approved one is still counted among all states
  });

  it('putRequest does not reset a decided request', async () => {
    const r = f.request();
    await f.store.putRequest(r);
    await f.store.addAnswer(r.callId, { approver: 'bob', decision: 'approve', at: 2_000 });
    const again = await f.store.putRequest(r);
    expect(again.state).toBe('approved');
    expect(again.answers).toHaveLength(1);
  });

  it('getRequest of an unknown call id is null', async () => {
    expect(await f.store.getRequest(f.id('nope'))).toBe(null);
  });

  it('listRequests filters by state', async () => {
    const a = f.request();
    const b = f.request();
    await f.store.putRequest(a);
    await f.store.putRequest(b);
    await f.store.addAnswer(b.callId, { approver: 'bob', decision: 'approve', at: 2_000 });
    const pending = (await f.store.listRequests({ state: 'pending' })).map((r) => r.callId);
    const approved = (await f.store.listRequests({ state: 'approved' })).map((r) => r.callId);
    const all = (await f.store.listRequests()).map((r) => r.callId);
    expect(pending).toContain(a.callId);
    expect(pending).not.toContain(b.callId);
    expect(approved).toContain(b.callId);
    expect(approved).not.toContain(a.callId);
    expect(all).toContain(a.callId);
    expect(all).toContain(b.callId);
  });
}

/** addAnswer: outcomes, the requester, M-of-N, identities, concurrency, rejects. */
function answerTests(t: ConformanceHarness, f: Fixture): void {
  const { it, expect } = t;
  it('an answer to an unknown request is `unknown`', async () => {
    expect(await f.store.addAnswer(f.id('nope'), { approver: 'bob', decision: 'approve', at: 1 })).toEqual({ outcome: 'unknown' });
  });

  it('one approval of a 1-approver request approves it, with decidedAt = the answer time', async () => {
    const r = f.request();
    await f.store.putRequest(r);
    const res = await f.store.addAnswer(r.callId, { approver: 'bob', decision: 'approve', reason: 'ok', at: 2_000 });
    expect(res.outcome).toBe('recorded');
    if (res.outcome !== 'recorded') return;
    expect(res.request.state).toBe('approved');
    expect(res.request.decidedAt).toBe(2_000);
    expect(res.request.answers).toEqual([{ approver: 'bob', decision: 'approve', reason: 'ok', at: 2_000 }]);
  });

  it('the requester (principal) cannot answer their own request', async () => {
    const r = f.request();
    await f.store.putRequest(r);
    const res = await f.store.addAnswer(r.callId, { approver: 'alice', decision: 'approve', at: 2_000 });
    expect(res.outcome).toBe('approver_is_requester');
    const after = await f.store.getRequest(r.callId);
    expect(after?.state).toBe('pending');
    expect(after?.answers).toEqual([]);
  });

  it('M-of-N: approved only once M distinct approvers said yes; a repeated approver is a duplicate', async () => {
    const r = f.request({ approvalsRequired: 2 });
    await f.store.putRequest(r);
    const one = await f.store.addAnswer(r.callId, { approver: 'bob', decision: 'approve', at: 2_000 });
    expect(one.outcome).toBe('recorded');
    if (one.outcome === 'recorded') expect(one.request.state).toBe('pending');
    const dup = await f.store.addAnswer(r.callId, { approver: 'bob', decision: 'approve', at: 2_500 });
    expect(dup.outcome).toBe('duplicate');
    expect((await f.store.getRequest(r.callId))?.state).toBe('pending');
    expect((await f.store.getRequest(r.callId))?.answers).toHaveLength(1);
    const two = await f.store.addAnswer(r.callId, { approver: 'carol', decision: 'approve', at: 3_000 });
    expect(two.outcome).toBe('recorded');
    if (two.outcome === 'recorded') {
      expect(two.request.state).toBe('approved');
      expect(two.request.decidedAt).toBe(3_000);
      expect(two.request.answers.map((a) => a.approver)).toEqual(['bob', 'carol']);
    }
    const late = await f.store.addAnswer(r.callId, { approver: 'dave', decision: 'approve', at: 4_000 });
    expect(late.outcome).toBe('not_pending');
  });

  it('identities compare after normalisation: the requester under another spelling is the requester; BOB after bob is a duplicate', async () => {
    const r = f.request({ approvalsRequired: 2 });
    await f.store.putRequest(r);
    for (const [i, alice] of ['Alice', 'alice ', 'alice\u200b', '\uff21\uff2c\uff29\uff23\uff25', 'ALICE', '\u202eALICE'].entries()) {
      expect((await f.store.addAnswer(r.callId, { approver: alice, decision: 'approve', at: 2_000 + i })).outcome).toBe('approver_is_requester');
    }
    expect((await f.store.addAnswer(r.callId, { approver: 'bob', decision: 'approve', at: 3_000 })).outcome).toBe('recorded');
    expect((await f.store.addAnswer(r.callId, { approver: 'BOB', decision: 'approve', at: 3_100 })).outcome).toBe('duplicate');
    expect((await f.store.addAnswer(r.callId, { approver: ' b\u200dob', decision: 'approve', at: 3_200 })).outcome).toBe('duplicate');
    const after = await f.store.getRequest(r.callId);
    expect(after?.state).toBe('pending');
    expect(after?.answers.map((a) => a.approver)).toEqual(['bob']);
  });

  it('concurrent approvals from distinct approvers are all recorded (M-of-N reached once)', async () => {
    const r = f.request({ approvalsRequired: 3 });
    await f.store.putRequest(r);
    const results = await Promise.all(
      ['bob', 'carol', 'dave'].map((approver, i) => f.store.addAnswer(r.callId, { approver, decision: 'approve', at: 2_000 + i })),
    );
    expect(results.map((x) => x.outcome)).toEqual(['recorded', 'recorded', 'recorded']);
    const after = await f.store.getRequest(r.callId);
    expect(after?.state).toBe('approved');
    expect(after?.answers).toHaveLength(3);
  });

  it('a reject makes the request rejected; later answers are not_pending', async () => {
    const r = f.request({ approvalsRequired: 2 });
    await f.store.putRequest(r);
    await f.store.addAnswer(r.callId, { approver: 'bob', decision: 'approve', at: 2_000 });
    const rej = await f.store.addAnswer(r.callId, { approver: 'carol', decision: 'reject', reason: 'no', at: 3_000 });
    expect(rej.outcome).toBe('recorded');
    if (rej.outcome === 'recorded') {
      expect(rej.request.state).toBe('rejected');
      expect(rej.request.decidedAt).toBe(3_000);
    }
    const after = await f.store.addAnswer(r.callId, { approver: 'dave', decision: 'approve', at: 4_000 });
    expect(after.outcome).toBe('not_pending');
    expect((await f.store.getRequest(r.callId))?.state).toBe('rejected');
  });
}

/** claimApproval, and copies out of the store. */
function claimTests(t: ConformanceHarness, f: Fixture): void {
  const { it, expect } = t;
  it('claimApproval: unknown, not_approved (pending, rejected), claimed once, then consumed', async () => {
    expect(await f.store.claimApproval(f.id('nope'), 5_000)).toEqual({ outcome: 'unknown' });
    const r = f.request();
    await f.store.putRequest(r);
    expect((await f.store.claimApproval(r.callId, 5_000)).outcome).toBe('not_approved');
    await f.store.addAnswer(r.callId, { approver: 'bob', decision: 'approve', at: 2_000 });
    const claim = await f.store.claimApproval(r.callId, 5_000);
    expect(claim.outcome).toBe('claimed');
    if (claim.outcome === 'claimed') {
      expect(claim.request.state).toBe('consumed');
      expect(claim.request.consumedAt).toBe(5_000);
      expect(claim.request.answers.map((a) => a.approver)).toEqual(['bob']);
    }
    const again = await f.store.claimApproval(r.callId, 6_000);
    expect(again.outcome).toBe('consumed');
    if (again.outcome === 'consumed') expect(again.request.consumedAt).toBe(5_000);

    const rejected = f.request();
    await f.store.putRequest(rejected);
    await f.store.addAnswer(rejected.callId, { approver: 'bob', decision: 'reject', at: 2_000 });
    expect((await f.store.claimApproval(rejected.callId, 5_000)).outcome).toBe('not_approved');
  });

  it('claimApproval with a binding: a claim for other arguments, action, policy or principal is `mismatch` and does not use the approval up', async () => {
    const r = f.request({ principal: 'alice' });
    await f.store.putRequest(r);
    await f.store.addAnswer(r.callId, { approver: 'bob', decision: 'approve', at: 2_000 });
    const genuine = { action: r.action, argsHash: r.argsHash, policyHash: r.policyHash, principal: 'alice' };
    for (const other of [
      { ...genuine, argsHash: 'b'.repeat(64) },
      { ...genuine, action: 'stripe.charge' },
      { ...genuine, policyHash: 'q'.repeat(64) },
      { ...genuine, principal: 'mallory' },
      { ...genuine, principal: null },
    ]) {
      const res = await f.store.claimApproval(r.callId, 5_000, other);
      expect(res.outcome).toBe('mismatch');
      expect((await f.store.getRequest(r.callId))?.state).toBe('approved');
    }
    const claim = await f.store.claimApproval(r.callId, 6_000, { ...genuine, principal: 'ALICE' });
    expect(claim.outcome).toBe('claimed');
    expect((await f.store.claimApproval(r.callId, 7_000, genuine)).outcome).toBe('consumed');
  });

  it('concurrent claims of one approval: exactly one is `claimed`', async () => {
    const r = f.request();
    await f.store.putRequest(r);
    await f.store.addAnswer(r.callId, { approver: 'bob', decision: 'approve', at: 2_000 });
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => f.store.claimApproval(r.callId, 5_000 + i)));
    expect(claims.filter((c) => c.outcome === 'claimed')).toHaveLength(1);
    expect(claims.filter((c) => c.outcome === 'consumed')).toHaveLength(7);
  });

  it('returned requests are copies: mutating one does not change the store', async () => {
    const r = f.request();
    const stored = await f.store.putRequest(r);
    stored.state = 'approved';
    stored.answers.push({ approver: 'x', decision: 'approve', at: 1 });
    const again = await f.store.getRequest(r.callId);
    expect(again?.state).toBe('pending');
    expect(again?.answers).toEqual([]);
  });
}

function describeEffects(t: ConformanceHarness, f: Fixture): void {
  t.describe('effects', () => {
    reservationTests(t, f);
    resolutionTests(t, f);
  });
}

/** reserveEffect as the runtime calls it for one attempt (no charges, no claim). */
function effectReserver(f: Fixture) {
  return (key: string, attemptId: string, now: number, maxAttempts = 3, leaseMs = 1_000) =>
    f.store.reserveEffect({ key, action: 'stripe.refund', attemptId, maxAttempts, now, leaseMs }) as Promise<Extract<ReserveResult, { effect: unknown }>>;
}

/** reserveEffect and settleEffect: leases, outcomes, attempts, concurrency. */
function reservationTests(t: ConformanceHarness, f: Fixture): void {
  const { it, expect } = t;
  const reserve = effectReserver(f);

  it('a new key is reserved in_flight with attempts 1 and a lease', async () => {
    const key = f.id('refund');
    const res = await reserve(key, 'a1', 10_000);
    expect(res.outcome).toBe('reserved');
    expect(res.effect).toMatchObject({ key, action: 'stripe.refund', state: 'in_flight', attempts: 1, attemptId: 'a1', leaseUntil: 11_000 });
    expect(await f.store.getEffect(key)).toEqual(res.effect);
    expect(await f.store.getEffect(f.id('nope'))).toBe(null);
  });

  it('in_flight with the lease not over: `ambiguous`, the holder is unchanged', async () => {
    const key = f.id('refund');
    await reserve(key, 'a1', 10_000);
    const res = await reserve(key, 'a2', 10_500);
    expect(res.outcome).toBe('ambiguous');
    expect(res.effect.attemptId).toBe('a1');
    expect(res.effect.state).toBe('in_flight');
  });

  it('in_flight with the lease over: becomes ambiguous and stays so', async () => {
    const key = f.id('refund');
    await reserve(key, 'a1', 10_000);
    const res = await reserve(key, 'a2', 11_000);
    expect(res.outcome).toBe('ambiguous');
    expect(res.effect.state).toBe('ambiguous');
    expect((await f.store.getEffect(key))?.state).toBe('ambiguous');
    expect((await reserve(key, 'a3', 99_000)).outcome).toBe('ambiguous');
  });

  it('committed: every later reservation is `duplicate`', async () => {
    const key = f.id('refund');
    await reserve(key, 'a1', 10_000);
    expect(await f.store.settleEffect(key, 'a1', 'committed', 10_100)).toBe(true);
    const res = await reserve(key, 'a2', 20_000);
    expect(res.outcome).toBe('duplicate');
    expect(res.effect).toMatchObject({ state: 'committed', attempts: 1, attemptId: 'a1', updatedAt: 10_100 });
  });

  it('settled ambiguous: later reservations are `ambiguous`', async () => {
    const key = f.id('refund');
    await reserve(key, 'a1', 10_000);
    expect(await f.store.settleEffect(key, 'a1', 'ambiguous', 10_100)).toBe(true);
    expect((await reserve(key, 'a2', 10_200)).outcome).toBe('ambiguous');
  });

  it('failed: reserved again (attempts+1, new holder) until maxAttempts, then `exhausted`', async () => {
    const key = f.id('refund');
    expect((await reserve(key, 'a1', 10_000, 2)).outcome).toBe('reserved');
    expect(await f.store.settleEffect(key, 'a1', 'failed', 10_100)).toBe(true);
    const second = await reserve(key, 'a2', 10_200, 2);
    expect(second.outcome).toBe('reserved');
    expect(second.effect).toMatchObject({ state: 'in_flight', attempts: 2, attemptId: 'a2', leaseUntil: 11_200 });
    expect(await f.store.settleEffect(key, 'a2', 'failed', 10_300)).toBe(true);
    const third = await reserve(key, 'a3', 10_400, 2);
    expect(third.outcome).toBe('exhausted');
    expect(third.effect).toMatchObject({ state: 'failed', attempts: 2, attemptId: 'a2' });
  });

  it('settle by a stale attempt (or an unknown key) is a no-op returning false', async () => {
    const key = f.id('refund');
    await reserve(key, 'a1', 10_000);
    await f.store.settleEffect(key, 'a1', 'failed', 10_100);
    await reserve(key, 'a2', 10_200);
    expect(await f.store.settleEffect(key, 'a1', 'committed', 10_300)).toBe(false);
    expect(await f.store.getEffect(key)).toMatchObject({ state: 'in_flight', attemptId: 'a2', attempts: 2 });
    expect(await f.store.settleEffect(f.id('nope'), 'a1', 'committed', 10_300)).toBe(false);
  });

  it('a settled attempt cannot settle again', async () => {
    const key = f.id('refund');
    await reserve(key, 'a1', 10_000);
    expect(await f.store.settleEffect(key, 'a1', 'committed', 10_100)).toBe(true);
    expect(await f.store.settleEffect(key, 'a1', 'failed', 10_200)).toBe(false);
    expect((await f.store.getEffect(key))?.state).toBe('committed');
  });

  it('the holder may still settle after its lease made the key ambiguous (the truth arrived late)', async () => {
    const key = f.id('refund');
    await reserve(key, 'a1', 10_000);
    await reserve(key, 'a2', 12_000);
    expect(await f.store.settleEffect(key, 'a1', 'committed', 12_100)).toBe(true);
    expect((await reserve(key, 'a3', 13_000)).outcome).toBe('duplicate');
  });

  it('concurrent reservations of a new key: exactly one is `reserved`', async () => {
    const key = f.id('refund');
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => reserve(key, `a${i}`, 10_000)));
    expect(results.filter((r) => r.outcome === 'reserved')).toHaveLength(1);
    expect(results.filter((r) => r.outcome === 'ambiguous')).toHaveLength(7);
    expect((await f.store.getEffect(key))?.attempts).toBe(1);
  });
}

/** resolveEffect and listEffects. */
function resolutionTests(t: ConformanceHarness, f: Fixture): void {
  const { it, expect } = t;
  const reserve = effectReserver(f);

  it('resolveEffect: ambiguous -> committed (duplicate after) or failed (retry allowed), with resolvedBy', async () => {
    const committedKey = f.id('refund');
    await reserve(committedKey, 'a1', 10_000);
    await f.store.settleEffect(committedKey, 'a1', 'ambiguous', 10_100);
    const c = await f.store.resolveEffect(committedKey, 'committed', 'ops@example', 20_000);
    expect(c).toMatchObject({ state: 'committed', resolvedBy: 'ops@example', updatedAt: 20_000 });
    expect((await reserve(committedKey, 'a2', 21_000)).outcome).toBe('duplicate');

    const failedKey = f.id('refund');
    await reserve(failedKey, 'a1', 10_000);
    await f.store.settleEffect(failedKey, 'a1', 'ambiguous', 10_100);
    expect(await f.store.resolveEffect(failedKey, 'failed', 'ops@example', 20_000)).toMatchObject({ state: 'failed', resolvedBy: 'ops@example' });
    const retry = await reserve(failedKey, 'a2', 21_000);
    expect(retry.outcome).toBe('reserved');
    expect(retry.effect.attempts).toBe(2);
    expect(await f.store.settleEffect(failedKey, 'a2', 'committed', 21_100)).toBe(true);
  });

  it('resolveEffect: an in-flight key past its lease can be resolved; within its lease it is left unchanged', async () => {
    const key = f.id('refund');
    await reserve(key, 'a1', 10_000);
    const early = await f.store.resolveEffect(key, 'failed', 'ops', 10_500);
    expect(early).toMatchObject({ state: 'in_flight', attemptId: 'a1' });
    expect(early?.resolvedBy).toBeUndefined();
    const late = await f.store.resolveEffect(key, 'failed', 'ops', 11_000);
    expect(late).toMatchObject({ state: 'failed', resolvedBy: 'ops' });
    expect(await f.store.resolveEffect(f.id('nope'), 'failed', 'ops', 1)).toBe(null);
  });

  it('resolveEffect leaves a committed key unchanged', async () => {
    const key = f.id('refund');
    await reserve(key, 'a1', 10_000);
    await f.store.settleEffect(key, 'a1', 'committed', 10_100);
    expect(await f.store.resolveEffect(key, 'failed', 'ops', 20_000)).toMatchObject({ state: 'committed' });
    expect((await f.store.getEffect(key))?.state).toBe('committed');
  });

  it('listEffects filters by state', async () => {
    const a = f.id('refund');
    const b = f.id('refund');
    await reserve(a, 'a1', 10_000);
    await reserve(b, 'b1', 10_000);
    await f.store.settleEffect(b, 'b1', 'ambiguous', 10_100);
    const ambiguous = (await f.store.listEffects({ state: 'ambiguous' })).map((e) => e.key);
    expect(ambiguous).toContain(b);
    expect(ambiguous).not.toContain(a);
    const keys = (await f.store.listEffects()).map((e) => e.key);
    expect(keys).toContain(a);
    expect(keys).toContain(b);
  });
}

function describeBudgets(t: ConformanceHarness, f: Fixture): void {
  t.describe('budgets (CTRLRun v7 charges)', () => {
    budgetLimitTests(t, f);
    budgetConcurrencyTests(t, f);
  });
}

const budgetCharge = (grantId: string, amount: number, limit = 100, windowMs = 60_000, metric = 'amount'): BudgetCharge => ({
  grantId,
  metric,
  amount: String(amount),
  limit: String(limit),
  windowMs,
});

/** reserveEffect with charges. */
function budgetSpender(f: Fixture) {
  return (key: string, attemptId: string, now: number, charges: BudgetCharge[], maxAttempts = 3) =>
    f.store.reserveEffect({ key, action: 'stripe.refund', attemptId, maxAttempts, now, leaseMs: 1_000, charges });
}

/** Limits, windows, release on failure and retries. */
function budgetLimitTests(t: ConformanceHarness, f: Fixture): void {
  const { it, expect } = t;
  const charge = budgetCharge;
  const spend = budgetSpender(f);

  it('a charge within the limit reserves and writes one ledger row; the limit itself is reachable (inclusive)', async () => {
    const grant = f.id('grant');
    const key = f.id('refund');
    const r = await spend(key, 'a1', 10_000, [charge(grant, 60)]);
    expect(r.outcome).toBe('reserved');
    expect(await f.store.consumptions({ grantId: grant })).toEqual([
      { grantId: grant, metric: 'amount', amount: '60', effectKey: key, attempt: 1, consumedAt: 10_000, releasedAt: null },
    ]);
    expect((await spend(f.id('refund'), 'b1', 10_100, [charge(grant, 40)])).outcome).toBe('reserved');
  });

  it('a charge past the limit is `budget_exhausted`, naming the charge, and writes nothing (no reservation, no row)', async () => {
    const grant = f.id('grant');
    await spend(f.id('refund'), 'a1', 10_000, [charge(grant, 70)]);
    const key = f.id('refund');
    const r = await spend(key, 'b1', 10_100, [charge(grant, 31)]);
    expect(r).toEqual({ outcome: 'budget_exhausted', charge: charge(grant, 31) });
    expect(await f.store.getEffect(key)).toBe(null);
    expect(await f.store.consumptions({ effectKey: key })).toEqual([]);
  });

  it('every charge must pass: a second grant out of budget refuses the whole reservation', async () => {
    const child = f.id('grant');
    const parent = f.id('grant');
    await spend(f.id('refund'), 'a1', 10_000, [charge(parent, 90)]);
    const key = f.id('refund');
    const r = await spend(key, 'b1', 10_100, [charge(child, 20), charge(parent, 20)]);
    expect(r.outcome).toBe('budget_exhausted');
    expect(r.outcome === 'budget_exhausted' && r.charge.grantId).toBe(parent);
    expect(await f.store.consumptions({ grantId: child })).toEqual([]);
  });

  it('the window rolls: a row older than the window no longer counts', async () => {
    const grant = f.id('grant');
    await spend(f.id('refund'), 'a1', 10_000, [charge(grant, 100, 100, 1_000)]);
    expect((await spend(f.id('refund'), 'b1', 10_900, [charge(grant, 1, 100, 1_000)])).outcome).toBe('budget_exhausted');
    expect((await spend(f.id('refund'), 'c1', 11_001, [charge(grant, 100, 100, 1_000)])).outcome).toBe('reserved');
  });

  it('released exactly when the effect fails (settle or resolve), held when committed or ambiguous', async () => {
    const grant = f.id('grant');
    const failed = f.id('refund');
    await spend(failed, 'a1', 10_000, [charge(grant, 50)]);
    await f.store.settleEffect(failed, 'a1', 'failed', 10_100);
    expect((await f.store.consumptions({ effectKey: failed }))[0]?.releasedAt).toBe(10_100);
    const committed = f.id('refund');
    await spend(committed, 'b1', 10_200, [charge(grant, 50)]);
    await f.store.settleEffect(committed, 'b1', 'committed', 10_300);
    const ambiguous = f.id('refund');
    expect((await spend(ambiguous, 'c1', 10_400, [charge(grant, 50)])).outcome).toBe('reserved');
    await f.store.settleEffect(ambiguous, 'c1', 'ambiguous', 10_500);
    // 50 committed + 50 ambiguous held: full (ambiguity is not a refund)
    expect((await spend(f.id('refund'), 'd1', 10_600, [charge(grant, 1)])).outcome).toBe('budget_exhausted');
    await f.store.resolveEffect(ambiguous, 'failed', 'ops@example', 10_700);
    expect((await f.store.consumptions({ effectKey: ambiguous }))[0]?.releasedAt).toBe(10_700);
    expect((await spend(f.id('refund'), 'e1', 10_800, [charge(grant, 50)])).outcome).toBe('reserved');
  });

  it('a retry after failed charges again, as a distinct attempt; no charge when the key is not reserved', async () => {
    const grant = f.id('grant');
    const key = f.id('refund');
    await spend(key, 'a1', 10_000, [charge(grant, 10)]);
    await f.store.settleEffect(key, 'a1', 'failed', 10_100);
    expect((await spend(key, 'a2', 10_200, [charge(grant, 10)])).outcome).toBe('reserved');
    await f.store.settleEffect(key, 'a2', 'committed', 10_300);
    expect((await spend(key, 'a3', 10_400, [charge(grant, 10)])).outcome).toBe('duplicate');
    const rows = await f.store.consumptions({ effectKey: key });
    expect(rows.map((r) => [r.attempt, r.releasedAt === null])).toEqual([
      [1, false],
      [2, true],
    ]);
  });
}

/** Exact sums and concurrent reservations. */
function budgetConcurrencyTests(t: ConformanceHarness, f: Fixture): void {
  const { it, expect } = t;
  const charge = budgetCharge;
  const spend = budgetSpender(f);

  it('amounts beyond 2^53 are summed exactly', async () => {
    const grant = f.id('grant');
    const big = 2n ** 60n;
    const c = (amount: bigint): BudgetCharge => ({ grantId: grant, metric: 'amount', amount: String(amount), limit: String(big + 1n), windowMs: 60_000 });
    expect((await spend(f.id('refund'), 'a1', 10_000, [c(big)])).outcome).toBe('reserved');
    expect((await spend(f.id('refund'), 'b1', 10_001, [c(2n)])).outcome).toBe('budget_exhausted');
    expect((await spend(f.id('refund'), 'c1', 10_002, [c(1n)])).outcome).toBe('reserved');
  });

  it('concurrent reservations on distinct keys never spend past the limit', async () => {
    const grant = f.id('grant');
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => spend(f.id('refund'), `a${i}`, 10_000, [charge(grant, 10, 50)])));
    expect(results.filter((r) => r.outcome === 'reserved')).toHaveLength(5);
    expect(results.filter((r) => r.outcome === 'budget_exhausted')).toHaveLength(7);
    expect((await f.store.consumptions({ grantId: grant })).length).toBe(5);
  });

  it('concurrent charged and uncharged reservations of one new key: exactly one is reserved, and only a charged winner holds a charge', async () => {
    const grant = f.id('grant');
    const key = f.id('refund');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        f.store.reserveEffect({
          key,
          action: 'stripe.refund',
          attemptId: `a${i}`,
          maxAttempts: 3,
          now: 10_000,
          leaseMs: 60_000,
          ...(i % 2 === 0 ? { charges: [charge(grant, 10)] } : {}),
        }),
      ),
    );
    const winners = results.flatMap((r, i) => (r.outcome === 'reserved' ? [i] : []));
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => r.outcome === 'ambiguous')).toHaveLength(7); // in flight elsewhere
    const winner = winners[0]!;
    expect(await f.store.getEffect(key)).toMatchObject({ state: 'in_flight', attempts: 1, attemptId: `a${winner}` });
    const rows = await f.store.consumptions({ effectKey: key });
    expect(rows.map((r) => [r.grantId, r.amount, r.attempt])).toEqual(winner % 2 === 0 ? [[grant, '10', 1]] : []);
    expect(await f.store.consumptions({ grantId: grant })).toEqual(rows);
  });

  it('concurrent charged and uncharged retries of one failed key: one attempt 2, charged only if its winner was', async () => {
    const grant = f.id('grant');
    const key = f.id('refund');
    expect((await spend(key, 'a0', 10_000, [charge(grant, 10, 30)])).outcome).toBe('reserved');
    expect(await f.store.settleEffect(key, 'a0', 'failed', 10_100)).toBe(true); // its charge is released
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        f.store.reserveEffect({
          key,
          action: 'stripe.refund',
          attemptId: `r${i}`,
          maxAttempts: 3,
          now: 11_000,
          leaseMs: 60_000,
          ...(i % 2 === 0 ? { charges: [charge(grant, 30, 30)] } : {}),
        }),
      ),
    );
    const winners = results.flatMap((r, i) => (r.outcome === 'reserved' ? [i] : []));
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => r.outcome === 'ambiguous')).toHaveLength(7);
    const winner = winners[0]!;
    expect(await f.store.getEffect(key)).toMatchObject({ state: 'in_flight', attempts: 2, attemptId: `r${winner}` });
    const held = (await f.store.consumptions({ effectKey: key })).filter((r) => r.releasedAt === null);
    expect(held.map((r) => [r.amount, r.attempt])).toEqual(winner % 2 === 0 ? [['30', 2]] : []);
  });
}

function describeClaimingReservations(t: ConformanceHarness, f: Fixture): void {
  t.describe('a reservation that claims its approval (CTRLRun §4.2 A4: one transaction)', () => {
    const h = claimingHelpers(f);
    claimingOutcomes(t, f, h);
    claimingRefusals(t, f, h);
  });
}

type ClaimBindingShape = { action: string; argsHash: string | null; policyHash: string; principal: string | null };

/** What the claiming-reservation tests share: an approved request, a reservation that claims it, a budget charge. */
function claimingHelpers(f: Fixture) {
  const approvedRequest = async () => {
    const r = f.request();
    await f.store.putRequest(r);
    await f.store.addAnswer(r.callId, { approver: 'bob', decision: 'approve', at: 2_000 });
    return { r, binding: { action: r.action, argsHash: r.argsHash, policyHash: r.policyHash, principal: 'alice' } };
  };
  const reserveClaiming = (key: string, attemptId: string, now: number, claim: { callId: string; binding: ClaimBindingShape }, charges?: BudgetCharge[]) =>
    f.store.reserveEffect({ key, action: 'stripe.refund', attemptId, maxAttempts: 3, now, leaseMs: 1_000, claim, ...(charges ? { charges } : {}) });
  const charge = (grantId: string, amount: number, limit = 10): BudgetCharge => ({
    grantId,
    metric: 'count',
    amount: String(amount),
    limit: String(limit),
    windowMs: 60_000,
  });

  return { approvedRequest, reserveClaiming, charge };
}

type ClaimingHelpers = ReturnType<typeof claimingHelpers>;

function claimingOutcomes(t: ConformanceHarness, f: Fixture, h: ClaimingHelpers): void {
  const { it, expect } = t;
  const { approvedRequest, reserveClaiming, charge } = h;
  it('reserved: the approval is consumed by the same call and returned', async () => {
    const { r, binding } = await approvedRequest();
    const key = f.id('refund');
    const res = await reserveClaiming(key, 'a1', 5_000, { callId: r.callId, binding });
    expect(res.outcome).toBe('reserved');
    if (res.outcome === 'reserved') {
      expect(res.claimed?.state).toBe('consumed');
      expect(res.claimed?.consumedAt).toBe(5_000);
      expect(res.claimed?.answers.map((a) => a.approver)).toEqual(['bob']);
    }
    expect((await f.store.getRequest(r.callId))?.state).toBe('consumed');
    expect(await f.store.claimApproval(r.callId, 6_000, binding)).toMatchObject({ outcome: 'consumed' });
  });

  it('a spent budget refuses the reservation and leaves the approval approved (then a reservation within budget uses it)', async () => {
    const { r, binding } = await approvedRequest();
    const grant = f.id('grant');
    expect(
      (
        await f.store.reserveEffect({
          key: f.id('refund'),
          action: 'stripe.refund',
          attemptId: 'x',
          maxAttempts: 3,
          now: 4_000,
          leaseMs: 1_000,
          charges: [charge(grant, 10)],
        })
      ).outcome,
    ).toBe('reserved');
    const key = f.id('refund');
    const refused = await reserveClaiming(key, 'a1', 5_000, { callId: r.callId, binding }, [charge(grant, 1)]);
    expect(refused).toEqual({ outcome: 'budget_exhausted', charge: charge(grant, 1) });
    expect((await f.store.getRequest(r.callId))?.state).toBe('approved');
    expect(await f.store.getEffect(key)).toBe(null);
    const other = f.id('grant');
    const res = await reserveClaiming(key, 'a2', 6_000, { callId: r.callId, binding }, [charge(other, 1)]);
    expect(res.outcome).toBe('reserved');
    expect((await f.store.getRequest(r.callId))?.state).toBe('consumed');
  });

  it('a duplicate, an ambiguous key or exhausted attempts leave the approval approved', async () => {
    const { r, binding } = await approvedRequest();
    const done = f.id('refund');
    await f.store.reserveEffect({ key: done, action: 'stripe.refund', attemptId: 'd1', maxAttempts: 1, now: 4_000, leaseMs: 1_000 });
    await f.store.settleEffect(done, 'd1', 'committed', 4_100);
    expect((await reserveClaiming(done, 'a1', 5_000, { callId: r.callId, binding })).outcome).toBe('duplicate');
    const held = f.id('refund');
    await f.store.reserveEffect({ key: held, action: 'stripe.refund', attemptId: 'h1', maxAttempts: 3, now: 4_900, leaseMs: 10_000 });
    expect((await reserveClaiming(held, 'a2', 5_000, { callId: r.callId, binding })).outcome).toBe('ambiguous');
    const failed = f.id('refund');
    await f.store.reserveEffect({ key: failed, action: 'stripe.refund', attemptId: 'f1', maxAttempts: 1, now: 4_000, leaseMs: 1_000 });
    await f.store.settleEffect(failed, 'f1', 'failed', 4_100);
    expect(
      (
        await f.store.reserveEffect({
          key: failed,
          action: 'stripe.refund',
          attemptId: 'a3',
          maxAttempts: 1,
          now: 5_000,
          leaseMs: 1_000,
          claim: { callId: r.callId, binding },
        })
      ).outcome,
    ).toBe('exhausted');
    expect((await f.store.getRequest(r.callId))?.state).toBe('approved');
  });
}

function claimingRefusals(t: ConformanceHarness, f: Fixture, h: ClaimingHelpers): void {
  const { it, expect } = t;
  const { approvedRequest, reserveClaiming, charge } = h;
  it('an approval that cannot be claimed is `claim_refused` (as claimApproval says) and nothing is written', async () => {
    const { r, binding } = await approvedRequest();
    const pending = f.request();
    await f.store.putRequest(pending);
    const cases: Array<[string, { callId: string; binding: typeof binding }]> = [
      ['unknown', { callId: f.id('nope'), binding }],
      ['not_approved', { callId: pending.callId, binding }],
      ['mismatch', { callId: r.callId, binding: { ...binding, argsHash: 'b'.repeat(64) } }],
      ['mismatch', { callId: r.callId, binding: { ...binding, principal: 'mallory' } }],
    ];
    for (const [outcome, claim] of cases) {
      const key = f.id('refund');
      const grant = f.id('grant');
      const res = await reserveClaiming(key, 'a1', 5_000, claim, [charge(grant, 1)]);
      expect(res.outcome).toBe('claim_refused');
      expect(res.outcome === 'claim_refused' && res.claim.outcome).toBe(outcome);
      expect(await f.store.getEffect(key)).toBe(null);
      expect(await f.store.consumptions({ grantId: grant })).toEqual([]);
    }
    expect((await f.store.getRequest(r.callId))?.state).toBe('approved');
    expect((await reserveClaiming(f.id('refund'), 'a2', 6_000, { callId: r.callId, binding })).outcome).toBe('reserved');
    const used = await reserveClaiming(f.id('refund'), 'a3', 7_000, { callId: r.callId, binding });
    expect(used.outcome === 'claim_refused' && used.claim.outcome).toBe('consumed');
  });

  it('concurrent reservations claiming one approval (distinct keys): exactly one is reserved', async () => {
    const { r, binding } = await approvedRequest();
    const grant = f.id('grant');
    const keys = Array.from({ length: 8 }, () => f.id('refund'));
    const results = await Promise.all(keys.map((key, i) => reserveClaiming(key, `a${i}`, 5_000 + i, { callId: r.callId, binding }, [charge(grant, 1)])));
    expect(results.filter((x) => x.outcome === 'reserved')).toHaveLength(1);
    expect(results.filter((x) => x.outcome === 'claim_refused')).toHaveLength(7);
    expect((await f.store.consumptions({ grantId: grant })).length).toBe(1);
    const effects = await Promise.all(keys.map((key) => f.store.getEffect(key)));
    expect(effects.filter((e) => e !== null)).toHaveLength(1);
  });
}

function describeReceipts(t: ConformanceHarness, f: Fixture): void {
  const { it, expect } = t;
  t.describe('receipts', () => {
    const body = (n: number): ReceiptBody => ({
      at: 1_000 + n,
      action: 'stripe.refund',
      call_id: f.id('call'),
      args_hash: 'a'.repeat(64),
      principal: 'alice',
      decision: 'allow',
      reason: 'rule_matched',
      approvers: n % 2 ? ['bob', 'carol'] : [],
      effect_key: n % 3 ? `refund:${n}` : null,
      result: 'executed',
      policy_hash: 'p'.repeat(64),
      mode: 'enforce',
      environment: n % 2 ? 'production' : null,
    });

    it('appendReceipt chains: contiguous seq, prev_hash = previous hash, hash = receiptHash', async () => {
      const before = await f.store.listReceipts();
      const last = before[before.length - 1];
      const bodies = Array.from({ length: 5 }, (_, n) => body(n));
      const appended: Receipt[] = [];
      for (const b of bodies) appended.push(await f.store.appendReceipt(b));
      appended.forEach((r, i) => {
        expect(r.seq).toBe((last?.seq ?? 0) + i + 1);
        expect(r.prev_hash).toBe(i === 0 ? (last?.hash ?? GENESIS_HASH) : appended[i - 1]!.hash);
        const { hash, ...rest } = r;
        expect(hash).toBe(receiptHash(rest));
        expect(r).toMatchObject(bodies[i] as unknown as Record<string, unknown>);
      });
      const listed = await f.store.listReceipts({ afterSeq: last?.seq ?? 0 });
      expect(listed).toEqual(appended);
    });

    it('lastReceiptOf (where a store has it) finds the newest receipt of a call or an effect key, or null', async () => {
      if (!f.store.lastReceiptOf) return;
      const call = f.id('call');
      const key = `refund:${f.id('k')}`;
      await f.store.appendReceipt({ ...body(1), call_id: call, effect_key: null, result: 'requested' });
      await f.store.appendReceipt({ ...body(2), call_id: f.id('other'), effect_key: key, result: 'executed' });
      const newest = await f.store.appendReceipt({ ...body(3), call_id: call, effect_key: key, result: 'approved' });
      await f.store.appendReceipt({ ...body(4), call_id: f.id('other'), effect_key: null });
      expect(await f.store.lastReceiptOf({ callId: call })).toEqual(newest);
      expect(await f.store.lastReceiptOf({ effectKey: key })).toEqual(newest);
      expect(await f.store.lastReceiptOf({ callId: f.id('none') })).toBeNull();
      expect(await f.store.lastReceiptOf({ effectKey: 'refund:none' })).toBeNull();
    });

    it('the first receipt of an empty store starts at seq 1 from GENESIS_HASH', async () => {
      const before = await f.store.listReceipts({ limit: 1 });
      const first = before[0] ?? (await f.store.appendReceipt(body(0)));
      expect(first.seq).toBe(1);
      expect(first.prev_hash).toBe(GENESIS_HASH);
    });

    it('concurrent appends still form one contiguous chain', async () => {
      const before = await f.store.listReceipts();
      const start = before[before.length - 1]?.seq ?? 0;
      await Promise.all(Array.from({ length: 12 }, (_, n) => f.store.appendReceipt(body(n))));
      const all = await f.store.listReceipts();
      const after = all.filter((r) => r.seq > start);
      expect(after.map((r) => r.seq)).toEqual(Array.from({ length: 12 }, (_, i) => start + i + 1));
      for (let i = 1; i < all.length; i++) expect(all[i]!.prev_hash).toBe(all[i - 1]!.hash);
    });

    it('listReceipts honours afterSeq and limit, in seq order', async () => {
      const before = await f.store.listReceipts();
      const start = before[before.length - 1]?.seq ?? 0;
      for (let n = 0; n < 4; n++) await f.store.appendReceipt(body(n));
      const page = await f.store.listReceipts({ afterSeq: start + 1, limit: 2 });
      expect(page.map((r) => r.seq)).toEqual([start + 2, start + 3]);
    });
  });
}
