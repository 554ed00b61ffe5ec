// The tools of the profiling harnesses (profile-protected, profile-stages, profile-core), one a side:
// `plain`, a tool(); `gated`, a tool() whose input guardrail and needsApproval do nothing (what the
// SDK itself costs for the two hooks a protected tool uses); `protected`, a protected tool on a
// memory store, the decision log on; and two that write less, to say what each write costs:
// `nolog` (decisionLog: false) and `nowrite` (no log, and a store whose receipt write only numbers
// the receipt: no copy, no canonical JSON, no hash); and `floor`, no policy at all: a tool() with the
// same two SDK hooks doing nothing whose body writes the records SPEC §5.9 and the decision log ask
// of an allowed call (the arguments' canonical JSON and hash, the decision's receipt, its log entry,
// the outcome's receipt) straight to a memory store: what any implementation of the contract pays
// before it decides anything; `receipts`, the same without the log entry (the two receipts alone,
// beside `nolog`); `refund`, the runtime bench's own protectedTool (bench/lib/traced-sides.mjs: the
// generated refund rules, whose approve rule makes needsApproval decide). Each allows the bench's refund call.
import { tool } from '@openai/agents';
import { z } from 'zod';
import { canonicalJson, sha256Hex } from '../../dist/runtime/canonical.js';
import { bindProtectedTool, createControl, memoryStore } from '../../dist/runtime/index.js';
import { protectedRefund } from './traced-sides.mjs';

export const SIDES = ['plain', 'gated', 'floor', 'receipts', 'protected', 'nolog', 'nowrite', 'refund'];

const policy = {
  hash: 'b'.repeat(64),
  mode: 'enforce',
  actions: {
    'stripe.refund': {
      id: 'stripe.refund',
      decide: (args) =>
        typeof args?.amount === 'number' && args.amount <= 100000
          ? { decision: 'allow', rule: 0, reason: 'rule_matched' }
          : { decision: 'deny', rule: 1, reason: 'rule_matched' },
      controls: [],
      approvalsRequired: 1,
      maxAttempts: 1,
      // no rule decides approve: what `generate` writes for such an action (needsApproval reads no arguments)
      neverPauses: true,
    },
  },
  tools: { refund: 'stripe.refund' },
};
const parameters = z.object({ payment_id: z.string(), amount: z.number().int() });
const execute = async () => 'refunded';
const allowGuardrail = { type: 'tool_input', name: 'noop', run: async () => ({ behavior: { type: 'allow' } }) };

function noWriteStore() {
  const store = memoryStore();
  let seq = 0;
  store.appendReceipt = async (body) => ({ ...body, seq: ++seq, prev_hash: '', hash: '' });
  return store;
}

const RETENTION_MS = 30 * 86_400_000;

/** The body of the `floor` side: the records of an allowed call (the same fields the core writes), then the tool's own body. */
function recordsThen(store, body, log) {
  return async (input, runContext, details) => {
    const argsJson = canonicalJson(input);
    const argsHash = sha256Hex(argsJson);
    const at = Date.now();
    const callId = details?.toolCall?.callId ?? null;
    const principal = runContext.context.user;
    const common = { call_id: callId, args_hash: argsHash, principal, decision: 'allow', reason: 'rule_matched:0', approvers: [], effect_key: null };
    const fixed = { policy_hash: policy.hash, mode: 'enforce', environment: null, action: 'stripe.refund' };
    const receipt = await store.appendReceipt({ at, ...common, ...fixed, result: 'allowed' });
    if (receipt.hash.length !== 64) throw new Error('floor: the receipt was not hashed');
    if (log)
      await store.appendDecision(
        {
          at,
          action: 'stripe.refund',
          tool: 'refund',
          call_id: callId,
          args: argsJson,
          hashed: [],
          args_hash: argsHash,
          // the log's principal is the subject, an object the core makes for each entry (a string
          // identity is the subject's agent), not the receipts' string: written as the core writes it
          principal: { agent: principal, user: null },
          environment: 'production',
          task: null,
          decision: 'allow',
          rule: 0,
          reason: 'rule_matched',
          effect_key: null,
          resource: null,
          policy_hash: policy.hash,
          mode: 'enforce',
          result: 'allowed',
          receipt_seq: receipt.seq,
          receipt_hash: receipt.hash,
        },
        at - RETENTION_MS,
      );
    const output = await body();
    await store.appendReceipt({ at: Date.now(), ...common, ...fixed, result: 'executed' });
    return output;
  };
}

/** The `floor` side's tool (`log`: with the decision log entry), around `body`. */
export function floorTool(body, log = true) {
  const hooks = { inputGuardrails: [allowGuardrail], needsApproval: async () => false };
  return tool({ name: 'refund', description: 'refund', parameters, ...hooks, execute: recordsThen(memoryStore(), body, log) });
}

const protectedWith = (options) =>
  bindProtectedTool(createControl({ identity: (rc) => rc.context.user, receiptKey: null, ...options }), policy)('stripe.refund', {
    name: 'refund',
    description: 'refund',
    parameters,
    execute,
  });

/** A new tool of one side (each call: a new control and store). */
export function sideTool(side) {
  switch (side) {
    case 'plain':
      return tool({ name: 'refund', description: 'refund', parameters, execute });
    case 'gated':
      return tool({ name: 'refund', description: 'refund', parameters, inputGuardrails: [allowGuardrail], needsApproval: async () => false, execute });
    case 'floor':
    case 'receipts':
      return floorTool(execute, side === 'floor');
    case 'protected':
      return protectedWith({ store: memoryStore() });
    case 'nolog':
      return protectedWith({ store: memoryStore(), decisionLog: false });
    case 'nowrite':
      return protectedWith({ store: noWriteStore(), decisionLog: false });
    case 'refund':
      return protectedRefund(undefined, execute);
    default:
      throw new Error(`unknown side ${side}: one of ${SIDES.join(', ')}`);
  }
}

/** The bench's refund call number `i`, through a side's three SDK hooks as the Runner asks them for an allowed call (needsApproval, the input guardrail, invoke). */
export async function allowedCall(t, context, i) {
  const args = `{"payment_id":"pay_${i}","amount":500}`;
  const toolCall = { type: 'function_call', callId: `c${i}`, name: 'refund', arguments: args, status: 'completed' };
  if (await t.needsApproval(context, JSON.parse(args), toolCall.callId)) throw new Error('needs approval');
  for (const g of t.inputGuardrails) if ((await g.run({ context, agent: undefined, toolCall })).behavior.type !== 'allow') throw new Error('refused');
  if ((await t.invoke(context, args, { toolCall })) !== 'refunded') throw new Error('did not run');
}
