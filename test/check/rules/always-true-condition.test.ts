import { policyRuleTester, refundRules as refund, refundTool as zod, REFUND_TOOLS as tools } from '../policy-rule-tester.js';

// Issue 25 item 5: a condition the tool's parameter schema makes always true.

const BAND = '      - when: { amount_gte: 0, amount_lte: 10000 }\n        decision: allow\n      - decision: approve\n';

policyRuleTester('always-true-condition', {
  valid: [
    { name: 'a bound the schema does not imply', tools, code: zod('payment_id: z.string(), amount: z.number().int()'), yaml: refund(BAND) },
    {
      name: 'an optional argument: a call without it fails the condition',
      tools,
      code: zod('payment_id: z.string(), amount: z.number().int().nonnegative().optional()'),
      yaml: refund(BAND),
    },
    {
      name: 'a nullable argument: null fails a comparison',
      tools,
      code: zod('payment_id: z.string(), amount: z.number().int().nonnegative().nullable()'),
      yaml: refund(BAND),
    },
    {
      name: 'an in list missing one enum value',
      tools,
      code: zod("payment_id: z.string(), currency: z.enum(['USD', 'EUR', 'GBP'])"),
      yaml: refund('      - when: { currency_in: [USD, EUR] }\n        decision: allow\n      - decision: approve\n'),
    },
  ],
  invalid: [
    {
      name: 'amount_gte: 0 on .nonnegative()',
      tools,
      code: zod('payment_id: z.string(), amount: z.number().int().nonnegative()'),
      yaml: refund(BAND),
      errors: [
        {
          line: 4,
          mentions:
            '`amount_gte: 0` in rule 0 of stripe.refund holds for every call: tool `refund` declares `amount` required, as an integer of at least 0 (src/tools.ts:3:',
        },
      ],
    },
    {
      name: 'every value of the enum listed, and a bound above .max()',
      tools,
      code: zod("payment_id: z.string(), amount: z.number().int().max(500), currency: z.enum(['USD', 'EUR'])"),
      yaml: refund('      - when: { currency_in: [USD, EUR], amount_lte: 1000 }\n        decision: allow\n      - decision: approve\n'),
      errors: [
        { line: 4, mentions: '`currency_in: ["USD","EUR"]` in rule 0' },
        { line: 4, mentions: 'even its greatest value, 500, passes' },
      ],
    },
  ],
});
