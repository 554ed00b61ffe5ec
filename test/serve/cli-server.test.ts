import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { pendingRequest, type ServeFixture, startFixture } from './helpers.js';

let fx: ServeFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

describe('approvals and effects --server URL --token: answers through serve are authenticated', () => {
  const run = (args: string[], env: Record<string, string> = {}) => cli(args, { cwd: fx!.dir, env: { NO_COLOR: '1', ...env } });

  it("list and show read through serve; approve records the token's operator (the requester refused, exit 2); --as is refused with --server", async () => {
    fx = await startFixture({ alice: ['payments-approver'], bob: ['payments-approver'] });
    await fx.store.putRequest(pendingRequest('call_cli'));
    const server = ['--server', fx.serve.url];
    const list = await run(['approvals', 'list', '--pending', ...server, '--token', fx.tokens.bob!]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/call_cli\s+pending\s+stripe\.refund\s+alice\s+0\/1/);
    expect((await run(['approvals', 'show', 'call_cli', ...server], { CTRLRUN_TOKEN: fx.tokens.bob! })).stdout).toContain('Requested by alice');

    const own = await run(['approvals', 'approve', 'call_cli', ...server, '--token', fx.tokens.alice!]);
    expect(own.code).toBe(2);
    expect(own.stderr).toContain('alice is who the run acts for');
    const typed = await run(['approvals', 'approve', 'call_cli', ...server, '--token', fx.tokens.bob!, '--as', 'cfo']);
    expect(typed.code).toBe(2);
    expect(typed.stderr).toContain('drop --as');
    const ok = await run(['approvals', 'approve', 'call_cli', ...server, '--reason', 'verified'], { CTRLRUN_TOKEN: fx.tokens.bob! });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('Approved as bob');
    expect((await fx.store.getRequest('call_cli'))!.answers.map((a) => a.approver)).toEqual(['bob']);
    expect((await fx.store.listReceipts()).at(-1)).toMatchObject({ result: 'approved', approvers: ['bob'] });
  });

  it('a wrong token, a missing token, and --store with --server are usage errors (exit 2)', async () => {
    fx = await startFixture({ bob: [] });
    const wrong = await run(['approvals', 'list', '--server', fx.serve.url, '--token', 'crg_op_nope']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('token was refused');
    expect((await run(['approvals', 'list', '--server', fx.serve.url])).stderr).toContain('needs an operator token');
    expect((await run(['approvals', 'list', '--server', fx.serve.url, '--token', 't', '--store', 'sqlite:x.db'])).code).toBe(2);
    expect((await run(['approvals', 'approve', 'x'])).stderr).toContain('--as');
  });

  it('effects resolve --server records the operator who resolved', async () => {
    fx = await startFixture({ bob: ['payments-approver'] });
    await fx.store.reserveEffect({ key: 'refund:pay_1', action: 'stripe.refund', attemptId: 'a1', maxAttempts: 3, now: 1000, leaseMs: 1000 });
    await fx.store.settleEffect('refund:pay_1', 'a1', 'ambiguous', 1500);
    const r = await run(['effects', 'resolve', 'refund:pay_1', '--committed', '--server', fx.serve.url, '--token', fx.tokens.bob!]);
    expect(r.code, r.stderr).toBe(0);
    expect(await fx.store.getEffect('refund:pay_1')).toMatchObject({ state: 'committed', resolvedBy: 'bob' });
    const again = await run(['effects', 'resolve', 'refund:pay_1', '--failed', '--server', fx.serve.url, '--token', fx.tokens.bob!]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('only an ambiguous key can be resolved');
  });

  it("approve --args --grant-hours and respond through serve: decided by serve's policy, bounded by its --max-grant-hours; grants list|revoke --server", async () => {
    fx = await startFixture({ bob: ['payments-approver'] }, { maxGrantHours: 2 });
    const door = {
      kind: 'function' as const,
      schema: { type: 'object', properties: { amount: { type: 'integer' }, payment_id: { type: 'string' } }, required: ['amount', 'payment_id'] },
    };
    await fx.store.putRequest(pendingRequest('call_e', { door }));
    await fx.store.putRequest(pendingRequest('call_r'));
    const as = ['--server', fx.serve.url, '--token', fx.tokens.bob!];
    const long = await run(['approvals', 'approve', 'call_e', ...as, '--grant-hours', '3']);
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('at most 2 hours');
    expect((await run(['approvals', 'approve', 'call_e', ...as, '--max-grant-hours', '9'])).stderr).toContain("serve's own limit");
    const denied = await run(['approvals', 'approve', 'call_e', ...as, '--args', '{"amount":9000000,"payment_id":"pay_42"}']);
    expect(denied.code).toBe(2);
    expect(denied.stderr).toContain('policy denies the edited call');
    const ok = await run(['approvals', 'approve', 'call_e', ...as, '--args', '{"amount":400000,"payment_id":"pay_42"}', '--grant-hours', '1']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/Approved as bob with changes \(amount 512345 → 400000\).*Granted the same/);
    const responded = await run(['approvals', 'respond', 'call_r', ...as, '--result', 'Handled by phone.']);
    expect(responded.code, responded.stderr).toBe(0);
    expect((await fx.store.getRequest('call_r'))?.answers[0]).toMatchObject({ approver: 'bob', decision: 'respond', result: 'Handled by phone.' });
    const listed = await run(['grants', 'list', ...as]);
    const id = /(grant_[0-9a-f-]+)\s+active/.exec(listed.stdout)?.[1];
    expect(id, listed.stdout).toBeDefined();
    const revoked = await run(['grants', 'revoke', id!, ...as]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain('as bob');
    expect((await fx.store.getGrant!(id!))?.revokedBy).toBe('bob');
  });
});
