import { canonicalHash } from '../runtime/canonical.js';
import type { ApprovalGrant, NewApprovalRequest, PausedDoor, Store } from '../runtime/types.js';
import type { ConformanceHarness } from './harness.js';

/**
 * The store conformance suite's part for issue 38 (run by `describeStoreConformance`): the door a
 * request files, approvals with edits (M-of-N approve the same arguments), responses, racing
 * resumes of an edited approval, and approval grants (put, list by principal, action and time,
 * revoke once, racing revocations). Every store of ours keeps grants; a store without them grants
 * nothing, and its grant tests check only that.
 */
export interface AnswersFixture {
  readonly store: Store;
  id(label: string): string;
  request(overrides?: Partial<NewApprovalRequest>): NewApprovalRequest;
}

/** A door where edits run: the refund's schema, as a function tool files it. */
export const EDITABLE_DOOR: PausedDoor = {
  kind: 'function',
  schema: { type: 'object', properties: { amount: { type: 'integer' } }, required: ['amount'], additionalProperties: false },
};

const EDIT = { args: '{"amount":4000}', argsHash: canonicalHash({ amount: 4000 }) };

export function describeAnswersAndGrants(t: ConformanceHarness, f: AnswersFixture): void {
  t.describe('edits and responses (issue 38)', () => {
    editTests(t, f);
    respondTests(t, f);
  });
  t.describe('approval grants (issue 38)', () => {
    grantTests(t, f);
  });
}

function editTests(t: ConformanceHarness, f: AnswersFixture): void {
  const { it, expect } = t;
  it('putRequest keeps the door it is given (kind and schema), and a request without one has none', async () => {
    const r = f.request({ door: EDITABLE_DOOR });
    expect((await f.store.putRequest(r)).door).toEqual(EDITABLE_DOOR);
    expect((await f.store.getRequest(r.callId))?.door).toEqual(EDITABLE_DOOR);
    const plain = f.request();
    await f.store.putRequest(plain);
    expect((await f.store.getRequest(plain.callId))?.door).toBeUndefined();
  });

  it('an approval with edits keeps its arguments and hash; M-of-N: another edit, or the proposal, is `edit_mismatch` and changes nothing; the same edit approves', async () => {
    const r = f.request({ approvalsRequired: 2, door: EDITABLE_DOOR });
    await f.store.putRequest(r);
    const one = await f.store.addAnswer(r.callId, { approver: 'bob', decision: 'approve', at: 2_000, ...EDIT });
    expect(one.outcome).toBe('recorded');
    expect(one.outcome === 'recorded' && one.request.answers[0]).toMatchObject({ approver: 'bob', argsHash: EDIT.argsHash, args: EDIT.args });
    const proposal = await f.store.addAnswer(r.callId, { approver: 'carol', decision: 'approve', at: 2_100 });
    expect(proposal.outcome).toBe('edit_mismatch');
    const other = await f.store.addAnswer(r.callId, {
      approver: 'carol',
      decision: 'approve',
      at: 2_200,
      args: '{"amount":3000}',
      argsHash: canonicalHash({ amount: 3000 }),
    });
    expect(other.outcome).toBe('edit_mismatch');
    expect((await f.store.getRequest(r.callId))?.answers.map((a) => a.approver)).toEqual(['bob']);
    const same = await f.store.addAnswer(r.callId, { approver: 'carol', decision: 'approve', at: 3_000, ...EDIT });
    expect(same.outcome).toBe('recorded');
    expect(same.outcome === 'recorded' && same.request.state).toBe('approved');
    // a reject is not an approval of other arguments: it is `not_pending` once approved, as ever
    expect((await f.store.addAnswer(r.callId, { approver: 'dave', decision: 'reject', reason: 'no', at: 3_100 })).outcome).toBe('not_pending');
  });

  it('concurrent resumes of an edited approval: exactly one claim (or claiming reservation) uses it, and it carries the edit', async () => {
    const r = f.request({ door: EDITABLE_DOOR });
    await f.store.putRequest(r);
    await f.store.addAnswer(r.callId, { approver: 'bob', decision: 'approve', at: 2_000, ...EDIT });
    const binding = { action: r.action, argsHash: r.argsHash, policyHash: r.policyHash, principal: r.principal };
    const claims = await Promise.all(Array.from({ length: 4 }, (_, i) => f.store.claimApproval(r.callId, 5_000 + i, binding)));
    const reserves = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        f.store.reserveEffect({
          key: f.id('refund'),
          action: r.action,
          attemptId: `a${i}`,
          maxAttempts: 3,
          now: 5_000 + i,
          leaseMs: 1_000,
          claim: { callId: r.callId, binding },
        }),
      ),
    );
    const won = claims.find((c) => c.outcome === 'claimed');
    const reserved = reserves.find((x) => x.outcome === 'reserved');
    expect(claims.filter((c) => c.outcome === 'claimed').length + reserves.filter((x) => x.outcome === 'reserved').length).toBe(1);
    const used = won?.outcome === 'claimed' ? won.request : reserved?.outcome === 'reserved' ? reserved.claimed : undefined;
    expect(used?.answers[0]).toMatchObject(EDIT);
  });
}

