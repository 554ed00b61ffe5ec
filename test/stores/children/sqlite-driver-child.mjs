// One step on a SQLite file through one driver: `node sqlite-driver-child.mjs '{"file","driver","step"}'`.
// Steps: `probe` (can this Node load the driver?), `write` (a request approved, a charged effect,
// a receipt), `claim` (reads what write left, claims the approval, appends a receipt), `read`.
// Prints one JSON line.
import { sqliteStore } from '../../../dist/runtime/sqlite.js';

const { file, driver, step } = JSON.parse(process.argv[2]);
const say = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const store = sqliteStore({ path: file, driver });
const receipt = (n) => ({
  at: n,
  action: 'stripe.refund',
  call_id: 'c1',
  args_hash: null,
  principal: 'alice',
  decision: 'approve',
  reason: 'rule_matched',
  approvers: ['bob'],
  effect_key: 'refund:p1',
  result: 'executed',
  policy_hash: 'p',
  mode: 'enforce',
  environment: null,
});
try {
  if (step === 'write') {
    await store.putRequest({
      callId: 'c1',
      action: 'stripe.refund',
      toolName: 'refund',
      argsHash: 'a'.repeat(64),
      args: '{"amount":5}',
      policyHash: 'p'.repeat(64),
      principal: 'alice',
      approvalsRequired: 1,
      createdAt: 1_000,
    });
    await store.addAnswer('c1', { approver: 'bob', decision: 'approve', at: 2_000 });
    const charges = [{ grantId: 'g1', metric: 'amount', amount: '18446744073709551621', limit: '99999999999999999999', windowMs: 60_000 }];
    await store.reserveEffect({ key: 'refund:p1', action: 'stripe.refund', attemptId: 'a1', maxAttempts: 2, now: 3_000, leaseMs: 1_000, charges });
    await store.settleEffect('refund:p1', 'a1', 'committed', 3_100);
    await store.appendReceipt(receipt(1));
  }
  if (step === 'claim') {
    await store.claimApproval('c1', 4_000, { action: 'stripe.refund', argsHash: 'a'.repeat(64), policyHash: 'p'.repeat(64), principal: 'ALICE' });
    await store.appendReceipt(receipt(2));
  }
  say({
    driver,
    request: await store.getRequest('c1'),
    effect: await store.getEffect('refund:p1'),
    charges: await store.consumptions({ effectKey: 'refund:p1' }),
    receipts: await store.listReceipts(),
  });
} catch (error) {
  say({ error: error.message, code: error.code });
} finally {
  await store.close();
}
