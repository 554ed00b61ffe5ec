import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPolicyOrThrow } from '../../src/policy/load.js';
import { createDecider } from '../../src/policy-test/decider.js';
import { replayCalls } from '../../src/policy-test/replay.js';
import { readStoreCalls, replayStoreCalls } from '../../src/policy-test/store-calls.js';
import { memoryStore } from '../../src/runtime/index.js';
import type { DecisionBody, Store } from '../../src/runtime/types.js';
import { FIXTURES } from '../helpers/paths.js';

const policy = (file: string) => createDecider(loadPolicyOrThrow(path.join(FIXTURES, 'policy-test', file)).policy);

const body = (i: number, callId: string, amount: number, decision: DecisionBody['decision']): DecisionBody => ({
  at: 1_700_000_000_000 + i,
  action: 'stripe.refund',
  tool: 'refund',
  call_id: callId,
  args: `{"amount":${amount},"payment_id":"ch_${i}"}`,
  hashed: [],
  args_hash: '0'.repeat(64),
  principal: { agent: 'desk', user: null },
  environment: 'production',
  task: null,
  decision,
  rule: 0,
  reason: 'rule[0]',
  effect_key: `refund:ch_${i}`,
  resource: `payment:ch_${i}`,
  policy_hash: 'sha256:x',
  mode: 'enforce',
  result: 'allowed',
  receipt_seq: i + 1,
  receipt_hash: '0'.repeat(64),
});

describe('replay --store, page by page', () => {
  it('gives the result of replaying every call read at once, a call id seen on an earlier page replayed once', async () => {
    const store: Store = memoryStore();
    // c1 comes back on a later page (pages of 2) with a decision that would change under the candidate
    const entries: Array<[string, number, DecisionBody['decision']]> = [
      ['c1', 5_000, 'allow'],
      ['c2', 50_000, 'allow'],
      ['c3', 500_000, 'approve'],
      ['c4', 20_000, 'approve'],
      ['c1', 5_000_000, 'allow'],
      ['c5', 30_000, 'approve'],
      ['c6', 9_000_000, 'allow'],
    ];
    for (const [i, [id, amount, decision]] of entries.entries()) await store.appendDecision!(body(i, id, amount, decision));
    const candidate = policy('replay-store/loosened.yaml');
    const streamed = await replayStoreCalls(store, candidate, {}, 2);
    const all = (await readStoreCalls(store, {}, 2))!;
    expect(all.map((c) => c.callId)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6']);
    expect(streamed).toEqual(replayCalls(all, candidate, null));
    expect(streamed!.replayed).toBe(6);
    expect(streamed!.summary.changed).toBeGreaterThan(0);
  });

  it('is null for a store that keeps no log', async () => {
    const { listDecisions: _, ...store } = memoryStore();
    expect(await replayStoreCalls(store as Store, policy('replay-store/loosened.yaml'))).toBeNull();
  });
});
