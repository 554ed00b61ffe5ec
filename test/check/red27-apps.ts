import { lines } from './rule-tester.js';

/**
 * The apps the session 27 red team's cases run (red27-computed-answers.test.ts, red28-tamper.test.ts, the answers28 tests).
 * A protected tool, in its own module, that the policy can pause (stripe.refund: allow/approve/deny by
 * amount); its 8 lines come first in the cases that add to the module, whose expected lines count them.
 */
export const TOOLS = lines(
  "import { z } from 'zod';",
  "import { protectedTool } from './ctrlrun.generated.js';",
  "export const refund = protectedTool('stripe.refund', {",
  "  name: 'refund',",
  "  description: 'Refund a payment',",
  '  parameters: z.object({ payment_id: z.string(), amount: z.number() }),',
  '  execute: async ({ payment_id }) => `refunded ${payment_id}`,',
  '});',
);
