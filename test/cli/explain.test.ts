import { writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { whyNot } from '../../src/policy-test/explain-report.js';
import { evaluate } from '../../src/policy/evaluate.js';
import { loadPolicyFile } from '../../src/policy/load.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));
const DESK = path.join(FIXTURES, 'refund-desk');

async function explainJson(args: string[], cwd = DESK) {
  const r = await cli(['explain', ...args, '--json'], { cwd });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('explain', () => {
  it('prints the decision, the matching rule with its source line, and every entry with its value', async () => {
    const r = await cli(['explain', 'stripe.refund', '--args', '{"amount": 50000, "payment_id": "ch_1"}'], { cwd: DESK });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('stripe.refund: approve (rule[1] matched)');
    expect(lines[1]).toBe('  ctrlrun.yaml:21:9  - when: { amount_gte: 1, amount_lte: 1000000 }');
    expect(r.stdout).toMatch(
      /rule 0 {2}ctrlrun\.yaml:18 {2}-> allow {2}did not match\n {2}✓ amount_gte: 1 +amount = 50000\n {2}✗ amount_lte: 10000 +amount = 50000\n/,
    );
    expect(r.stdout).toMatch(
      /rule 1 {2}ctrlrun\.yaml:21 {2}-> approve {2}matched\n {2}✓ amount_gte: 1 +amount = 50000\n {2}✓ amount_lte: 1000000 +amount = 50000\n/,
    );
    expect(r.stdout).not.toContain('rule 2');
    expect(r.stdout).toContain('needs 1 approver other than the requester; controls: payments-approval');
  });

  it('says why an entry failed when the argument is the reason', async () => {
    // the tool's schema refuses a textual amount before any rule: said first, then what the rules would do
    const r = await cli(['explain', 'stripe.refund', '--args', '{"amount": "5000", "payment_id": "ch_1"}'], { cwd: DESK });
    expect(r.stdout).toMatch(
      /^stripe\.refund: refused by the tool \(invalid_arguments\)\n {2}the parameter schema of tool `refund` refuses these arguments \(\/amount: must be integer, got string\), so at run time the call is refused before any rule\./,
    );
    expect(r.stdout).toMatch(/\nstripe\.refund: deny \(rule\[2\] matched\)/);
    const json = JSON.parse((await cli(['explain', 'stripe.refund', '--args', '{"amount": "5000", "payment_id": "ch_1"}', '--json'], { cwd: DESK })).stdout);
    expect(json.toolRefuses).toEqual({ reason: 'invalid_arguments', detail: expect.stringContaining('/amount: must be integer, got string') });
    // within the schema, nothing of the kind
    const fits = await cli(['explain', 'stripe.refund', '--args', '{"amount": 5000, "payment_id": "ch_1"}'], { cwd: DESK });
    expect(fits.stdout).not.toContain('refused by the tool');
    expect(r.stdout).toContain('✗ amount_gte: 1         amount = "5000" (a string, not an integer)');
    expect(r.stdout).toContain('(no conditions: always matches)');
    const missing = await cli(['explain', 'files.delete', '--policy', path.join(FIXTURES, 'policy/valid/v1-minimal.yaml'), '--args', '{"path": "/tmp"}'], {
      cwd: DESK,
    });
    expect(missing.stdout).toContain('recursive = (missing)');
    // CTRLRun refuses a float anywhere, and arguments that are not an object, before any rule.
    const float = await cli(['explain', 'stripe.refund', '--args', '{"amount": 5000.5, "payment_id": "ch_1"}'], { cwd: DESK });
    expect(float.stdout).toMatch(/^stripe\.refund: deny \(invalid_argument\)\n {2}refused before any rule: a float is not an allowed argument/);
    const notObject = await cli(['explain', 'stripe.refund', '--args', '[5000]'], { cwd: DESK });
    expect(notObject.stdout).toContain('the arguments must be a JSON object');
    // The effect template resolves before the rules: a missing payment_id is effect_key_error.
    const noKey = await cli(['explain', 'stripe.refund', '--args', '{"payment_id": "ch_1"}'], { cwd: DESK });
    expect(noKey.stdout).toMatch(/\nstripe\.refund: deny \(effect_key_error\)/);
    expect(whyNot({ op: 'lte', expected: 1, actual: '5' })).toBe('a string, not an integer');
    expect(whyNot({ op: 'eq', expected: true, actual: 1 })).toBe('an integer, the rule compares a boolean');
    expect(whyNot({ op: 'lte', expected: 1, actual: 5 })).toBeUndefined();
  });

  it('an unknown action explains unknown_action, with the nearest action', async () => {
    const r = await cli(['explain', 'stripe.refnd', '--args', '{"amount": 1}'], { cwd: DESK });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^stripe\.refnd: deny \(unknown_action\)\n/);
    expect(r.stdout).toContain('hint: did you mean `stripe.refund`?');
    expect(await explainJson(['nope'])).toMatchObject({ decision: 'deny', reason: 'unknown_action', rule: null, conditions: [], ruleLocation: null });
  });

  it('bad JSON in --args: exit 2, a clear message, no stack trace', async () => {
    for (const bad of ['{bad', '', "{'amount': 1}", '{"amount": 1,}']) {
      const r = await cli(['explain', 'stripe.refund', '--args', bad], { cwd: DESK });
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toMatch(/^ctrlrun-gen: --args is not valid JSON \(.+\); pass the call's arguments as a JSON object/);
      expect(r.stderr).not.toMatch(/^\s+at /m);
      expect(r.stdout).toBe('');
    }
  });

  it('--json gives the decision, the rule, its location and source, and each entry', async () => {
    const j = await explainJson(['stripe.refund', '--args', '{"amount": 5, "payment_id": "ch_1"}']);
    expect(j).toMatchObject({
      action: 'stripe.refund',
      decision: 'allow',
      reason: 'rule[0]',
      rule: 0,
      ruleLocation: { file: 'ctrlrun.yaml', line: 18, column: 9 },
      ruleSource: '- when: { amount_gte: 1, amount_lte: 10000 }',
      approvalsRequired: 1,
      mode: 'enforce',
      policy: { file: 'ctrlrun.yaml', hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) },
    });
    expect(j.conditions).toEqual([
      { rule: 0, key: 'amount_gte', arg: 'amount', op: 'gte', expected: 1, present: true, actual: 5, held: true },
      { rule: 0, key: 'amount_lte', arg: 'amount', op: 'lte', expected: 10000, present: true, actual: 5, held: true },
    ]);
    const missing = await explainJson(['stripe.refund', '--args', '{"payment_id": "ch_1", "amount": "5"}']);
    expect(missing).toMatchObject({ decision: 'deny', rule: 2, reason: 'rule[2]', effectKey: 'refund:ch_1:5', resource: 'payment:ch_1' });
    expect(missing.conditions[0]).toMatchObject({ present: true, actual: '5', held: false, why: 'a string, not an integer' });
    const big = await explainJson(['stripe.refund', '--args', '{"payment_id": "ch_1", "amount": 123456789012345678901234567890}']);
    expect(big).toMatchObject({ decision: 'deny', rule: 2, effectKey: 'refund:ch_1:123456789012345678901234567890' });
  });

  // The reference evaluator takes JavaScript numbers: beyond 2^53 its input is already rounded, so
  // there it cannot be the reference (explain compares such integers exactly, as CTRLRun does: the
  // 123456789012345678901234567890 case above). Found by fast-check: 9007199254740992.
  it('agrees with the reference evaluator on random arguments', async () => {
    const policy = loadPolicyFile(path.join(DESK, 'ctrlrun.yaml')).value!;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.integer({ min: -10, max: 2_000_000 }),
          fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => Math.abs(d) <= Number.MAX_SAFE_INTEGER),
          fc.string(),
          fc.boolean(),
          fc.constant(null),
        ),
        async (amount) => {
          const args = { amount, payment_id: 'ch_1' };
          const j = await explainJson(['stripe.refund', '--args', JSON.stringify(args)]);
          const ref = evaluate(policy, 'stripe.refund', JSON.parse(JSON.stringify(args)));
          expect([j.decision, j.rule, j.reason]).toEqual([ref.decision, ref.rule, ref.reason]);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('finds the manifest upward (--cwd), takes --policy directly, and refuses a broken policy with exit 2', async () => {
    const sub = await explainJson(['stripe.charge.read', '--cwd', 'src']);
    expect(sub).toMatchObject({ decision: 'allow', ruleLocation: { file: '../ctrlrun.yaml', line: 26, column: 5 } });
    const direct = await explainJson(
      ['files.delete', '--policy', path.join(FIXTURES, 'policy/valid/v1-minimal.yaml'), '--args', '{"path": "/tmp/x", "recursive": false}'],
      path.join(FIXTURES, 'policy'),
    );
    expect(direct).toMatchObject({ decision: 'approve', rule: 0 });
    const dir = copyFixture('refund-desk', 'explain-');
    dirs.push(dir);
    writeFileSync(path.join(dir, 'ctrlrun.yaml'), 'schema: ctrlrun.policy/v6\nactions:\n  stripe.refund: { decision: maybe }\n');
    const r = await cli(['explain', 'stripe.refund'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('ctrlrun.yaml:3:30: error: `maybe` is not one of');
  });

  it('notes observe mode', async () => {
    const r = await cli(['explain', 'accounts.close', '--policy', 'observe-mode.yaml'], { cwd: path.join(FIXTURES, 'policy/valid') });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('mode is observe: nothing is blocked or paused');
  });
});
