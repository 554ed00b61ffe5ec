import { describe, expect, it } from 'vitest';
import { lintFiles } from '../../../src/check/engine.js';
import type { ProjectContext } from '../../../src/check/types.js';
import { parsePolicy } from '../../../src/policy/load.js';
import { createDecider } from '../../../src/policy-test/decider.js';
import { policyFindingDiagnostics, policyFindings } from '../../../src/policy-test/analysis.js';
import { testProject } from '../rule-tester.js';

// Issue 25 item 5: dead and dangerous rules, each with a proof sketch or a witness call.

interface PolicyCase {
  name: string;
  yaml: string;
}
interface InvalidPolicyCase extends PolicyCase {
  errors: Array<{ line: number; mentions: string }>;
}

function project(yaml: string): ProjectContext {
  const loaded = parsePolicy(`schema: ctrlrun.policy/v6\nactions:\n${yaml}`, '/repo/ctrlrun.yaml');
  if (!loaded.value) throw new Error(JSON.stringify(loaded.diagnostics));
  const p = testProject();
  return { manifest: { ...p.manifest, tools: [] }, policy: loaded.value };
}

function policyRuleTester(ruleId: string, cases: { valid: PolicyCase[]; invalid: InvalidPolicyCase[] }): void {
  describe(ruleId, () => {
    for (const c of cases.valid) {
      it(`valid: ${c.name}`, () => {
        expect(lintFiles([], project(c.yaml), () => '').filter((f) => f.ruleId === ruleId)).toEqual([]);
      });
    }
    for (const c of cases.invalid) {
      it(`invalid: ${c.name}`, () => {
        const found = lintFiles([], project(c.yaml), () => '').filter((f) => f.ruleId === ruleId);
        // line numbers are of the action lines given (the two header lines come first)
        expect(found.map((f) => ({ file: f.file, line: f.line - 2, severity: f.severity }))).toEqual(
          c.errors.map((e) => ({ file: 'ctrlrun.yaml', line: e.line, severity: 'warning' })),
        );
        for (const [i, e] of c.errors.entries()) expect(found[i]!.message).toContain(e.mentions);
      });
    }
  });
}

const refund = (rules: string) => `  stripe.refund:\n    effect: "refund:{payment_id}"\n    rules:\n${rules}`;

policyRuleTester('shadowed-rule', {
  valid: [
    {
      name: 'bands from narrow to wide',
      yaml: refund(
        '      - when: { amount_lte: 100 }\n        decision: allow\n      - when: { amount_lte: 1000 }\n        decision: approve\n      - decision: deny\n',
      ),
    },
    {
      name: 'an exception above the rule it carves out of',
      yaml: refund(
        '      - when: { to_in: [ops] }\n        decision: deny\n      - when: { to_in: [ops, dev] }\n        decision: allow\n      - decision: approve\n',
      ),
    },
    {
      name: 'different arguments',
      yaml: refund(
        '      - when: { amount_lte: 100 }\n        decision: allow\n      - when: { count_lte: 100 }\n        decision: approve\n      - decision: deny\n',
      ),
    },
    {
      name: 'a partial overlap',
      yaml: refund(
        '      - when: { amount_gte: 10, amount_lte: 100 }\n        decision: allow\n      - when: { amount_gte: 50, amount_lte: 500 }\n        decision: approve\n      - decision: deny\n',
      ),
    },
  ],
  invalid: [
    {
      name: 'a band inside an earlier, wider band',
      yaml: refund(
        '      - when: { amount_lte: 1000000 }\n        decision: approve\n      - when: { amount_gte: 1, amount_lte: 10000 }\n        decision: allow\n      - decision: deny\n',
      ),
      errors: [
        {
          line: 6,
          mentions: 'rule 1 of stripe.refund (allow when amount_gte: 1, amount_lte: 10000) is never reached: every call it matches is matched first by rule 0',
        },
      ],
    },
    {
      name: 'rules after a catch-all',
      yaml: refund('      - decision: approve\n      - when: { amount_lte: 5 }\n        decision: allow\n'),
      errors: [{ line: 5, mentions: 'is decided approve by rule[0]' }],
    },
    {
      name: 'a rule shadowed by two earlier rules together (each alone leaves some of its calls)',
      yaml: refund(
        '      - when: { amount_lte: 100 }\n        decision: allow\n      - when: { amount_gt: 100 }\n        decision: approve\n      - when: { amount_gte: 0 }\n        decision: deny\n',
      ),
      errors: [
        {
          line: 8,
          mentions:
            'is never reached: every call it matches is matched first by rules 0 (allow when amount_lte: 100) and 1 (approve when amount_gt: 100) together',
        },
      ],
    },
    {
      name: 'an in list inside an earlier one',
      yaml: refund(
        '      - when: { to_in: [ops, dev] }\n        decision: allow\n      - when: { to_eq: dev }\n        decision: deny\n      - decision: approve\n',
      ),
      errors: [{ line: 6, mentions: 'matched first by rule 0 (allow when to_in: ["ops","dev"])' }],
    },
  ],
});

