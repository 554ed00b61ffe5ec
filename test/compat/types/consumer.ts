/**
 * A user's code against the runtime's published declarations (`dist/runtime/*.d.ts`), type-checked
 * by `.ci/sdk-range` against each `@openai/agents` minor of the peer range (and each zod it runs
 * with). `tsc --strict`; `skipLibCheck` as projects on SDKs before 0.14 need for the SDK's own
 * declarations. Not part of the repo's own typecheck (it imports the built package).
 */
import { Agent, type tool } from '@openai/agents';
import { z } from 'zod';
import { ActionDenied, bindProtectedTool, createControl, memoryStore, run, type CompiledPolicy, type ProtectedToolOptions } from 'ctrlrun-gen/runtime';

declare const policy: CompiledPolicy;
const control = createControl({ store: memoryStore(), identity: () => 'alice' });
const protectedTool = bindProtectedTool<'stripe.refund' | 'stripe.charge.read'>(control, policy);

const parameters = z.object({ payment_id: z.string(), amount: z.number().int() });
const refund = protectedTool('stripe.refund', {
  name: 'refund',
  description: 'Refund a payment',
  parameters,
  execute: async ({ payment_id, amount }) => `${payment_id} ${amount}`,
});

// the body's input is typed exactly as the SDK's own tool() types it with these parameters (on
// SDK 0.3 with zod 4 both are any: that SDK's types predate zod 4)
type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
type SdkInput = Parameters<Parameters<typeof tool<typeof parameters>>[0]['execute']>[0];
type ProtectedInput = Parameters<ProtectedToolOptions<typeof parameters>['execute']>[0];
export const sameInput: Equal<SdkInput, ProtectedInput> = true;

// @ts-expect-error: an action the policy does not have is a type error
protectedTool('stripe.nope', { name: 'x', description: 'x', parameters: z.object({}), execute: async () => 'x' });

// @ts-expect-error: needsApproval belongs to the policy
protectedTool('stripe.charge.read', { name: 'read', description: 'x', parameters: z.object({}), needsApproval: true, execute: async () => 'x' });

const agent = new Agent({ name: 'desk', instructions: 'Refund desk', tools: [refund] });

export async function main(): Promise<void> {
  try {
    await run(agent, 'refund pay_1');
  } catch (error) {
    if (error instanceof ActionDenied) console.log(error.reason);
  }
}
