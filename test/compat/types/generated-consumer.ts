/**
 * A user's code against the generated module (`protectedTool`'s type is written with the public
 * type names of the app's own SDK), type-checked by `.ci/sdk-range` against each `@openai/agents`
 * minor of the peer range, with `declaration: true`: the module refund-desk generates, and tools
 * typed exactly as the SDK's own `tool()` types them. Not part of the repo's own typecheck.
 */
import { Agent, type RunContext, tool } from '@openai/agents';
import { z } from 'zod';
import { protectedTool } from './src/ctrlrun.generated.js';

interface Caller {
  operator: string;
}
type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;

const parameters = z.object({ payment_id: z.string(), amount: z.number().int() });
const execute = async ({ amount }: { amount: number }, runContext?: RunContext<Caller>) => `${runContext?.context.operator} ${amount}`;

// the run context inferred from execute's second parameter
export const refund = protectedTool('stripe.refund', { name: 'refund', description: 'x', parameters, execute });
const refundByTool = tool({ name: 'refund', description: 'x', parameters, execute });
export const sameRefund: Equal<typeof refund, typeof refundByTool> = true;

// the run context as a type argument; no run context
export const close = protectedTool<typeof parameters, Caller>('accounts.close', {
  name: 'close',
  description: 'x',
  parameters,
  execute: async (_input, runContext) => `${runContext?.context.operator}`,
});
export const read = protectedTool('stripe.charge.read', { name: 'read', description: 'x', parameters, execute: async () => 'x' });
const readByTool = tool({ name: 'read', description: 'x', parameters, execute: async () => 'x' });
export const sameRead: Equal<typeof read, typeof readByTool> = true;

export const desk = new Agent<Caller>({ name: 'desk', instructions: 'x', tools: [refund, close, read] });
export const anyone = new Agent({ name: 'anyone', instructions: 'x', tools: [read] });

// @ts-expect-error: a tool for one run context is refused by an agent of another
export const night = new Agent<{ shift: number }>({ name: 'night', instructions: 'x', tools: [refund] });

// @ts-expect-error: an action the policy does not have is a type error
protectedTool('stripe.nope', { name: 'x', description: 'x', parameters, execute: async () => 'x' });

// @ts-expect-error: needsApproval belongs to the policy
protectedTool('stripe.charge.read', { name: 'x', description: 'x', parameters, needsApproval: true, execute: async () => 'x' });