policyRuleTester('contradictory-conditions', {
  valid: [
    { name: 'a non-empty band', yaml: refund('      - when: { amount_gte: 10, amount_lte: 10 }\n        decision: allow\n      - decision: deny\n') },
    { name: 'an eq among in values', yaml: refund('      - when: { mode_eq: a, mode_in: [a, b] }\n        decision: allow\n      - decision: deny\n') },
    {
      name: 'neq beside a band',
      yaml: refund('      - when: { amount_gte: 1, amount_lte: 2, amount_neq: 1 }\n        decision: allow\n      - decision: deny\n'),
    },
  ],
  invalid: [
    {
      name: 'an empty band',
      yaml: refund('      - when: { amount_gte: 100, amount_lte: 10 }\n        decision: allow\n      - decision: deny\n'),
      errors: [{ line: 4, mentions: 'no value of `amount` satisfies amount_gte: 100 and amount_lte: 10' }],
    },
    {
      name: 'eq outside in',
      yaml: refund('      - when: { mode_eq: a, mode_in: [b, c] }\n        decision: allow\n      - decision: deny\n'),
      errors: [{ line: 4, mentions: 'no value of `mode`' }],
    },
    {
      name: 'a comparison with a string eq',
      yaml: refund('      - when: { amount_eq: "5", amount_gt: 1 }\n        decision: allow\n      - decision: deny\n'),
      errors: [{ line: 4, mentions: 'lt/lte/gt/gte hold only for integers' }],
    },
    {
      name: 'eq and neq of one value',
      yaml: refund('      - decision: deny\n        when: { x_eq: 1, x_neq: 1 }\n      - decision: approve\n'),
      errors: [{ line: 4, mentions: 'rule 0 of stripe.refund can never match' }],
    },
  ],
});

policyRuleTester('allow-all-action', {
  valid: [
    { name: 'a bounded allow', yaml: refund('      - when: { amount_lte: 100 }\n        decision: allow\n      - decision: approve\n') },
    { name: 'no effect: a read', yaml: '  stripe.charge.read:\n    decision: allow\n' },
    { name: 'no catch-all: no match denies', yaml: refund('      - when: { amount_lte: 100 }\n        decision: allow\n') },
  ],
  invalid: [
    {
      name: 'decision: allow with an effect',
      yaml: '  stripe.refund:\n    effect: "refund:{payment_id}"\n    decision: allow\n',
      errors: [
        { line: 3, mentions: 'allows every call its templates resolve for: `decision: allow`; e.g. {"payment_id":"payment_id-1"} is allowed (decision)' },
      ],
    },
    {
      name: 'allow rules down to a catch-all allow',
      yaml: refund('      - when: { amount_lte: 100 }\n        decision: allow\n      - decision: allow\n'),
      errors: [{ line: 6, mentions: 'every rule up to the catch-all rule 1 allows' }],
    },
  ],
});

describe('the analysis agrees with the runtime and reaches validate', () => {
  it('a shadowing claim the witness calls refute is not reported (the proof sketch is checked against the decision)', () => {
    const loaded = parsePolicy(
      `schema: ctrlrun.policy/v6\nactions:\n${refund('      - when: { amount_lte: 1000000 }\n        decision: approve\n      - when: { amount_lte: 10 }\n        decision: allow\n      - decision: deny\n')}`,
      '/p/ctrlrun.yaml',
    ).value!;
    const decider = createDecider(loaded);
    // a decider that says rule 1 decides everything: the claim is refuted, so nothing is reported
    const lying = { ...decider, decide: () => ({ decision: 'allow' as const, rule: 1, reason: 'rule[1]' as const, effectKey: null, resource: null }) };
    expect(policyFindings(loaded, { decider }).map((f) => f.ruleId)).toEqual(['shadowed-rule']);
    expect(policyFindings(loaded, { decider: lying })).toEqual([]);
  });

  it('validate prints each finding as a located warning with its rule id', () => {
    const loaded = parsePolicy(
      `schema: ctrlrun.policy/v6\nactions:\n  stripe.refund:\n    effect: "refund:{payment_id}"\n    decision: allow\n`,
      '/p/ctrlrun.yaml',
    ).value!;
    expect(policyFindingDiagnostics(loaded)).toEqual([
      expect.objectContaining({ severity: 'warning', file: '/p/ctrlrun.yaml', line: 5, column: 5, code: 'allow-all-action', path: 'actions.stripe.refund' }),
    ]);
  });
});
