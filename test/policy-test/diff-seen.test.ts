import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { removeDir } from '../helpers/temp-repo.js';
import { LOOSENINGS, pullRequest as makePullRequest } from './loosenings.js';

// Issue 36's "what was seen": each change loosens who may do what, and the diff before this one
// said "no change" or "tighter" and exited 0. Each case here is a pull request's change against
// main, diffed as the workflow template diffs it (`diff <base branch>`, --fail-on looser).

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));
const pullRequest = (change: (dir: string) => void) => makePullRequest(change, dirs);

async function diffJson(dir: string) {
  const r = await cli(['diff', 'main', '--format', 'json'], { cwd: dir });
  return { code: r.code, stderr: r.stderr, report: r.stdout ? JSON.parse(r.stdout) : undefined };
}

type Region = {
  class: string;
  what: string[];
  witness: { args: Record<string, unknown>; principal?: { agent: string } };
  before: { decision: string };
  after: { decision: string };
};
const regionsOf = (report: { actions: Array<{ action: string; regions: Region[] }> }, action: string) =>
  report.actions.find((a) => a.action === action)?.regions ?? [];

describe('each loosening a reviewer tried is found, classified looser, and fails the gate', () => {
  it('a moved policy is compared with its old self through the manifest, not reported as new', async () => {
    const dir = pullRequest(LOOSENINGS['the policy moved (manifest updated), every deny and approve now allow']!);
    const { code, report } = await diffJson(dir);
    expect(code).toBe(1);
    expect(report.base.label).toBe('main:ctrlrun.yaml');
    expect(report.head.label).toBe('policy/ctrlrun.yaml');
    expect(report.actions.map((a: { kind: string }) => a.kind)).toEqual(['changed', 'changed', 'changed']);
    expect(regionsOf(report, 'accounts.close').map((r) => [r.class, r.what])).toEqual([['looser', ['deny → allow']]]);
  });

  it('a widened grant is found with witness principals: another agent, another action, a larger amount, the budget gone', async () => {
    const { code, report } = await diffJson(pullRequest(LOOSENINGS['a grant widened to any agent, any action, a larger amount and no budget']!));
    expect(code).toBe(1);
    const refunds = regionsOf(report, 'stripe.refund');
    expect(refunds.every((r) => r.class === 'looser')).toBe(true);
    // an agent other than support may now refund, where no grant covered it
    expect(refunds.some((r) => r.witness.principal!.agent !== 'support' && r.before.decision === 'deny' && r.after.decision !== 'deny')).toBe(true);
    // support itself loses its budget
    expect(refunds.some((r) => r.witness.principal!.agent === 'support' && r.what.some((w) => w.startsWith('budgets amount/50000/86400 → none')))).toBe(true);
    // above the old constraint
    expect(refunds.some((r) => (r.witness.args['amount'] as number) > 10000 && r.after.decision !== 'deny')).toBe(true);
    // the same grant now covers payments.pay for any agent: ops alone had it
    expect(regionsOf(report, 'payments.pay').some((r) => r.witness.principal!.agent !== 'ops' && r.class === 'looser')).toBe(true);
  });

  it("a control's approver role handed to another role is looser on every call that waits for approval", async () => {
    const { code, report } = await diffJson(pullRequest(LOOSENINGS["a control's approver_role handed to an intern"]!));
    expect(code).toBe(1);
    const refunds = regionsOf(report, 'stripe.refund');
    expect(refunds.length).toBeGreaterThan(0);
    expect(refunds.every((r) => r.class === 'looser' && r.what.includes('approver roles payments-approver → intern'))).toBe(true);
    expect(refunds.every((r) => r.before.decision === 'approve' && r.after.decision === 'approve')).toBe(true);
    expect(report.settings).toContainEqual(expect.objectContaining({ field: 'control payments-approval' }));
  });

  it('a change that needs two arguments together (amount and fee both at 600 or more) is found', async () => {
    const { code, report } = await diffJson(pullRequest(LOOSENINGS['a deny lifted only where amount and fee both reach 600']!));
    expect(code).toBe(1);
    const pays = regionsOf(report, 'payments.pay').filter((r) => r.what.includes('deny → allow'));
    expect(pays).toHaveLength(1);
    expect(pays[0]!.witness.args).toEqual({ amount: 600, fee: 600 });
    expect(report.actions.find((a: { action: string }) => a.action === 'payments.pay').regions[0].where).toEqual([
      { name: 'amount', text: '600..' },
      { name: 'fee', text: '600..' },
      { name: 'agent', text: 'matching ops (e.g. "ops")' },
    ]);
  });

  it('an effect key that now depends on a model-chosen argument is looser, not tighter', async () => {
    const { code, report } = await diffJson(pullRequest(LOOSENINGS['the effect key now depends on a nonce the model chooses']!));
    expect(code).toBe(1);
    const refund = report.actions.find((a: { action: string }) => a.action === 'stripe.refund');
    expect(refund.settings).toEqual([
      {
        field: 'effect',
        before: 'refund:{payment_id}',
        after: 'refund:{payment_id}:{nonce}',
        class: 'looser',
        why: 'the key now depends on `nonce`, which the model chooses: the same effect can run again under a new key',
      },
    ]);
    expect(report.summary.looserSettings).toBe(1);
  });
});

