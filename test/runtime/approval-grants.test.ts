import { describe, expect, it } from 'vitest';
import { ActionDenied, ApprovalMismatch, memoryStore, run } from '../../src/runtime/index.js';
import { agentWith, assistantMessage, refundCall, refundTool, scripted, setup, type Setup } from './helpers.js';

// Issue 38 item 3, through the SDK's real Runner: "the same for this principal for the next N
// hours", bounded by the policy's approve rule and the grant's bounds, revocable, expiring.

const HOUR = 3_600_000;
const refund = (amount: number, id = 'pay_1') => ({ payment_id: id, amount });

/** alice's first refund pauses; bob approves it and grants the same (4 h, amount ≤ 300000 unless said). */
async function granted(s: Setup, grant: { hours: number; bounds?: unknown } = { hours: 4, bounds: { amount_lte: 300_000 } }) {
  const { tool, calls } = refundTool(s);
  const first = await run(agentWith(scripted([refundCall(refund(250_000), 'c0')], [assistantMessage('done')]), [tool]), 'refund', {
    context: { user: 'alice' },
  });
  expect(first.interruptions).toHaveLength(1);
  await s.control.approve(first.state, first.interruptions[0]!, { approver: 'bob', grant });
  await run(agentWith(scripted([refundCall(refund(250_000), 'c0')], [assistantMessage('done')]), [tool]), first.state);
  const [g] = await s.control.grants();
  return { tool, calls, grant: g! };
}

/** A run of `user` whose model calls the refunds in turn (each its own step); stops at the first pause. */
async function calling(tool: unknown, user: string, amounts: number[]) {
  const steps = amounts.map((amount, i) => [refundCall(refund(amount, `pay_${i + 2}`), `k${i}`)]);
  return run(agentWith(scripted(...steps, [assistantMessage('done')]), [tool]), 'refunds', { context: { user } });
}

