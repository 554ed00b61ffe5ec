import { tool } from '@openai/agents';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ActionDenied, bindProtectedTool, createControl, memoryStore, run, type CompiledPolicy, type Store } from '../../src/runtime/index.js';
import { argumentsStage } from '../../src/runtime/core/arguments.js';
import { agentWith, assistantMessage, functionCall, scripted, SDK_VERSION, sdkBefore, toolOutputSeen } from './helpers.js';

/**
 * SPEC §5: every decision and outcome appends one receipt. A call whose arguments a zod tool's
 * schema refuses never runs (the SDK's own parse refuses it before the body), and is recorded as
 * a JSON-schema tool's is: `refused`, `invalid_arguments:…`, the model told it did not run. By
 * default the SDK does not log tool data and withholds such a call's arguments from the guardrail
 * (`''`); with tool data logged the guardrail sees them and refuses the call itself. An older SDK
 * of the peer range hands the guardrail the arguments either way: there the call is refused as
 * with tool data logged (`withheld` below, probed on the SDK itself with a plain tool()).
 */
const compiled = {
  hash: `sha256:${'e'.repeat(64)}`,
  mode: 'enforce',
  actions: {
    'bank.transfer': {
      id: 'bank.transfer',
      decide: () => ({ decision: 'allow', rule: 0, reason: 'rule[0]' }),
      controls: [],
      approvalsRequired: 1,
      maxAttempts: null,
    },
  },
  tools: { transfer: 'bank.transfer' },
} as unknown as CompiledPolicy;

const ZOD = z.object({ to: z.string() });
const JSON_SCHEMA = { type: 'object', properties: { to: { type: 'string' } }, required: ['to'], additionalProperties: false };
const PREFIX = "The call to bank.transfer was refused (its arguments do not match the tool's schema: ";
const SUFFIX = '). It did not run; call it again with arguments of the right types if still needed.';

function transferTool(parameters: unknown, options: { store?: Store; extra?: Record<string, unknown>; mode?: 'observe' } = {}) {
  const store = options.store ?? memoryStore();
  const control = createControl({ store, identity: () => 'alice' });
  const protectedTool = bindProtectedTool<'bank.transfer'>(control, options.mode ? { ...compiled, mode: options.mode } : compiled);
  const ran: unknown[] = [];
  const tool = protectedTool('bank.transfer', {
    name: 'transfer',
    description: 'Send money.',
    parameters: parameters as typeof ZOD,
    ...options.extra,
    execute: async (args: unknown) => {
      ran.push(args);
      return 'sent';
    },
  });
  return { store, tool, ran };
}

/** One call of `transfer` with `args` through the real Runner: what the model read back, and the receipts. */
async function callOnce(made: ReturnType<typeof transferTool>, args: Record<string, unknown>) {
  const model = scripted([functionCall('transfer', args, { callId: 'c1' })], [assistantMessage('done')]);
  await run(agentWith(model, [made.tool]), 'pay');
  return { seen: toolOutputSeen(model, 1, 'c1') ?? '', receipts: await made.store.listReceipts() };
}

