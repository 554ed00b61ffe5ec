import { lines } from '../rule-tester.js';
import { policyRuleTester, refundRules as refund, refundTool as zod, REFUND_TOOLS as tools } from '../policy-rule-tester.js';

// Issue 25 item 5: a condition the tool's parameter schema makes impossible.

const SHAPE = 'payment_id: z.string(), amount: z.number().int().positive().max(50)';

policyRuleTester('impossible-condition', {
  valid: [
    {
      name: 'a bound inside the range',
      tools,
      code: zod(SHAPE),
      yaml: refund('      - when: { amount_gt: 40 }\n        decision: approve\n      - decision: allow\n'),
    },
    {
      name: 'no schema found statically: nothing is judged',
      tools,
      code: lines(
        "import { tool } from '@openai/agents';",
        "import { shape } from './shape.js';",
        "export const refund = tool({ name: 'refund', parameters: shape, execute: async () => 'ok' });",
      ),
      yaml: refund('      - when: { amount_gt: 100 }\n        decision: deny\n      - decision: allow\n'),
    },
    { name: 'the tool is not mapped', code: zod(SHAPE), yaml: refund('      - when: { amount_gt: 100 }\n        decision: deny\n      - decision: allow\n') },
    {
      name: 'a value outside the enum: generate refuses it (policy-invalid), so it is not reported twice',
      tools,
      code: zod("payment_id: z.string(), currency: z.enum(['USD', 'EUR'])"),
      yaml: refund('      - when: { currency_eq: JPY }\n        decision: deny\n      - decision: allow\n'),
    },
    {
      name: 'an in list with one value in the range',
      tools,
      code: zod(SHAPE),
      yaml: refund('      - when: { amount_in: [50, 60] }\n        decision: deny\n      - decision: allow\n'),
    },
    {
      name: 'entries on one argument that leave a value within the range together',
      tools,
      code: zod(SHAPE),
      yaml: refund('      - when: { amount_gte: 30, amount_neq: 50 }\n        decision: deny\n      - decision: allow\n'),
    },
    {
      name: 'entries no value satisfies even outside the schema: contradictory-conditions reports them, not this rule',
      tools,
      code: zod(SHAPE),
      yaml: refund('      - when: { amount_gte: 40, amount_lte: 10 }\n        decision: deny\n      - decision: allow\n'),
    },
  ],
  invalid: [
    {
      name: 'entries each possible within the range, but not together',
      tools,
      code: zod(SHAPE),
      yaml: refund('      - when: { amount_gte: 50, amount_neq: 50 }\n        decision: deny\n      - decision: allow\n'),
      errors: [
        {
          line: 4,
          mentions:
            'rule 0 of stripe.refund can never match: `amount_gte: 50` and `amount_neq: 50` each hold for some call the schema accepts, but together for none, since tool `refund` declares `amount` as an integer from 1 to 50',
        },
      ],
    },
    {
      name: 'an entry impossible alone is reported once, not again with the others on its argument',
      tools,
      code: zod(SHAPE),
      yaml: refund('      - when: { amount_gt: 100, amount_lte: 200 }\n        decision: deny\n      - decision: allow\n'),
      errors: [{ line: 4, mentions: '`amount_gt: 100` holds for no call the schema accepts' }],
    },
    {
      name: 'a comparison beyond .max()',
      tools,
      code: zod(SHAPE),
      yaml: refund('      - when: { amount_gt: 100 }\n        decision: deny\n      - decision: allow\n'),
      errors: [
        {
          line: 4,
          mentions:
            'rule 0 of stripe.refund can never match: `amount_gt: 100` holds for no call the schema accepts, since tool `refund` declares `amount` as an integer from 1 to 50 (src/tools.ts:3:',
        },
      ],
    },
    {
      name: 'below .positive(), and a JSON-schema maximum',
      tools,
      code: lines(
        "import { tool } from '@openai/agents';",
        "export const refund = tool({ name: 'refund', parameters: { type: 'object', properties: { payment_id: { type: 'string' }, amount: { type: 'integer', minimum: 1, maximum: 500 } }, required: ['payment_id', 'amount'] }, execute: async () => 'ok' });",
      ),
      yaml: refund(
        '      - when: { amount_lt: 1 }\n        decision: deny\n      - when: { amount_in: [600, 700] }\n        decision: approve\n      - decision: allow\n',
      ),
      errors: [
        { line: 4, mentions: 'an integer from 1 to 500' },
        { line: 6, mentions: 'rule 1 of stripe.refund can never match: `amount_in: [600,700]`' },
      ],
    },
  ],
});
