import { readFileSync } from 'node:fs';
import { Agent } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall, type ScriptedModelInput } from '@openai/agents/testing';
import { z } from 'zod';
import {
  bindProtectedTool,
  createControl,
  memoryStore,
  type CompiledAction,
  type CompiledPolicy,
  type DecisionResult,
  type Store,
  type TemplateResult,
} from '../../src/runtime/index.js';

export type ActionId = 'stripe.refund' | 'stripe.charge.read';

/**
 * The `@openai/agents` version these tests run against: the pinned one, or the one `.ci/sdk-range`
 * installs (`vitest.compat.config.ts` passes it on). Where an older SDK of the peer range answers
 * the model itself (malformed JSON, a rejection's text), a test says what that SDK does instead.
 */
export const SDK_VERSION: string =
  process.env['CTRLRUN_SDK_VERSION'] ??
  (JSON.parse(readFileSync(new URL('../../node_modules/@openai/agents/package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** True when the SDK under test is older than `minor` (e.g. `'0.14'`). */
export function sdkBefore(minor: string): boolean {
  const [a = 0, b = 0] = SDK_VERSION.split('.').map(Number);
  const [x = 0, y = 0] = minor.split('.').map(Number);
  return a < x || (a === x && b < y);
}

const matched = (decision: DecisionResult['decision'], rule: number): DecisionResult => ({ decision, rule, reason: `rule[${rule}]` });

function isInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v);
}

function field(args: unknown, name: string): unknown {
  return args !== null && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>)[name] : undefined;
}

function template(prefix: string, arg: string) {
  return (args: unknown): TemplateResult => {
    const v = field(args, arg);
    if ((typeof v === 'string' && v !== '') || isInt(v)) return { ok: true, value: `${prefix}:${v}` };
    return { ok: false, arg };
  };
}

/**
 * The compiled policy of SPEC §2, written by hand in the generated module's shape:
 * amount 0..100000 allow; <= 1000000 approve; else deny.
 */
export function makePolicy(options: { approvalsRequired?: number; maxAttempts?: number; mode?: 'enforce' | 'observe'; hash?: string } = {}): CompiledPolicy {
  const refund: CompiledAction = {
    id: 'stripe.refund',
    decide(args: unknown): DecisionResult {
      const amount = field(args, 'amount');
      if (isInt(amount) && amount >= 0 && amount <= 100_000) return matched('allow', 0);
      if (isInt(amount) && amount <= 1_000_000) return matched('approve', 1);
      return matched('deny', 2);
    },
    effect: template('refund', 'payment_id'),
    resource: template('payment', 'payment_id'),
    controls: [],
    approvalsRequired: options.approvalsRequired ?? 1,
    maxAttempts: options.maxAttempts ?? 3,
  };
  const read: CompiledAction = {
    id: 'stripe.charge.read',
    decide: () => ({ decision: 'allow', rule: null, reason: 'decision' }),
    controls: [],
    approvalsRequired: 1,
    maxAttempts: 1,
  };
  return {
    hash: options.hash ?? 'f'.repeat(64),
    mode: options.mode ?? 'enforce',
    environment: 'test',
    actions: { 'stripe.refund': refund, 'stripe.charge.read': read },
    tools: { refund: 'stripe.refund', 'Lookup Charge': 'stripe.charge.read' },
  };
}

export interface Ctx {
  user?: string | null;
}

/** A clock tests move by hand. */
export function manualClock(start = 1_700_000_000_000) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

export interface Setup {
  store: Store;
  clock: ReturnType<typeof manualClock>;
  control: ReturnType<typeof createControl>;
  policy: CompiledPolicy;
  protectedTool: ReturnType<typeof bindProtectedTool<ActionId>>;
}

export function setup(
  options: Parameters<typeof makePolicy>[0] & {
    store?: Store;
    identity?: (ctx: { context: Ctx }) => string | null;
    notice?: (line: string) => void;
    receiptKey?: string;
    offerAllTools?: boolean;
  } = {},
): Setup {
  const store = options.store ?? memoryStore();
  const clock = manualClock();
  const identity = options.identity ?? ((rc: { context: Ctx }) => rc.context?.user ?? null);
  const control = createControl({
    store,
    identity: identity as never,
    clock: clock.now,
    ...(options.notice ? { notice: options.notice } : {}),
    ...(options.receiptKey ? { receiptKey: options.receiptKey } : {}),
    ...(options.offerAllTools ? { offerAllTools: true } : {}),
  });
  const policy = makePolicy(options);
  const protectedTool = bindProtectedTool<ActionId>(control, policy);
  return { store, clock, control, policy, protectedTool };
}

/** A refund tool through protectedTool whose body counts its runs; `behave` decides what the body does. */
export function refundTool(
  s: Setup,
  behave: (args: { payment_id: string; amount: number }) => unknown = () => 'refunded',
  extra: Record<string, unknown> = {},
) {
  const calls: Array<{ payment_id: string; amount: number }> = [];
  const t = s.protectedTool('stripe.refund', {
    name: 'refund',
    description: 'Refund a payment',
    parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
    execute: async (args) => {
      calls.push(args);
      return behave(args);
    },
    ...extra,
  });
  return { tool: t, calls };
}

/** A JSON-schema refund tool with an integer `ref`: a `ref` beyond 2^53 reaches needsApproval rounded by the SDK's JSON.parse. */
export function refTool(s: Pick<Setup, 'protectedTool'>, extra: Record<string, unknown> = {}) {
  const calls: unknown[] = [];
  const tool = s.protectedTool('stripe.refund', {
    name: 'refund',
    description: 'Refund a payment',
    parameters: {
      type: 'object',
      properties: { payment_id: { type: 'string' }, amount: { type: 'integer' }, ref: { type: 'integer' } },
      required: ['payment_id', 'amount', 'ref'],
      additionalProperties: false,
    },
    execute: async (args: unknown) => {
      calls.push(args);
      return 'refunded';
    },
    ...extra,
  });
  return { tool, calls };
}

export function refundCall(args: Record<string, unknown> | string, callId: string) {
  return functionCall('refund', args as Record<string, unknown>, { callId });
}

export function agentWith(model: ScriptedModel, tools: unknown[]) {
  return new Agent<Ctx>({ name: 'desk', instructions: 'Refund desk', model, tools: tools as never });
}

export function scripted(...steps: ScriptedModelInput[]) {
  return new ScriptedModel(steps);
}

export { assistantMessage, functionCall };

/** The text of the tool output the model received for `callId` in its `index`-th call. */
export function toolOutputSeen(model: ScriptedModel, index: number, callId: string): string | undefined {
  const input = model.calls[index]?.request.input;
  if (!Array.isArray(input)) return undefined;
  const item = input.find((i) => (i as { type?: string; callId?: string }).type === 'function_call_result' && (i as { callId?: string }).callId === callId) as
    | { output?: unknown }
    | undefined;
  if (!item) return undefined;
  const out = item.output as { type?: string; text?: string } | string | undefined;
  return typeof out === 'string' ? out : (out?.text ?? JSON.stringify(out));
}

/** A policy of one action, `pay.allow`, that allows every call of the `pay` tool (the allow path's tests). */
export const ALLOW_PAY_POLICY: CompiledPolicy = {
  hash: 'a'.repeat(64),
  mode: 'enforce',
  environment: 'test',
  actions: {
    'pay.allow': { id: 'pay.allow', decide: () => ({ decision: 'allow', rule: 0, reason: 'rule[0]' }), controls: [], approvalsRequired: 1, maxAttempts: 1 },
  },
  tools: { pay: 'pay.allow' },
};
