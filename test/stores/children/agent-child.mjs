// A separate process that runs the refund desk agent through a protected tool, on a shared store.
// `node agent-child.mjs '<json config>'` (see test/stores/races.test.ts). Imports the BUILT
// runtime (dist/): run `npm run build` first. Prints one JSON line per event on stdout:
// {"ready":true} when set up (then waits for "go" on stdin if `waitForGo`), {"paused":...},
// {"outcome":"done","output":...} or {"error":NAME,"reason":...,"message":...}.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Agent, RunState } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import { z } from 'zod';
import { bindProtectedTool, createControl, httpStore, run } from '../../../dist/runtime/index.js';
import { sqliteStore } from '../../../dist/runtime/sqlite.js';
import { postgresStore } from '../../../dist/runtime/postgres.js';

const config = JSON.parse(process.argv[2]);
const say = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);

/** The compiled policy of SPEC §2, hand-written in the generated module's shape (fixed hash). */
function makePolicy() {
  const isInt = (v) => typeof v === 'number' && Number.isInteger(v);
  const field = (args, name) => (args && typeof args === 'object' ? args[name] : undefined);
  const template = (prefix, arg) => (args) => {
    const v = field(args, arg);
    return (typeof v === 'string' && v !== '') || isInt(v) ? { ok: true, value: `${prefix}:${v}` } : { ok: false, arg };
  };
  return {
    hash: 'e'.repeat(64),
    mode: 'enforce',
    environment: 'test',
    actions: {
      'stripe.refund': {
        id: 'stripe.refund',
        decide(args) {
          const amount = field(args, 'amount');
          if (isInt(amount) && amount >= 0 && amount <= 100_000) return { decision: 'allow', rule: 0, reason: 'rule[0]' };
          if (isInt(amount) && amount <= 1_000_000) return { decision: 'approve', rule: 1, reason: 'rule[0]' };
          return { decision: 'deny', rule: 2, reason: 'rule[0]' };
        },
        effect: template('refund', 'payment_id'),
        resource: template('payment', 'payment_id'),
        controls: [],
        approvalsRequired: 1,
        maxAttempts: 3,
      },
    },
    tools: { refund: 'stripe.refund' },
  };
}

function openStore() {
  if (config.store.kind === 'sqlite') return sqliteStore({ path: config.store.path, ...(config.store.driver ? { driver: config.store.driver } : {}) });
  if (config.store.kind === 'http') return httpStore({ url: config.store.url, token: config.store.token });
  return postgresStore({ connectionString: config.store.connectionString, schema: config.store.schema, max: 2 });
}

const store = openStore();
const control = createControl({
  store,
  identity: (rc) => rc.context?.user ?? null,
  ...(config.effectLeaseMs ? { effectLeaseMs: config.effectLeaseMs } : {}),
});
const protectedTool = bindProtectedTool(control, makePolicy());
const refund = protectedTool('stripe.refund', {
  name: 'refund',
  description: 'Refund a payment',
  parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
  execute: async (args) => {
    appendFileSync(config.countFile, `${process.pid} ${args.payment_id}\n`); // O_APPEND: one line per body run
    if (config.hangInBody) {
      say({ inBody: true });
      await new Promise(() => undefined); // killed here by the test
    }
    if (config.bodyMs) await new Promise((r) => setTimeout(r, config.bodyMs));
    return 'refunded';
  },
});

const steps =
  config.mode === 'resume' ? [[assistantMessage('done')]] : [[functionCall('refund', config.args, { callId: config.callId })], [assistantMessage('done')]];
const agent = new Agent({ name: 'desk', instructions: 'Refund desk', model: new ScriptedModel(steps), tools: [refund] });

async function waitForGo() {
  if (!config.waitForGo) return;
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) if (line.trim() === 'go') break;
  lines.close();
}

function report(error) {
  say({ error: error?.name ?? 'Error', reason: error?.reason ?? error?.code ?? null, message: String(error?.message ?? error) });
}

try {
  if (config.mode === 'pause') {
    const result = await run(agent, 'refund', { context: { user: config.user ?? 'alice' } });
    if (result.interruptions.length !== 1) throw new Error(`expected one interruption, got ${result.interruptions.length}`);
    await control.request(result.state);
    writeFileSync(config.stateFile, result.state.toString());
    say({ paused: config.callId });
  } else if (config.mode === 'resume') {
    const state = await RunState.fromString(agent, readFileSync(config.stateFile, 'utf8'));
    const pending = await control.resolve(state);
    say({ ready: true, pending: pending.length });
    await waitForGo();
    const result = await run(agent, state);
    say({ outcome: 'done', output: result.finalOutput });
  } else {
    say({ ready: true });
    await waitForGo();
    const result = await run(agent, 'refund', { context: { user: config.user ?? 'alice' } });
    say({ outcome: 'done', output: result.finalOutput });
  }
} catch (error) {
  report(error);
} finally {
  await store.close().catch(() => undefined);
}
process.exit(0);
