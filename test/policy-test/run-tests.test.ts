import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPolicyOrThrow } from '../../src/policy/load.js';
import { parseTestFile } from '../../src/policy-test/cases.js';
import { createDecider } from '../../src/policy-test/decider.js';
import { runTests } from '../../src/policy-test/run-tests.js';
import { FIXTURES } from '../helpers/paths.js';

describe('runTests, field by field', () => {
  it('a case whose decision is right fails on each other expected field that is wrong, in the fields order', () => {
    const decider = createDecider(loadPolicyOrThrow(path.join(FIXTURES, 'policy-test/replay-store/ctrlrun.yaml')).policy);
    const call = 'action: stripe.refund, args: { payment_id: ch_1, amount: 500 }';
    const text = [
      'schema: ctrlrun.policy-test/v1',
      'cases:',
      `  - { ${call}, expect: { decision: allow, rule: 0, reason: "rule[0]", effect_key: "refund:ch_1:500", resource: "payment:ch_1" } }`,
      `  - { ${call}, expect: { decision: allow, rule: 1 } }`,
      `  - { ${call}, expect: { decision: allow, reason: no_matching_rule } }`,
      `  - { ${call}, expect: { decision: allow, effect_key: "refund:ch_2:500" } }`,
      `  - { ${call}, expect: { decision: allow, resource: null } }`,
      `  - { ${call}, expect: { decision: deny } }`,
      `  - { ${call}, expect: { decision: deny, rule: 2, resource: "payment:ch_1" } }`,
    ].join('\n');
    const run = runTests(parseTestFile(text, '/p/ctrlrun.test.yaml').value!, decider);
    expect(run.results.map((r) => r.mismatches.map((m) => [m.field, m.expected, m.actual]))).toEqual([
      [],
      [['rule', 1, 0]],
      [['reason', 'no_matching_rule', 'rule[0]']],
      [['effect_key', 'refund:ch_2:500', 'refund:ch_1:500']],
      [['resource', null, 'payment:ch_1']],
      [['decision', 'deny', 'allow']],
      [
        ['decision', 'deny', 'allow'],
        ['rule', 2, 0],
      ],
    ]);
    expect([run.passed, run.failed]).toEqual([1, 6]);
    expect(run.coverage.rulesReached).toBe(1);
  });
});
