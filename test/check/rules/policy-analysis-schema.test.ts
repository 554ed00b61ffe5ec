import { describe, expect, it } from 'vitest';
import { declarationsInSource } from '../../../src/generate/declarations.js';
import { actionSchemas } from '../../../src/generate/tool-schemas.js';
import { parsePolicy } from '../../../src/policy/load.js';
import { policyFindings } from '../../../src/policy-test/analysis.js';
import { policyRuleTester, refundRules as refund, refundTool as zod, REFUND_TOOLS as tools } from '../policy-rule-tester.js';
import { testProject } from '../rule-tester.js';

// Issue 25: the example call of `shadowed-rule` and `allow-all-action` is one the tool's parameter schema accepts.

const SHAPE = "payment_id: z.string(), amount: z.number().int().positive().max(50), currency: z.enum(['USD', 'EUR'])";

policyRuleTester('shadowed-rule', {
  valid: [
    {
      name: "a rule after a catch-all that the schema already rules out: impossible-condition's finding, not this one's",
      tools,
      code: zod(SHAPE),
      yaml: refund('      - decision: approve\n      - when: { amount_gt: 100 }\n        decision: deny\n'),
    },
  ],
  invalid: [
    {
      name: 'the example holds every required argument, each a value the schema accepts',
      tools,
      code: zod(SHAPE),
      yaml: refund('      - decision: approve\n      - when: { currency_neq: USD }\n        decision: deny\n'),
      errors: [{ line: 5, mentions: 'e.g. {"payment_id":"x","amount":1,"currency":"EUR"} is decided approve by rule[0]' }],
    },
    {
      name: 'without a schema read statically, the example is built from the policy alone',
      tools,
      code: "import { tool } from '@openai/agents';\nimport { shape } from './shape.js';\nexport const refund = tool({ name: 'refund', parameters: shape, execute: async () => 'ok' });\n",
      yaml: refund('      - decision: approve\n      - when: { currency_neq: USD }\n        decision: deny\n'),
      errors: [{ line: 5, mentions: 'e.g. {"payment_id":"x","currency":"x"} is decided approve by rule[0]' }],
    },
    {
      name: 'a catch-all the schema makes dead: every amount it accepts is positive, so rule 0 takes every call',
      tools,
      code: zod(SHAPE),
      yaml: refund('      - when: { amount_gte: 1 }\n        decision: allow\n      - decision: deny\n'),
      errors: [
        {
          line: 6,
          mentions:
            'rule 1 of stripe.refund (deny when no conditions) is never reached within the parameter schema of tool `refund`: every call it matches is matched first by rule 0 (allow when amount_gte: 1)',
        },
      ],
    },
    {
      name: 'a rule the schema and two earlier rules shadow together: the enum has only USD and EUR',
      tools,
      code: zod(SHAPE),
      yaml: refund(
        '      - when: { currency_eq: USD }\n        decision: allow\n      - when: { currency_eq: EUR }\n        decision: approve\n      - when: { amount_lte: 10 }\n        decision: deny\n',
      ),
      errors: [{ line: 8, mentions: 'matched first by rules 0 (allow when currency_eq: "USD") and 1 (approve when currency_eq: "EUR") together' }],
    },
  ],
});

policyRuleTester('allow-all-action', {
  valid: [],
  invalid: [
    {
      name: 'the example holds every required argument, an integer where the template names one',
      tools,
      code: zod(SHAPE),
      yaml: '  stripe.refund:\n    effect: "refund:{payment_id}:{amount}"\n    decision: allow\n',
      errors: [{ line: 3, mentions: 'e.g. {"payment_id":"payment_id-1","amount":1,"currency":"USD"} is allowed (decision)' }],
    },
  ],
});

describe('validate passes the schemas to the same analysis', () => {
  it('the shadowed rule the schema rules out is reported without the schema and not with it', () => {
    const code = zod(SHAPE);
    const manifest = testProject({ tools }).manifest;
    const schemas = actionSchemas(manifest, new Map([['refund', declarationsInSource('/repo/src/tools.ts', code, new Set(['refund']))]]));
    const policy = parsePolicy(
      `schema: ctrlrun.policy/v6\nactions:\n${refund('      - decision: approve\n      - when: { amount_gt: 100 }\n        decision: deny\n')}`,
      '/repo/ctrlrun.yaml',
    ).value!;
    expect(policyFindings(policy, { only: ['shadowed-rule'] }).map((f) => f.message)).toEqual([
      expect.stringContaining('e.g. {"payment_id":"x","amount":101} is decided approve'),
    ]);
    expect(policyFindings(policy, { only: ['shadowed-rule'], schemas })).toEqual([]);
    expect(policyFindings(policy, { schemas }).map((f) => f.ruleId)).toEqual(['impossible-condition']);
  });
});