function respondTests(t: ConformanceHarness, f: AnswersFixture): void {
  const { it, expect } = t;
  it('a respond answer keeps its result and rejects the request: later answers are not_pending, a claim is not_approved', async () => {
    const r = f.request();
    await f.store.putRequest(r);
    const res = await f.store.addAnswer(r.callId, { approver: 'bob', decision: 'respond', result: 'Refund re_1 already issued.', at: 2_000 });
    expect(res.outcome).toBe('recorded');
    if (res.outcome === 'recorded') {
      expect(res.request.state).toBe('rejected');
      expect(res.request.decidedAt).toBe(2_000);
      expect(res.request.answers).toEqual([{ approver: 'bob', decision: 'respond', result: 'Refund re_1 already issued.', at: 2_000 }]);
    }
    expect((await f.store.addAnswer(r.callId, { approver: 'carol', decision: 'approve', at: 3_000 })).outcome).toBe('not_pending');
    expect((await f.store.claimApproval(r.callId, 4_000)).outcome).toBe('not_approved');
  });
}

function grantTests(t: ConformanceHarness, f: AnswersFixture): void {
  const { it, expect } = t;
  const grant = (overrides: Partial<ApprovalGrant> = {}): ApprovalGrant => ({
    id: f.id('grant'),
    principal: 'alice',
    action: 'stripe.refund',
    policyHash: 'p'.repeat(64),
    rule: 'rule[1]',
    bounds: '{"amount_lte":300000}',
    grantedBy: 'bob',
    grantedAt: 10_000,
    expiresAt: 10_000 + 3_600_000,
    callId: f.id('call'),
    ...overrides,
  });
  const keeps = () => typeof f.store.putGrant === 'function';

  it('putGrant stores a grant and is idempotent by id; getGrant finds it, or null', async () => {
    if (!keeps()) return expect(f.store.listGrants).toBeUndefined();
    const g = grant();
    expect(await f.store.putGrant!(g)).toEqual(g);
    expect(await f.store.putGrant!({ ...g, expiresAt: g.expiresAt + 1, grantedBy: 'bob' })).toEqual(g);
    expect(await f.store.getGrant!(g.id)).toEqual(g);
    expect(await f.store.getGrant!(f.id('nope'))).toBe(null);
  });

  it('listGrants filters by principal and action; activeAt keeps the unrevoked ones not expired then (the end included), oldest first', async () => {
    if (!keeps()) return;
    const principal = f.id('user');
    const a = await f.store.putGrant!(grant({ principal, grantedAt: 10_000, expiresAt: 20_000 }));
    const b = await f.store.putGrant!(grant({ principal, grantedAt: 11_000, expiresAt: 30_000 }));
    const other = await f.store.putGrant!(grant({ principal, action: 'stripe.charge', grantedAt: 12_000 }));
    await f.store.putGrant!(grant({ principal: f.id('user') }));
    const ids = (gs: ApprovalGrant[]) => gs.map((g) => g.id);
    expect(ids(await f.store.listGrants!({ principal }))).toEqual([a.id, b.id, other.id]);
    expect(ids(await f.store.listGrants!({ principal, action: 'stripe.refund' }))).toEqual([a.id, b.id]);
    expect(ids(await f.store.listGrants!({ principal, action: 'stripe.refund', activeAt: 20_000 }))).toEqual([a.id, b.id]);
    expect(ids(await f.store.listGrants!({ principal, action: 'stripe.refund', activeAt: 20_001 }))).toEqual([b.id]);
    await f.store.revokeGrant!(b.id, 'carol', 15_000);
    expect(ids(await f.store.listGrants!({ principal, action: 'stripe.refund', activeAt: 15_001 }))).toEqual([a.id]);
    expect(ids(await f.store.listGrants!({ principal, action: 'stripe.refund' }))).toEqual([a.id, b.id]);
  });

  it('revokeGrant revokes once: a second revocation returns it unchanged; an unknown grant is null', async () => {
    if (!keeps()) return;
    const g = await f.store.putGrant!(grant());
    const revoked = await f.store.revokeGrant!(g.id, 'carol', 15_000);
    expect(revoked).toEqual({ ...g, revokedAt: 15_000, revokedBy: 'carol' });
    expect(await f.store.revokeGrant!(g.id, 'dave', 16_000)).toEqual({ ...g, revokedAt: 15_000, revokedBy: 'carol' });
    expect(await f.store.getGrant!(g.id)).toEqual({ ...g, revokedAt: 15_000, revokedBy: 'carol' });
    expect(await f.store.revokeGrant!(f.id('nope'), 'carol', 15_000)).toBe(null);
  });

  it('concurrent revocations of one grant: exactly one revokes it, and every answer names that one', async () => {
    if (!keeps()) return;
    const g = await f.store.putGrant!(grant());
    const who = ['carol', 'dave', 'x', 'ops'];
    const results = await Promise.all(who.map((by, i) => f.store.revokeGrant!(g.id, by, 15_000 + i)));
    const winners = new Set(results.map((r) => `${r?.revokedBy}@${r?.revokedAt}`));
    expect(winners.size).toBe(1);
    const [winner] = results;
    expect(who).toContain(winner?.revokedBy);
    expect(await f.store.getGrant!(g.id)).toEqual(winner);
  });

  it('returned grants are copies: mutating one does not change the store', async () => {
    if (!keeps()) return;
    const g = await f.store.putGrant!(grant());
    g.expiresAt = 99;
    const listed = await f.store.listGrants!({ principal: 'alice' });
    listed.forEach((x) => {
      x.revokedAt = 1;
    });
    expect(await f.store.getGrant!(g.id)).toMatchObject({ expiresAt: 10_000 + 3_600_000 });
    expect((await f.store.getGrant!(g.id))?.revokedAt).toBeUndefined();
  });
}