describe('approval grants', () => {
  it('a grant lets the next three calls in bounds run without a pause, each with a receipt naming it; the one out of bounds pauses', async () => {
    const s = setup();
    const { tool, calls, grant } = await granted(s);
    expect(grant).toMatchObject({
      principal: 'alice',
      action: 'stripe.refund',
      rule: 'rule[1]',
      bounds: '{"amount_lte":300000}',
      grantedBy: 'bob',
      callId: 'c0',
    });
    expect(grant.expiresAt - grant.grantedAt).toBe(4 * HOUR);
    const result = await calling(tool, 'alice', [150_000, 200_000, 300_000, 400_000]);
    expect(calls.map((c) => c.amount)).toEqual([250_000, 150_000, 200_000, 300_000]);
    expect(result.interruptions.map((i) => (i.rawItem as { callId: string }).callId)).toEqual(['k3']);
    expect((await s.store.getRequest('k3'))?.state).toBe('pending');
    const receipts = await s.store.listReceipts();
    const underGrant = receipts.filter((r) => r.approval_grant === grant.id);
    expect(underGrant.map((r) => [r.call_id, r.result])).toEqual([
      ['c0', 'granted'],
      ['k0', 'claimed'],
      ['k0', 'executed'],
      ['k1', 'claimed'],
      ['k1', 'executed'],
      ['k2', 'claimed'],
      ['k2', 'executed'],
    ]);
    expect(underGrant.filter((r) => r.result === 'claimed').every((r) => r.approvers.join() === 'bob' && r.principal === 'alice')).toBe(true);
    // each call under the grant was decided (no pause filed it): its decision log entry names the grant
    const log = await s.store.listDecisions!();
    expect(log.filter((e) => e.approval_grant === grant.id).map((e) => e.call_id)).toEqual(['k0', 'k1', 'k2']);
  });

  it('a revoked grant pauses the next call; revocation is recorded once', async () => {
    const s = setup();
    const { tool, calls, grant } = await granted(s);
    await calling(tool, 'alice', [150_000]);
    const revoked = await s.control.revokeGrant(grant.id, { by: 'carol' });
    expect(revoked).toMatchObject({ revokedBy: 'carol', revokedAt: s.clock.now() });
    const after = await calling(tool, 'alice', [150_000]);
    expect(after.interruptions).toHaveLength(1);
    expect(calls.map((c) => c.amount)).toEqual([250_000, 150_000]);
    expect((await s.store.listReceipts()).filter((r) => r.result === 'revoked').map((r) => [r.approval_grant, r.approvers])).toEqual([[grant.id, ['carol']]]);
  });

  it('an expired grant pauses the next call (the grant is valid up to and including its end)', async () => {
    const s = setup();
    const { tool, calls } = await granted(s);
    s.clock.advance(4 * HOUR);
    expect((await calling(tool, 'alice', [150_000])).interruptions).toHaveLength(0);
    s.clock.advance(1);
    expect((await calling(tool, 'alice', [150_000])).interruptions).toHaveLength(1);
    expect(calls).toHaveLength(2);
  });

  it('never to another principal, never past the approve rule: a call the policy allows or denies is decided as ever', async () => {
    const s = setup();
    const { tool, calls } = await granted(s, { hours: 4 });
    // carol is not alice: pauses
    expect((await calling(tool, 'carol', [150_000])).interruptions).toHaveLength(1);
    // alice above the approve band: denied, as without a grant
    const denied = await calling(tool, 'alice', [2_000_000]);
    expect(denied.interruptions).toHaveLength(0);
    expect(calls.map((c) => c.amount)).toEqual([250_000]);
    expect((await s.store.listReceipts()).at(-1)).toMatchObject({ result: 'denied', reason: 'rule[2]' });
  });

  it('a grant longer than the configured limit is refused; so is one with malformed bounds, and grants turned off', async () => {
    const s = setup();
    const { tool } = refundTool(s);
    const first = await run(agentWith(scripted([refundCall(refund(250_000), 'c0')], [assistantMessage('done')]), [tool]), 'refund', {
      context: { user: 'alice' },
    });
    const item = first.interruptions[0]!;
    for (const [grant, code] of [
      [{ hours: 9 }, 'grant_too_long'],
      [{ hours: 0 }, 'grant_invalid'],
      [{ hours: 2, bounds: { amount_lte: 'lots' } }, 'grant_bounds'],
      [{ hours: 2, bounds: { amount_almost: 3 } }, 'grant_bounds'],
      [{ hours: 2, bounds: { data_scope_eq: 'eu' } }, 'grant_bounds'],
      [{ hours: 2, bounds: { payment_id_in: 'pay_1' } }, 'grant_bounds'],
    ] as const) {
      const error = await s.control.approve(first.state, item, { approver: 'bob', grant }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ActionDenied);
      expect((error as ActionDenied).reason).toBe(code);
    }
    // nothing recorded: not the answer, not a grant
    expect((await s.store.getRequest('c0'))?.answers).toEqual([]);
    expect(await s.control.grants()).toEqual([]);
  });

  it('never to the approver themself, and never for an edit the policy allows: grant_to_self, grant_not_approve, nothing granted', async () => {
    const s = setup();
    const { tool, calls } = refundTool(s);
    const first = await run(agentWith(scripted([refundCall(refund(250_000), 'c0')], [assistantMessage('done')]), [tool]), 'refund', {
      context: { user: 'alice' },
    });
    const item = first.interruptions[0]!;
    const refused = (answer: Parameters<Setup['control']['approve']>[2]) =>
      s.control.approve(first.state, item, answer).then(
        () => null,
        (e: unknown) => e,
      );
    // alice grants herself: refused as a grant, before the store's approver ≠ requester is asked
    expect(((await refused({ approver: 'alice', grant: { hours: 1 } })) as ActionDenied).reason).toBe('grant_to_self');
    // an edit into the allow band is approved by no rule that asks a person: a grant would stand for none
    expect(((await refused({ approver: 'bob', arguments: refund(50_000), grant: { hours: 1 } })) as ActionDenied).reason).toBe('grant_not_approve');
    expect((await s.store.getRequest('c0'))?.answers).toEqual([]);
    expect(await s.control.grants()).toEqual([]);
    expect((await s.store.listReceipts()).filter((r) => r.result === 'refused').map((r) => r.reason)).toEqual(['grant_to_self', 'grant_not_approve']);
    expect(calls).toEqual([]);
  });

  it('grants turned off by the control (maxGrantHours 0), and an M-of-N action, refuse a grant', async () => {
    const off = setup();
    const { createControl, bindProtectedTool } = await import('../../src/runtime/index.js');
    const control = createControl({ store: memoryStore(), identity: (rc) => (rc.context as { user?: string }).user ?? null, maxGrantHours: 0 });
    const protectedTool = bindProtectedTool(control, off.policy);
    const { tool } = refundTool({ ...off, control, protectedTool, store: control.store });
    const first = await run(agentWith(scripted([refundCall(refund(250_000), 'c0')], [assistantMessage('done')]), [tool]), 'refund', {
      context: { user: 'alice' },
    });
    const error = await control.approve(first.state, first.interruptions[0]!, { approver: 'bob', grant: { hours: 1 } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as ActionDenied).reason).toBe('grant_disabled');

    const two = setup({ approvalsRequired: 2 });
    const r2 = refundTool(two);
    const paused = await run(agentWith(scripted([refundCall(refund(250_000), 'c0')], [assistantMessage('done')]), [r2.tool]), 'refund', {
      context: { user: 'alice' },
    });
    const e2 = await two.control.approve(paused.state, paused.interruptions[0]!, { approver: 'bob', grant: { hours: 1 } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((e2 as ActionDenied).reason).toBe('grant_needs_more_approvers');
  });

  it('a grant under another policy (another hash) or for another rule covers nothing', async () => {
    const s = setup();
    const { tool, calls, grant } = await granted(s, { hours: 4 });
    await s.store.revokeGrant!(grant.id, 'ops', s.clock.now());
    for (const [i, other] of [{ policyHash: 'e'.repeat(64) }, { rule: 'rule[0]' }].entries())
      await s.store.putGrant!({ ...grant, id: `${grant.id}-${i}`, ...other });
    expect((await calling(tool, 'alice', [150_000])).interruptions).toHaveLength(1);
    expect(calls).toHaveLength(1);
  });

  it('a paused call waits for its own answer even when a grant now covers it', async () => {
    const s = setup();
    const { tool } = refundTool(s);
    const paused = await calling(tool, 'alice', [150_000]);
    expect(paused.interruptions).toHaveLength(1);
    await granted(s);
    // resumed unanswered, with a grant covering it: the request filed for it decides (pending: it pauses again)
    const again = await run(agentWith(scripted([assistantMessage('done')]), [tool]), paused.state);
    expect(again.interruptions).toHaveLength(1);
    // and a bare SDK yes still authorizes nothing
    again.state.approve(again.interruptions[0]!);
    const error = await run(agentWith(scripted([assistantMessage('done')]), [tool]), again.state).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApprovalMismatch);
  });
});