describe("the red team's loosenings that left the policy's rules alone", () => {
  it('a tool mapped to another action in the manifest is compared through its mapping: looser where the new action lets more through', async () => {
    const { code, report } = await diffJson(pullRequest(LOOSENINGS['the refund tool mapped to another action in the manifest, the policy untouched']!));
    expect(code).toBe(1);
    const refund = report.actions.find((a: { action: string }) => a.action === 'tool refund');
    expect(refund.kind).toBe('remapped');
    expect(refund.settings).toEqual([{ field: 'action', before: 'stripe.refund', after: 'payments.pay', class: 'other' }]);
    // ops had no grant on stripe.refund: its refunds were denied, and now run unasked
    expect(
      refund.regions.some(
        (r: Region) => r.class === 'looser' && r.witness.principal!.agent === 'ops' && r.before.decision === 'deny' && r.after.decision === 'allow',
      ),
    ).toBe(true);
    expect(report.summary.remapped).toBe(1);
  });

  it('an effect key whose literal is renamed is looser: the keys already recorded no longer match', async () => {
    const { code, report } = await diffJson(pullRequest(LOOSENINGS['the effect key literal renamed (every recorded refund can run once more)']!));
    expect(code).toBe(1);
    const refund = report.actions.find((a: { action: string }) => a.action === 'stripe.refund');
    expect(refund.settings).toEqual([
      {
        field: 'effect',
        before: 'refund:{payment_id}',
        after: 'refund-v2:{payment_id}',
        class: 'looser',
        why: 'the keys it renders are not the ones recorded: every effect that already ran can run once more',
      },
    ]);
  });

  it('a grant with a budget renamed is looser on every call it authorizes: the ledger is kept per grant id', async () => {
    const { code, report } = await diffJson(pullRequest(LOOSENINGS['the grant with a budget renamed (its spend so far forgotten)']!));
    expect(code).toBe(1);
    const refunds = regionsOf(report, 'stripe.refund');
    expect(refunds.length).toBeGreaterThan(0);
    expect(refunds.every((r) => r.class === 'looser' && r.witness.principal!.agent === 'support')).toBe(true);
    expect(refunds[0]!.what).toContain(
      'budgets kept under grant support-refunds → under grant support-refunds-2026: the spend so far is not counted (budgets amount/50000/86400 → amount/50000/86400)',
    );
  });
});

describe('what the diff refuses rather than guess', () => {
  it('a witness the generated modules decide otherwise than the procedure is an internal error, never a report', async () => {
    const { parsePolicy } = await import('../../src/policy/load.js');
    const { createDecider } = await import('../../src/policy-test/decider.js');
    const { diffPolicies } = await import('../../src/policy-test/diff.js');
    const a = parsePolicy('schema: ctrlrun.policy/v6\nactions:\n  pay:\n    decision: deny\n', '/p/a.yaml').value!;
    const b = parsePolicy('schema: ctrlrun.policy/v6\nactions:\n  pay:\n    decision: allow\n', '/p/b.yaml').value!;
    const honest = [createDecider(a), createDecider(b)] as [ReturnType<typeof createDecider>, ReturnType<typeof createDecider>];
    expect(diffPolicies(a, b, { deciders: honest }).summary.looser).toBe(1);
    // a module that says the new version still denies: the procedure's region is not confirmed
    const lying = [honest[0], { ...honest[1], decide: honest[0].decide }] as typeof honest;
    expect(() => diffPolicies(a, b, { deciders: lying })).toThrow("diff's decision procedure and the generated module disagree on pay {}");
  });

  it('a base revision whose manifest does not load is an error (exit 2), not a policy compared with nothing', async () => {
    const { spawnSync } = await import('node:child_process');
    const { appendFileSync, writeFileSync } = await import('node:fs');
    const path = await import('node:path');
    const dir = pullRequest((d) => appendFileSync(path.join(d, 'ctrlrun.yaml'), '# reviewed\n'));
    const git = (...args: string[]) => spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, encoding: 'utf8' });
    git('checkout', '-q', 'main');
    writeFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'schema: ctrlrun.tools/v1\npolicy: [not, a, path]\n');
    git('commit', '-qam', 'a broken manifest');
    git('checkout', '-q', 'change');
    const r = await cli(['diff', 'main'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the manifest at main:ctrlrun.tools.yaml does not load, so its policy cannot be found');
  });
});
