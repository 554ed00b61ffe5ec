import { Agent, run as sdkRun } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { argsHashOf } from '../../src/runtime/internals.js';
import { bindAgentTools, createControl, memoryStore, type CompiledPolicy } from '../../src/runtime/index.js';
import { makePolicy, manualClock, type Ctx } from './helpers.js';

/**
 * An agent tool with its own zod parameters is a strict tool, as a function tool is: the SDK drops
 * the `null` strict mode sends for an optional property before `needsApproval`. The paused call is
 * filed as the model wrote it (the null put back), so its hash is the call's own and the approved
 * call runs once. A text that left the property out is filed as strict mode writes it (the null
 * put back), as for protectedTool (pause-optional-nulls.test.ts). With 0.20 the SDK hands an agent
 * tool's needsApproval the text's own parse (the tool's invoke is the library's, which the SDK has
 * no parser registered for), so it is the left-out text that shows the strict schema is read.
 */

const AS_SENT = '{"payment_id":"p1","note":null}'; // strict mode's text
const LEFT_OUT = '{"payment_id":"p1"}'; // a model that ignores strict mode
const FILED_ARGS = '{"note":null,"payment_id":"p1"}';

function world() {
  const store = memoryStore();
  const clock = manualClock();
  const control = createControl({ store, identity: (rc) => (rc.context as Ctx)?.user ?? null, clock: clock.now });
  const base = makePolicy();
  const policy: CompiledPolicy = {
    ...base,
    actions: {
      ...base.actions,
      'desk.refunder': {
        id: 'desk.refunder',
        decide: () => ({ decision: 'approve', rule: 0, reason: 'rule[0]' }),
        controls: [],
        approvalsRequired: 1,
        maxAttempts: 1,
      },
    },
  };
  return { store, control, doors: bindAgentTools<'desk.refunder'>(control, policy) };
}

describe('an agent tool with zod parameters, an optional property the model left empty', () => {
  for (const [how, text] of [
    ['sent as null', AS_SENT],
    ['left out', LEFT_OUT],
  ] as const)
    it(`${how}: filed at the pause with the null, hashed as sent; approved, the nested agent runs once`, async () => {
      const w = world();
      const nested = new ScriptedModel([[assistantMessage('refunded p1')]]);
      const inner = new Agent<Ctx>({ name: 'refunder', instructions: 'Refunds payments', model: nested });
      const agentTool = w.doors.protectAgentTool('desk.refunder', inner, {
        toolName: 'refunder',
        toolDescription: 'refunds',
        parameters: z.object({ payment_id: z.string(), note: z.string().optional() }),
        inputBuilder: ({ params }) => `refund ${params.payment_id}`,
      });
      const parent = new ScriptedModel([[functionCall('refunder', text, { callId: 'a1' })], [assistantMessage('done')]]);
      const desk = new Agent<Ctx>({ name: 'desk', model: parent, tools: [agentTool] });
      const paused = await sdkRun(desk, 'refund p1', { context: { user: 'alice' } });
      expect(paused.interruptions).toHaveLength(1);
      expect(await w.store.listRequests()).toEqual([
        expect.objectContaining({ callId: 'a1', state: 'pending', args: FILED_ARGS, argsHash: argsHashOf(AS_SENT, undefined) }),
      ]);
      expect(nested.calls).toHaveLength(0);
      await w.control.approve(paused.state, paused.interruptions[0]!, { approver: 'bob' });
      const resumed = await sdkRun(desk, paused.state, { context: { user: 'alice' } });
      expect(resumed.finalOutput).toBe('done');
      expect(nested.calls).toHaveLength(1);
      expect(JSON.stringify(nested.calls[0]?.request.input)).toContain('refund p1');
      expect((await w.store.getRequest('a1'))?.state).toBe('consumed');
    });
});