/** One call of `transfer` with `{ to: 5 }` whose run must reject: the error (the SDK's ToolCallError, its cause in `error`). */
async function failedRun(made: ReturnType<typeof transferTool>): Promise<Error & { error?: Error }> {
  const model = scripted([functionCall('transfer', { to: 5 }, { callId: 'c1' })], [assistantMessage('done')]);
  const outcome = await run(agentWith(model, [made.tool]), 'pay').then(
    () => null,
    (e: unknown) => e as Error & { error?: Error },
  );
  if (outcome === null) throw new Error('the run did not stop');
  return outcome;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

/** What a plain tool()'s input guardrail is handed for a call its zod schema refuses, tool data not logged: the SDK's own doing. */
async function argumentsTheSdkHandsTheGuardrail(): Promise<string | undefined> {
  let seen: string | undefined;
  const probe = tool({
    name: 'transfer',
    description: 'probe',
    parameters: ZOD,
    inputGuardrails: [
      {
        type: 'tool_input',
        name: 'probe',
        run: async ({ toolCall }: { toolCall: { arguments: string } }) => {
          seen = toolCall.arguments;
          return { behavior: { type: 'allow' as const } };
        },
      },
    ],
    execute: async () => 'sent',
  } as Parameters<typeof tool>[0]);
  const model = scripted([functionCall('transfer', { to: 5 }, { callId: 'c1' })], [assistantMessage('done')]);
  await run(agentWith(model, [probe]), 'pay').catch(() => undefined);
  return seen;
}

/** Whether the SDK under test withholds a refused call's arguments from the guardrail (0.20 does; 0.3 and 0.5 do not). */
let withheld = true;
beforeAll(async () => {
  withheld = (await argumentsTheSdkHandsTheGuardrail()) === '';
});

describe('the SDK under test', () => {
  it("withholds a refused call's arguments from the guardrail from 0.14 on (each branch below is taken by some SDK of the range)", () => {
    // pins the branch: the pinned SDK takes the withheld one, the oldest of the range the other
    expect({ version: SDK_VERSION, withheld }).toEqual({ version: SDK_VERSION, withheld: !sdkBefore('0.14') });
  });
});

describe('a call a zod tool refuses: a receipt, as for a JSON-schema tool', () => {
  it('tool data not logged (the default): nothing runs, a refused receipt, the model told to correct its arguments', async () => {
    const made = transferTool(ZOD);
    const { seen, receipts } = await callOnce(made, { to: 5 });
    expect(made.ran).toEqual([]);
    if (!withheld) {
      // the SDK handed the guardrail the arguments: refused as with tool data logged (below)
      expect(seen).toMatch(/^The call to bank\.transfer was refused \(its arguments do not match the tool's schema: \/to: .*string/i);
      expect(receipts.map((r) => [r.call_id, r.result, r.reason.split(':')[0], r.principal])).toEqual([['c1', 'refused', 'invalid_arguments', null]]);
      expect(receipts[0]?.args_hash).toMatch(/^[0-9a-f]{64}$/);
      return;
    }
    expect(seen).toBe(`${PREFIX}refused by the SDK's own parse, details withheld${SUFFIX}`);
    // the SDK withheld the text from every hook: no hash of it, the refusal recorded all the same
    expect(receipts.map((r) => [r.call_id, r.result, r.reason, r.args_hash, r.principal])).toEqual([
      ['c1', 'refused', "invalid_arguments:refused by the SDK's own parse, details withheld", null, null],
    ]);
  });

  it('tool data logged: the guardrail refuses it with the JSON-schema refusal, the same receipt and text a JSON-schema tool gets', async () => {
    vi.stubEnv('OPENAI_AGENTS_DONT_LOG_TOOL_DATA', '0');
    const zod = transferTool(ZOD);
    const json = transferTool(JSON_SCHEMA);
    const fromZod = await callOnce(zod, { to: 5 });
    const fromJson = await callOnce(json, { to: 5 });
    expect([zod.ran, json.ran]).toEqual([[], []]);
    const problem = fromZod.receipts[0]?.reason.slice('invalid_arguments:'.length) ?? '';
    expect(problem).toMatch(/^\/to: .*string/i);
    expect(fromZod.seen).toBe(`${PREFIX}${problem}${SUFFIX}`);
    expect(fromJson.seen).toBe(`${PREFIX}/to: must be string, got integer${SUFFIX}`);
    const shape = (receipts: typeof fromZod.receipts) =>
      receipts.map((r) => ({
        call_id: r.call_id,
        result: r.result,
        reason: r.reason.split(':')[0],
        args_hash: r.args_hash,
        principal: r.principal,
        decision: r.decision,
      }));
    expect(shape(fromZod.receipts)).toEqual(shape(fromJson.receipts));
    expect(fromZod.receipts[0]?.args_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  // a structured tool (outputSchema, no errorFunction) cannot answer with text: the run stops
  it.each([
    ['not logged', 'InvalidToolInputError', undefined],
    ['logged', 'ActionDenied', '0'],
  ])('a structured tool, tool data %s: the run stops (%s), the receipt written, nothing runs', async (_, thrown, flag) => {
    if (flag !== undefined) vi.stubEnv('OPENAI_AGENTS_DONT_LOG_TOOL_DATA', flag);
    const made = transferTool(ZOD, { extra: { outputSchema: z.object({ ok: z.boolean() }) } });
    const error = await failedRun(made);
    // the SDK's own (in its ToolCallError) when it withheld the arguments; else the guardrail's
    const cause = error.error ?? error;
    // an SDK that hands the guardrail the arguments: the guardrail refuses, as with tool data logged
    expect(cause.constructor.name).toBe(withheld ? thrown : 'ActionDenied');
    if (!withheld || thrown === 'ActionDenied') {
      expect(cause).toBeInstanceOf(ActionDenied);
      expect((cause as ActionDenied).reason).toBe('invalid_arguments');
    }
    expect(made.ran).toEqual([]);
    expect((await made.store.listReceipts()).map((r) => [r.result, r.reason.split(':')[0]])).toEqual([['refused', 'invalid_arguments']]);
  });

  it.each([
    ['not logged', undefined],
    ['logged', '0'],
  ])('the store failing on the receipt, tool data %s: the run fails closed, nothing runs', async (_, flag) => {
    if (flag !== undefined) vi.stubEnv('OPENAI_AGENTS_DONT_LOG_TOOL_DATA', flag);
    const base = memoryStore();
    let tried = 0;
    const store = new Proxy(base, {
      get(target, prop) {
        if (prop !== 'appendReceipt') return Reflect.get(target, prop);
        return async () => {
          tried++;
          throw new Error('ECONNREFUSED 127.0.0.1:5432');
        };
      },
    });
    const made = transferTool(ZOD, { store });
    const error = await failedRun(made);
    // with tool data withheld the SDK puts its own error in the store's place
    if (flag !== undefined) expect(error.message).toContain('ECONNREFUSED');
    expect(tried).toBe(1);
    expect(made.ran).toEqual([]);
  });

  it('a call the zod schema admits runs, with one receipt of its own and no refusal', async () => {
    const made = transferTool(ZOD);
    const { seen, receipts } = await callOnce(made, { to: 'bob' });
    expect(made.ran).toEqual([{ to: 'bob' }]);
    expect(seen).toBe('sent');
    expect(receipts.some((r) => r.result === 'refused')).toBe(false);
  });

  it("observe mode, tool data logged: nothing decided, the SDK's parse refuses it and the model reads the schema's problem in the same words", async () => {
    vi.stubEnv('OPENAI_AGENTS_DONT_LOG_TOOL_DATA', '0');
    const made = transferTool(ZOD, { mode: 'observe' });
    const { seen } = await callOnce(made, { to: 5 });
    expect(made.ran).toEqual([]);
    expect(seen).toMatch(/^The call to bank\.transfer was refused \(its arguments do not match the tool's schema: \/to: .*string.*\)\. It did not run;/i);
  });

  it('a zod-like schema that refuses without readable issues: still a refusal, with a problem to record', () => {
    const stage = argumentsStage({ safeParse: () => ({ success: false }) }, 'bank.transfer');
    expect(stage.policyArgs('{"to":5}')).toEqual({ ok: false, problem: "the tool's schema refused them" });
    const unreadable = argumentsStage({ safeParse: () => ({ success: false, error: { issues: [{ path: 'to', message: 7 }] } }) }, 'bank.transfer');
    expect(unreadable.policyArgs('{"to":5}')).toEqual({ ok: false, problem: "the tool's schema refused them" });
    const rooted = argumentsStage({ safeParse: () => ({ success: false, error: { issues: [{ message: 'Expected object' }] } }) }, 'bank.transfer');
    expect(rooted.policyArgs('{"to":5}')).toEqual({ ok: false, problem: '/: Expected object' });
  });
});
